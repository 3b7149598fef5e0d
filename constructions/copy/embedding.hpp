// Token embeddings of the copy transformer (Repeat After Me, Appendix C). Tokens: the alphabet 0..D-1, then <BOS> = D
// and <COPY> = D + 1. Rows of the returned matrix are Psi(token).
//
// - one-hot (Lemma C.4 assumes it): d = D + 2.
// - Lemma C.2: d = ceil(log2 D) + 2; <BOS> = e_1, <COPY> = e_2, token k = [0, 0, Psi'(k)] with Psi'(k) the sign
//   pattern of k's binary digits (bit b of k set: -, clear: +). As printed the entries are +-1/sqrt(d)
//   (variant paper); then ||Psi(k)|| = sqrt(d'/d) < 1, against the lemma's first property. Variant corrected uses
//   +-1/sqrt(d') (d' = d - 2), which makes every row a unit vector (docs/errata.md E5). Entries are exact in Q(sqrt r),
//   rational when r is a square (QuadraticSurd then holds them as rationals).
#pragma once

#include "constructions/copy/strings.hpp"
#include "core/linalg.hpp"
#include "core/quadratic.hpp"

#include <string>

namespace tverify::copy {

enum class EmbeddingKind { OneHot, C2 };
enum class TransformerVariant { Paper, Corrected };

constexpr const char* to_string(EmbeddingKind k) { return k == EmbeddingKind::OneHot ? "onehot" : "c2"; }
constexpr const char* to_string(TransformerVariant v) { return v == TransformerVariant::Paper ? "paper" : "corrected"; }

constexpr Token bos_token(int alphabet) { return alphabet; }
constexpr Token copy_token(int alphabet) { return alphabet + 1; }

int ceil_log2(int x);
int embedding_dim(EmbeddingKind kind, int alphabet);

// (D + 2) x d, exact.
Matrix<QuadraticSurd> make_embedding(EmbeddingKind kind, int alphabet, TransformerVariant variant);

}  // namespace tverify::copy

#include "constructions/copy/embedding.hpp"

#include <stdexcept>

namespace tverify::copy {

int ceil_log2(int x) {
  int bits = 0;
  while ((1 << bits) < x) ++bits;
  return bits;
}

int embedding_dim(EmbeddingKind kind, int alphabet) {
  return kind == EmbeddingKind::OneHot ? alphabet + 2 : ceil_log2(alphabet) + 2;
}

Matrix<QuadraticSurd> make_embedding(EmbeddingKind kind, int alphabet, TransformerVariant variant) {
  const int d = embedding_dim(kind, alphabet);
  const int tokens = alphabet + 2;
  Matrix<QuadraticSurd> psi(static_cast<std::size_t>(tokens), static_cast<std::size_t>(d));
  if (kind == EmbeddingKind::OneHot) {
    for (int t = 0; t < tokens; ++t) psi(static_cast<std::size_t>(t), static_cast<std::size_t>(t)) = 1;
    return psi;
  }
  psi(static_cast<std::size_t>(bos_token(alphabet)), 0) = 1;
  psi(static_cast<std::size_t>(copy_token(alphabet)), 1) = 1;
  const int code_bits = d - 2;
  // +-1/sqrt(r) = +-(1/r) sqrt(r); r = d as printed, d' = d - 2 corrected.
  const unsigned long r = static_cast<unsigned long>(variant == TransformerVariant::Paper ? d : code_bits);
  for (int k = 0; k < alphabet; ++k)
    for (int b = 0; b < code_bits; ++b) {
      const bool minus = (k >> b) & 1;
      psi(static_cast<std::size_t>(k), static_cast<std::size_t>(2 + b)) =
          QuadraticSurd(Exact(0), Exact(minus ? -1 : 1, static_cast<long>(r)), r);
    }
  return psi;
}

}  // namespace tverify::copy

// The closed-form Hessian block of theta_pi over alpha (Appendix B.3, eq. (12), weight-tied; Appendix B.5 untied),
// exactly, from the point's rational p_n.
#pragma once

#include "constructions/markov/model.hpp"
#include "core/linalg.hpp"

namespace tverify::markov {

// The indices of alpha in the parameter vector: (b, e) tied, (b, a, e) untied.
std::vector<int> alpha_indices(const Layout& layout);

// pi0 pi1 [[1, u^T], [u, V]] with u = sum p_n / N, V = sum p_n p_n^T / N + 2(p+q-1) I (tied), or
// pi0 pi1 [[1, u^T, 0], [u, sum p_n p_n^T / N, (p+q-1) I], [0, (p+q-1) I, 0]] (untied); order as alpha_indices.
// Throws std::invalid_argument unless every p_n entry is rational.
Matrix<Exact> closed_form_h_alpha(const MarkovChain& chain, const Point& point);

}  // namespace tverify::markov

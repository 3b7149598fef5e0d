// The building blocks of the entp.* checks, exposed so that tests can hand them deliberately broken transformers.
#pragma once

#include "checkers/count3/count3_claims.hpp"
#include "constructions/count3/entp_transformer.hpp"
#include "core/interval.hpp"
#include "core/precision_ladder.hpp"

namespace tverify::count3 {

// left(left_inputs)[left_position] == right(right_inputs)[right_position], as real vectors.
struct OutputIdentity {
  std::string name;
  EntpModel left;
  std::vector<ExactVector> left_inputs;
  std::size_t left_position;
  EntpModel right;
  std::vector<ExactVector> right_inputs;
  std::size_t right_position;
};

// Z3 with free exponentials proves it (pass); else disjoint interval enclosures refute it (fail); else unknown.
void check_output_identity(const OutputIdentity& identity, unsigned timeout_ms, Tally& tally);
ClaimResult check_output_identities(const ClaimSpec& spec, const std::vector<OutputIdentity>& identities,
                                    unsigned timeout_ms);
// A.2: D(x_1..x_4)_i = D(x_1..x_i)_i for each decoder; A.3: E(x_1..x_i)_i = D(x_1..x_i)_i, D = E made causal.
std::vector<OutputIdentity> decoder_prefix_identities(const std::vector<EntpModel>& decoders, std::uint64_t seed);
std::vector<OutputIdentity> encoder_decoder_identities(const std::vector<EntpModel>& encoders, std::uint64_t seed);
std::vector<EntpModel> random_models(std::uint64_t seed, std::size_t layers, bool causal);

// Theorem 4.1's checks on a given decoder (the paper's D~, or a broken one).
ClaimResult check_thm4_1_model(const EntpModel& decoder, std::uint64_t seed);
// The rungs of the precision ladder the ENTP interval checks climb (core/precision_ladder.hpp); their enclosures are
// reported at the rung that decided them.
inline constexpr Rungs<128, 1024, 16384> entp_rungs{};

// alpha, beta of eq. (5) enclosed at `Bits` bits: E~(x1, x2)_2 = alpha x1 + beta x2 (the encoder must have W_V = I).
// Defined for the rungs of entp_rungs.
template <unsigned Bits>
std::pair<Interval<Bits>, Interval<Bits>> thm4_2_coefficients(const EntpModel& encoder, const ExactVector& x1,
                                                              const ExactVector& x2);

}  // namespace tverify::count3

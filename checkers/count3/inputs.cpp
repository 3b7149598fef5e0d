#include "checkers/count3/inputs.hpp"

#include <fmt/format.h>

namespace tverify::count3 {

namespace {
constexpr std::uint64_t prefixes_per_sample =
    InputSource::experiment_length - 1 - InputSource::experiment_seed_length + 1;  // m = 16..63
}

InputSource InputSource::exhaustive(SequenceDomain domain) {
  InputSource s;
  s.domain_ = std::move(domain);
  return s;
}

InputSource InputSource::experiment(std::uint64_t seed, std::uint64_t samples) {
  InputSource s;
  s.experiment_ = true;
  s.seed_ = seed;
  s.samples_ = samples;
  return s;
}

std::uint64_t InputSource::size() const { return experiment_ ? samples_ * prefixes_per_sample : domain_.size; }

int InputSource::max_length() const { return experiment_ ? experiment_length - 1 : domain_.max_length; }

Sequence InputSource::at(std::uint64_t index) const {
  if (!experiment_) return domain_.at(index);
  thread_local std::uint64_t cached_seed = 0, cached_sample = ~std::uint64_t{0};
  thread_local Sequence cached;
  const std::uint64_t sample = index / prefixes_per_sample;
  if (sample != cached_sample || seed_ != cached_seed) {
    cached = experiment_sequence(seed_, sample, experiment_seed_length, 63, experiment_length);
    cached_sample = sample;
    cached_seed = seed_;
  }
  const auto m = static_cast<std::size_t>(experiment_seed_length) + index % prefixes_per_sample;
  return Sequence(cached.begin(), cached.begin() + static_cast<std::ptrdiff_t>(m));
}

std::string InputSource::describe() const {
  if (!experiment_) return domain_.describe();
  return fmt::format(
      "ENTP Sec. 6.1 experiment: {} samples (seed {}), each 16 integers uniform in [0, 63] extended to "
      "64 by eq. 4; every prefix x_1..x_m with 16 <= m <= 63 ({} inputs)",
      samples_, seed_, size());
}

}  // namespace tverify::count3

#include "checkers/model/model_tally.hpp"

#include "checkers/model/engine_calls.hpp"

namespace tverify::model {

void to_json(Json& j, const ModelTally& t) { put_fields(j, t.by_length, t.by_bits, t.unknown_inputs); }
void from_json(const Json& j, ModelTally& t) { get_fields(j, t.by_length, t.by_bits, t.unknown_inputs); }

Tally& tally_of_length(ModelTally& t, int length, std::size_t limit) {
  return t.by_length.try_emplace(length, Tally{.limit = limit}).first->second;
}

ModelTally tally_inputs(const ExactCheck& check, std::uint64_t count,
                        const std::function<std::uint64_t(std::uint64_t)>& input) {
  const std::size_t limit = check.options.max_counterexamples;
  return enumerate_indices<ModelTally>(
      count, check.options, "model inputs",
      [&](std::uint64_t k, ModelTally& acc) {
        const ModelCase c = check.cases->at(input(k));
        if (!c.instance) return;
        const CaseOutcome out = outcome_of_case(*check.model, c.task_case, check.decode, check.limits);
        Tally& t = tally_of_length(acc, c.length, limit);
        if (out.kind != CaseOutcome::Kind::Unknown) ++acc.by_bits[out.bits];
        if (out.kind == CaseOutcome::Kind::Right)
          t.pass();
        else if (out.kind == CaseOutcome::Kind::Wrong)
          t.fail({c.input, out.expected, out.got, out.detail});
        else {
          ++t.checked, ++t.unknown;
          if (acc.unknown_inputs.size() < limit)
            acc.unknown_inputs.push_back({{"input", c.input}, {"detail", out.detail}});
        }
      },
      [limit](ModelTally& into, ModelTally&& from) {
        for (auto& [length, t] : from.by_length) tally_of_length(into, length, limit).merge(std::move(t));
        for (const auto& [bits, n] : from.by_bits) into.by_bits[bits] += n;
        append_limited(into.unknown_inputs, std::move(from.unknown_inputs), limit);
      });
}

}  // namespace tverify::model

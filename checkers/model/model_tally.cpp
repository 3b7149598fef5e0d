#include "checkers/model/model_tally.hpp"

#include "checkers/model/engine_calls.hpp"

namespace tverify::model {

bool SmallestMargin::before(const SmallestMargin& other) const {
  if (margin.lower_below(other.margin)) return true;
  return !other.margin.lower_below(margin) && index < other.index;
}

void ModelTally::keep_smaller(const std::optional<SmallestMargin>& candidate) {
  if (candidate && (!smallest_margin || candidate->before(*smallest_margin))) smallest_margin = candidate;
}

namespace {

Json margin_json(const std::optional<SmallestMargin>& m) {
  if (!m) return nullptr;
  return Json::array(
      {m->margin.text(), exact_to_string(m->margin.lower), m->margin.inf, m->input, m->position, m->index});
}

std::optional<SmallestMargin> margin_from_json(const Json& j) {
  if (j.is_null()) return std::nullopt;
  SmallestMargin m;
  m.margin =
      ReadValue::printed(j.at(0).get<std::string>(), parse_exact(j.at(1).get<std::string>()), j.at(2).get<int>());
  m.input = j.at(3);
  m.position = j.at(4).get<std::size_t>();
  m.index = j.at(5).get<std::uint64_t>();
  return m;
}

}  // namespace

void to_json(Json& j, const ModelTally& t) {
  put_fields(j, t.by_length, t.by_bits, t.unknown_inputs, margin_json(t.smallest_margin), t.right_without_margin);
}
void from_json(const Json& j, ModelTally& t) {
  Json margin;
  get_fields(j, t.by_length, t.by_bits, t.unknown_inputs, margin, t.right_without_margin);
  t.smallest_margin = margin_from_json(margin);
}

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
        if (out.kind == CaseOutcome::Kind::Right && out.margin)
          acc.keep_smaller(SmallestMargin{*out.margin, c.input, out.margin_position, input(k)});
        else if (out.kind == CaseOutcome::Kind::Right)
          ++acc.right_without_margin;
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
        into.keep_smaller(from.smallest_margin);
        into.right_without_margin += from.right_without_margin;
      });
}

}  // namespace tverify::model

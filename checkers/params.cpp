#include "checkers/params.hpp"

#include <algorithm>
#include <charconv>

namespace tverify {

std::string ParamSpec::range_text() const {
  if (kind == Kind::Integer) return "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (kind == Kind::Text) return input_file ? "a file's path" : "text";
  if (kind == Kind::Flag) return "a flag (given or not)";
  if (kind == Kind::Probability) return "an exact number strictly between 0 and 1, such as 1/3 or 0.8";
  if (kind == Kind::IntegerRange)
    return "a range lo:hi of integers with " + std::to_string(min) + " <= lo <= hi <= " + std::to_string(max);
  if (kind == Kind::PositiveRational) {
    std::string words;
    for (const auto& c : choices) words += " or '" + c + "'";
    if (!rational_max.empty())
      return "an exact number in " + (rational_min.empty() ? "(0" : "[" + rational_min) + ", " + rational_max + "]" +
             words;
    return "an exact number > 0 (e.g. 12, 7/2, 3.5)" + words;
  }
  std::string out = "one of ";
  for (std::size_t i = 0; i < choices.size(); ++i) out += (i ? ", " : "") + choices[i];
  return out;
}

std::string ParamSpec::range_and_default() const {
  std::string out = kind != Kind::Text || input_file ? range_text() : "";
  if (!default_value.empty()) out += (out.empty() ? "" : "; ") + std::string("default ") + default_value;
  return out;
}

ParamSpec integer_param(std::string name, std::string help, long long min, long long max, std::string default_value) {
  return {std::move(name), std::move(help), ParamSpec::Kind::Integer, min, max, {}, std::move(default_value)};
}

ParamSpec range_param(std::string name, std::string help, long long min, long long max, std::string default_value) {
  return {std::move(name), std::move(help), ParamSpec::Kind::IntegerRange, min, max, {}, std::move(default_value)};
}

ParamSpec choice_param(std::string name, std::string help, std::vector<std::string> choices,
                       std::string default_value) {
  return {std::move(name),    std::move(help),         ParamSpec::Kind::Choice, 0, 0,
          std::move(choices), std::move(default_value)};
}

ParamSpec text_param(std::string name, std::string help, std::string default_value) {
  return {std::move(name), std::move(help), ParamSpec::Kind::Text, 0, 0, {}, std::move(default_value)};
}

ParamSpec text_param(std::string name, std::string help, std::string default_value, std::string metavar) {
  ParamSpec spec = text_param(std::move(name), std::move(help), std::move(default_value));
  spec.metavar = std::move(metavar);
  return spec;
}

ParamSpec input_file_param(std::string name, std::string help, std::string default_value) {
  ParamSpec spec = text_param(std::move(name), std::move(help), std::move(default_value));
  spec.input_file = true;
  return spec;
}

ParamSpec flag_param(std::string name, std::string help) {
  return {std::move(name), std::move(help), ParamSpec::Kind::Flag, 0, 0, {}, "false"};
}

ParamSpec probability_param(std::string name, std::string help, std::string default_value) {
  return {std::move(name), std::move(help), ParamSpec::Kind::Probability, 0, 0, {}, std::move(default_value)};
}

ParamSpec seed_param(std::string help) { return integer_param("seed", std::move(help), 0, 1'000'000'000'000, "1"); }

ParamSpec rational_param(std::string name, std::string help, std::string default_value, RationalBounds bounds) {
  return {std::move(name),
          std::move(help),
          ParamSpec::Kind::PositiveRational,
          0,
          0,
          std::move(bounds.words),
          std::move(default_value),
          std::move(bounds.min),
          std::move(bounds.max)};
}

std::vector<std::string> without_repeats(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items)
    if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);
  return out;
}

std::vector<std::string> split_list(const std::string& text, char sep, const std::string& option,
                                    const std::string& what) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = std::min(text.find(sep, start), text.size());
    items.push_back(text.substr(start, end - start));
    if (items.back().empty())
      throw UsageError(option + " must be " + what + ", with no empty item (got '" + text + "')");
    if (end == text.size()) return items;
    start = end + 1;
  }
}

long long parse_integer_option(const std::string& option, const std::string& text, long long min, long long max) {
  long long value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < min || value > max)
    throw UsageError(option + " must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
                     "] (got '" + text + "')");
  return value;
}

namespace {

std::pair<long long, long long> parse_range(const ParamSpec& spec, const std::string& text) {
  const auto colon = text.find(':');
  const auto fail = [&] {
    return UsageError("--" + spec.name + " must be " + spec.range_text() + " (got '" + text + "')");
  };
  if (colon == std::string::npos) throw fail();
  try {
    const long long lo = parse_integer_option("--" + spec.name, text.substr(0, colon), spec.min, spec.max);
    const long long hi = parse_integer_option("--" + spec.name, text.substr(colon + 1), spec.min, spec.max);
    if (lo <= hi) return {lo, hi};
  } catch (const UsageError&) {}
  throw fail();
}

}  // namespace

struct ParamValues::ReadMarks {
  explicit ReadMarks(std::size_t count) : read(count) {}
  std::vector<std::atomic<bool>> read;
};

ParamValues ParamValues::parse(const std::vector<ParamSpec>& specs, const std::map<std::string, std::string>& raw) {
  ParamValues values;
  for (const auto& spec : specs) {
    auto given = raw.find(spec.name);
    if (given == raw.end() && spec.default_value.empty()) continue;  // an optional parameter left out
    const std::string text = given != raw.end() ? given->second : spec.default_value;
    values.order_.push_back(spec.name);
    if (given != raw.end()) values.given_.push_back(spec.name);
    if (spec.kind == ParamSpec::Kind::Integer) {
      values.integers_[spec.name] = parse_integer_option("--" + spec.name, text, spec.min, spec.max);
    } else if (spec.kind == ParamSpec::Kind::Text) {
      values.choices_[spec.name] = text;
    } else if (spec.kind == ParamSpec::Kind::IntegerRange) {
      values.choices_[spec.name] = text;
      values.ranges_[spec.name] = parse_range(spec, text);
    } else if (spec.kind == ParamSpec::Kind::PositiveRational || spec.kind == ParamSpec::Kind::Probability) {
      values.choices_[spec.name] = text;
      if (std::find(spec.choices.begin(), spec.choices.end(), text) != spec.choices.end()) {
        values.rationals_[spec.name] = std::nullopt;
        continue;
      }
      try {
        const Exact q = parse_exact(text);
        if (q <= 0) throw std::invalid_argument("not positive");
        if (spec.kind == ParamSpec::Kind::Probability && q >= 1) throw std::invalid_argument("not below 1");
        if (!spec.rational_min.empty() && q < parse_exact(spec.rational_min)) throw std::invalid_argument("below");
        if (!spec.rational_max.empty() && q > parse_exact(spec.rational_max)) throw std::invalid_argument("above");
        values.rationals_[spec.name] = q;
      } catch (const std::invalid_argument&) {
        throw UsageError("--" + spec.name + " must be " + spec.range_text() + " (got '" + text + "')");
      }
    } else if (spec.kind == ParamSpec::Kind::Flag) {
      if (text != "true" && text != "false")
        throw UsageError("--" + spec.name + " must be " + spec.range_text() + " (got '" + text + "')");
      values.choices_[spec.name] = text;
    } else {
      bool known = false;
      for (const auto& c : spec.choices) known = known || c == text;
      if (!known) throw UsageError("--" + spec.name + " must be " + spec.range_text() + " (got '" + text + "')");
      values.choices_[spec.name] = text;
    }
  }
  for (const auto& [name, text] : raw) {
    bool known = false;
    for (const auto& spec : specs) known = known || spec.name == name;
    if (!known) {
      std::string read;
      for (const auto& spec : specs) read += (read.empty() ? "--" : ", --") + spec.name;
      throw UsageError("--" + name + " is not a parameter this command reads (it reads " +
                       (read.empty() ? std::string("none") : read) + ")");
    }
  }
  values.read_ = std::make_shared<ReadMarks>(values.order_.size());
  return values;
}

std::atomic<bool>* ParamValues::read_mark(const std::string& name) const {
  const auto at = std::find(order_.begin(), order_.end(), name);
  return read_ && at != order_.end() ? &read_->read[static_cast<std::size_t>(at - order_.begin())] : nullptr;
}

void ParamValues::mark_read(const std::string& name) const {
  if (auto* mark = read_mark(name)) mark->store(true, std::memory_order_relaxed);
}

bool ParamValues::was_read(const std::string& name) const {
  const auto* mark = read_mark(name);
  return mark && mark->load();
}

bool ParamValues::has(const std::string& name) const {
  mark_read(name);
  return std::find(order_.begin(), order_.end(), name) != order_.end();
}

bool ParamValues::given(const std::string& name) const {
  return std::find(given_.begin(), given_.end(), name) != given_.end();
}

ParamValues ParamValues::none_given() const {
  ParamValues out = *this;
  out.given_.clear();
  return out;
}

ParamValues ParamValues::with_text(const std::string& name, const std::string& value) const {
  ParamValues out = *this;
  out.choices_.at(name) = value;
  return out;
}

long long ParamValues::integer(const std::string& name) const {
  mark_read(name);
  return integers_.at(name);
}
const std::string& ParamValues::choice(const std::string& name) const {
  mark_read(name);
  return choices_.at(name);
}
bool ParamValues::flag(const std::string& name) const { return choice(name) == "true"; }
const std::optional<Exact>& ParamValues::rational(const std::string& name) const {
  mark_read(name);
  return rationals_.at(name);
}
std::pair<long long, long long> ParamValues::range(const std::string& name) const {
  mark_read(name);
  return ranges_.at(name);
}

Json ParamValues::to_json() const {
  Json out = Json::object();
  for (const auto& name : order_) {
    if (auto it = integers_.find(name); it != integers_.end())
      out[name] = it->second;
    else
      out[name] = choices_.at(name);
  }
  return out;
}

}  // namespace tverify

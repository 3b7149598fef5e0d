#include "commands/recorded_command.hpp"

#include "commands/command_line.hpp"
#include "io/errors.hpp"
#include "checkers/memory_budget.hpp"

#include <algorithm>
#include <optional>

namespace tverify {

namespace {

RunOptionSpec text_option(std::string name) { return {std::move(name), false, 1, 0, false}; }
RunOptionSpec flag_option(std::string name) { return {std::move(name), true, 1, 0, false}; }
RunOptionSpec count_option(std::string name, long long min, long long max) {
  return {std::move(name), false, min, max, false};
}

// What every run takes (`CommonRunArgs` of the CLI).
std::vector<RunOptionSpec> limits() {
  return {count_option("threads", 1, max_threads), flag_option("progress"),
          count_option("max-inputs", 1, max_max_inputs), flag_option("force"),
          count_option("max-counterexamples", 0, max_max_counterexamples)};
}

// Every option `verb` takes for `c`, parameters and sweep options included, by name.
struct OptionTable {
  std::vector<RunOptionSpec> run;
  std::vector<ParamSpec> params, sweep;

  const RunOptionSpec* run_option(const std::string& name) const {
    const auto it = std::find_if(run.begin(), run.end(), [&](const RunOptionSpec& o) { return o.name == name; });
    return it == run.end() ? nullptr : &*it;
  }
  static const ParamSpec* find(const std::vector<ParamSpec>& specs, const std::string& name) {
    const auto it = std::find_if(specs.begin(), specs.end(), [&](const ParamSpec& p) { return p.name == name; });
    return it == specs.end() ? nullptr : &*it;
  }
};

OptionTable option_table(const std::string& verb, const Construction& c) {
  OptionTable table{run_options_of(verb, c), c.params_for(verb), {}};
  if (verb == "sweep")
    for (const auto& s : c.sweeps())
      for (const auto& o : s.options)
        if (!OptionTable::find(table.sweep, o.name)) table.sweep.push_back(o);
  return table;
}

// One option of the line: its name, its value (nullopt for a flag) and where it goes.
struct ReadOption {
  std::string name;
  std::optional<std::string> value;
};

// Reads the words after `tverify VERB CONSTRUCTION` into options; the reason when a word is no option of the table.
std::variant<std::vector<ReadOption>, std::string> read_options(const std::vector<std::string>& words,
                                                                const OptionTable& table) {
  std::vector<ReadOption> out;
  for (std::size_t i = 3; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word.rfind("--", 0) != 0 || word.size() == 2) return "'" + word.substr(0, 40) + "' is no option";
    std::string name = word.substr(2);
    std::optional<std::string> value;
    if (const auto equals = name.find('='); equals != std::string::npos) {
      value = name.substr(equals + 1);
      name.resize(equals);
    }
    const RunOptionSpec* run = table.run_option(name);
    const ParamSpec* param = run ? nullptr : OptionTable::find(table.params, name);
    const ParamSpec* sweep = run || param ? nullptr : OptionTable::find(table.sweep, name);
    if (!run && !param && !sweep) return "--" + name.substr(0, 40) + " is not an option of this command";
    const bool flag = run ? run->flag : (param ? param : sweep)->kind == ParamSpec::Kind::Flag;
    if (flag && value) return "--" + name + " is a flag and takes no value";
    if (!flag && !value) {
      if (i + 1 == words.size()) return "--" + name + " has no value";
      value = words[++i];
    }
    const bool repeatable = run && run->repeatable;
    if (!repeatable && std::any_of(out.begin(), out.end(), [&](const ReadOption& o) { return o.name == name; }))
      return "--" + name + " is given twice";
    out.push_back({name, value});
  }
  return out;
}

std::size_t count_value(const RunOptionSpec& spec, const std::string& text) {
  return static_cast<std::size_t>(parse_integer_option("--" + spec.name, text, spec.min, spec.max));
}

}  // namespace

std::vector<RunOptionSpec> run_options_of(const std::string& verb, const Construction& c) {
  std::vector<RunOptionSpec> out = limits();
  out.push_back(text_option("variant"));
  if (c.estimates_memory() && (verb == "check" || verb == "sweep")) out.push_back(text_option("max-memory"));
  if (verb == "check" || verb == "prove") {
    out.push_back({"claim", false, 1, 0, true});
    out.push_back(text_option("json"));
    out.push_back(count_option("digits", 0, 1000));
  }
  if (verb == "check") {  // a checkpoint changes no result: recheck re-runs without it
    out.push_back(text_option("checkpoint"));
    out.push_back(flag_option("resume"));
    out.push_back(count_option("checkpoint-every", 0, 86400));
  }
  if (verb == "prove") {
    out.push_back(text_option("smt2"));
    out.push_back(count_option("timeout-s", 1, 86400));
    out.push_back(flag_option("cross-check"));
  }
  if (verb == "sweep") {
    out.push_back(text_option("vary"));
    out.push_back(text_option("out"));
    out.push_back(text_option("figure-size"));
    const auto& sweeps = c.sweeps();
    if (std::any_of(sweeps.begin(), sweeps.end(), [](const SweepSpec& s) { return s.fast; }))
      out.push_back(flag_option("fast"));
  }
  return out;
}

std::variant<RecordedCommand, std::string> read_recorded_command(const std::string& line, const std::string& verb,
                                                                 const Construction& c) {
  const std::string expected = "tverify " + verb + " " + c.name();
  const auto words = shell_words(line);
  if (!words) return std::string("an unclosed quote or a trailing backslash");
  if (words->size() < 3 || (*words)[0] != "tverify" || (*words)[1] != verb || (*words)[2] != c.name())
    return "it does not start with `" + expected + "`";
  if (verb == "prove" && !c.has_proofs()) return c.name() + " has no proofs";
  const OptionTable table = option_table(verb, c);
  auto read = read_options(*words, table);
  if (const auto* reason = std::get_if<std::string>(&read)) return *reason;
  RecordedCommand out;
  try {
    for (const auto& [name, value] : std::get<std::vector<ReadOption>>(read)) {
      if (value && value->empty()) return "--" + name + " needs a value (got an empty string)";
      const std::string text = value.value_or("true");
      if (OptionTable::find(table.params, name))
        out.params[name] = text;
      else if (OptionTable::find(table.sweep, name))
        out.sweep_options[name] = text;
      else if (name == "claim")
        out.claims.push_back(text);
      else if (name == "variant")
        out.variant = text;
      else if (name == "vary")
        out.vary = text;
      else if (name == "fast")
        out.fast = true;
      else if (name == "max-counterexamples") {
        out.max_counterexamples = count_value(*table.run_option(name), text);
        out.max_counterexamples_given = true;
      } else if (name == "max-memory")
        parse_memory_size(text, "--max-memory");  // recheck runs under its own budget
      else if (name == "cross-check")
        out.cross_check = true;
      else if (name == "timeout-s")
        out.timeout_ms = static_cast<unsigned>(count_value(*table.run_option(name), text) * 1000);
      else if (const RunOptionSpec* spec = table.run_option(name); !spec->flag && spec->min <= spec->max)
        count_value(*spec, text);  // no rerun reads it, but the CLI refuses it out of range
    }
    ParamValues::parse(table.params, out.params);
    if (!out.variant.empty()) c.variant_or_default(out.variant);
    for (const auto& id : out.claims) c.claim(id);
  } catch (const UsageError& e) { return e.what(); }
  if (verb == "sweep" && out.vary.empty()) return std::string("a sweep without --vary");
  out.claims = without_repeats(out.claims);
  return out;
}

}  // namespace tverify

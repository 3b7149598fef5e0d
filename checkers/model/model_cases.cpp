#include "checkers/model/model_cases.hpp"

#include "io/errors.hpp"
#include "io/files.hpp"
#include "io/sha256.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace tverify::model {

namespace {

constexpr std::int64_t max_file_token = 1'000'000;

Tokens tokens_of(const Json& j, const std::string& where, bool allow_scalar) {
  Tokens out;
  if (allow_scalar && j.is_number_integer()) return {j.get<std::int64_t>()};
  if (!j.is_array()) throw UsageError(where + " must be a list of token ids");
  for (const auto& t : j) {
    if (!t.is_number_integer() || t.get<std::int64_t>() < 0 || t.get<std::int64_t>() > max_file_token)
      throw UsageError(fmt::format("{} must hold token ids, integers in [0, {}]", where, max_file_token));
    out.push_back(t.get<std::int64_t>());
  }
  return out;
}

// One line: {"input": [...], "output": [...]} (for --decode last, "output" may be one id).
ModelCase file_case(const Json& line, const std::string& where, Decode decode) {
  if (!line.is_object() || !line.contains("input") || !line.contains("output") || line.size() != 2)
    throw UsageError(where + " must be an object with \"input\" and \"output\" and no other key");
  const Tokens input = tokens_of(line["input"], where + ": \"input\"", false);
  const Tokens output = tokens_of(line["output"], where + ": \"output\"", true);
  if (input.empty() || output.empty()) throw UsageError(where + ": \"input\" and \"output\" must not be empty");
  TaskCase c;
  c.targets = output;
  if (decode == Decode::Generate) {
    c.generative = true;
    c.sequence = input;
    c.read_from = input.size() - 1;
    c.sequence.insert(c.sequence.end(), output.begin(), output.end() - 1);
  } else if (decode == Decode::Last) {
    if (output.size() != 1) throw UsageError(where + ": with --decode last, \"output\" must be one token id");
    c.sequence = input;
    c.read_from = input.size() - 1;
  } else {
    if (output.size() > input.size())
      throw UsageError(where + ": \"output\" is longer than \"input\" (--decode every reads the last outputs)");
    c.sequence = input;
    c.read_from = input.size() - output.size();
  }
  return {std::move(c), line["input"], static_cast<int>(input.size())};
}

}  // namespace

ModelCases::ModelCases(const Task& task, long long V, int lo, int hi, const RunOptions& options)
    : task_(task), V_(V), domain_(make_sequence_domain(hi, 0, V - 1, options, lo)) {}

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A uniform index in [0, size) for sample i: splitmix64 of (seed, i), redrawn while in the partial top block, so the
// same on every machine and for every thread count.
std::uint64_t sample_index(std::uint64_t seed, std::uint64_t i, std::uint64_t size) {
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % size;
  std::uint64_t x = splitmix64(splitmix64(seed) ^ i);
  while (x >= limit) x = splitmix64(x);
  return x % size;
}

RunOptions unbounded(RunOptions options) {
  options.force = true;  // a sample reads `samples` inputs, however large the domain it draws from
  return options;
}

}  // namespace

ModelCases::ModelCases(const Task& task, long long V, int lo, int hi, std::uint64_t samples, std::uint64_t seed,
                       const RunOptions& options)
    : task_(task),
      V_(V),
      domain_(make_sequence_domain(hi, 0, V - 1, unbounded(options), lo)),
      samples_(samples),
      seed_(seed) {
  check_budget(samples, options, "sampled sequences");
}

ModelCases::ModelCases(const std::string& expected_path, Decode decode, const RunOptions& options) {
  const std::string what = "--expected '" + expected_path + "'";
  const std::string bytes = read_text_file(expected_path, what);
  file_sha256_ = sha256_hex(bytes);
  std::istringstream text(bytes);
  std::string line;
  for (int number = 1; std::getline(text, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = fmt::format("{} line {}", what, number);
    file_cases_.push_back(file_case(parse_json_text(line, where), where, decode));
  }
  if (file_cases_.empty()) throw UsageError(what + " holds no input/output pairs");
  check_budget(file_cases_.size(), options, "input/output pairs of " + what);
  std::stable_sort(file_cases_.begin(), file_cases_.end(),
                   [](const ModelCase& a, const ModelCase& b) { return a.length < b.length; });
}

std::uint64_t ModelCases::size() const {
  if (sampled()) return samples_;
  return domain_ ? domain_->size : file_cases_.size();
}

ModelCase ModelCases::at(std::uint64_t index) const {
  if (!domain_) return file_cases_.at(index);
  const Sequence x = domain_->at(sampled() ? sample_index(seed_, index, domain_->size) : index);
  const Tokens tokens(x.begin(), x.end());
  if (task_->is_instance && !task_->is_instance(tokens))
    return {{}, Json(tokens), static_cast<int>(tokens.size()), false};
  return {case_of(*task_, tokens, V_), Json(tokens), static_cast<int>(tokens.size())};
}

std::vector<std::size_t> ModelCases::sequence_lengths() const {
  std::vector<std::size_t> lengths;
  auto add = [&](std::size_t n) {
    if (std::find(lengths.begin(), lengths.end(), n) == lengths.end()) lengths.push_back(n);
  };
  if (domain_)
    for (int n = domain_->min_length; n <= domain_->max_length; ++n) add(sequence_length(*task_, n, V_));
  for (const auto& c : file_cases_) add(c.task_case.sequence.size());
  return lengths;
}

std::string ModelCases::describe() const {
  if (sampled())
    return fmt::format("a uniform random sample (with replacement, seed {}) of {} from {}, laid out by task {} ({})",
                       seed_, samples_, domain_->describe(), task_->name, task_->layout);
  if (domain_)
    return domain_->describe() + ", laid out by task " + task_->name + " (" + task_->layout + ")" +
           (task_->instances.empty() ? "" : "; checked: " + task_->instances);
  // The path is in the certificate's params; recheck may read the file by another path (docs/certificate.md).
  return fmt::format(
      "the {} input/output pairs of the --expected file (an input's length counts every token written "
      "in it)",
      file_cases_.size());
}

}  // namespace tverify::model

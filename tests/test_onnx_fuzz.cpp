// The seeded ONNX graph mutator. A fixed-seed generator (tests/onnx_graph_generator.hpp) builds small valid graphs
// that together use every op the model evaluator supports; each graph must be checked to the end (a verdict, never
// a refusal). Then single edits of it (an attribute's value, type or presence; a constant's entry, element count or
// shape; a node's input dropped, duplicated or replaced; its op replaced) each go through the CLI's path (the file
// written, read and checked by `check model` on every sequence of lengths 1..2, token ids 0..2), and each run must
// complete or throw UsageError (the CLI's exit 2). Any other exception fails the test, and so does a crash, a run
// that does not return, or, in the sanitize build, an out-of-bounds read: each case runs in a child process, so the
// test reports such a case and goes on.
//
// The loop runs until a wall-clock budget is spent; graph i is drawn from the seed and i alone, so a failure names
// both and reproduces without the graphs before it.
#include "io/errors.hpp"
#include "io/files.hpp"
#include "checkers/registry.hpp"
#include "model/graph.hpp"
#include "model/op_table.hpp"
#include "onnx_graph_generator.hpp"

#include <boost/core/demangle.hpp>
#include <catch2/catch.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>
#include <typeinfo>

using namespace tverify;
using namespace tverify::testing;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t fuzz_seed = 0x6f6e6e782d66757aULL;  // "onnx-fuz"
constexpr int mutants_per_graph = 3;
constexpr int max_failures = 10;  // the first failures are reported, then the loop stops

// Wall-clock budget of the loop, and the most one case may take (a valid graph's check takes milliseconds): longer in
// the sanitize build (GCC defines __SANITIZE_ADDRESS__ under -fsanitize=address), whose runs are slower and whose
// memory checks are the point of running there.
#ifdef __SANITIZE_ADDRESS__
constexpr std::chrono::seconds budget() { return std::chrono::seconds(60); }
constexpr std::chrono::seconds case_timeout() { return std::chrono::seconds(20); }
#else
constexpr std::chrono::seconds budget() { return std::chrono::seconds(20); }
constexpr std::chrono::seconds case_timeout() { return std::chrono::seconds(5); }
#endif

// ------------------------------------------------------------------------------------------------ the op list

std::set<std::string> evaluator_ops() {
  std::set<std::string> ops;
  std::istringstream text(model::supported_ops_text());
  for (std::string op; std::getline(text, op, ',');) ops.insert(op.substr(op.find_first_not_of(' ')));
  return ops;
}

std::set<std::string> generator_ops() {
  std::set<std::string> ops;
  for (const auto& [op, recipe] : op_recipes()) ops.insert(op);
  return ops;
}

std::string joined(const std::set<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// ------------------------------------------------------------------------------------------------ the mutations

using Ints = std::vector<std::int64_t>;

std::size_t index_below(std::size_t n, Rng& rng) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }

template <class T>
const T& any_of(const std::vector<T>& options, Rng& rng) {
  return options[index_below(options.size(), rng)];
}

// Integers past the edge of what an axis, index, size or count may be.
std::int64_t edge_integer(Rng& rng) {
  static const Ints values{-1,
                           0,
                           1,
                           2,
                           3,
                           -2,
                           -3,
                           4,
                           -4,
                           7,
                           (std::int64_t{1} << 24) + 1,
                           std::int64_t{1} << 31,
                           std::int64_t{1} << 40,
                           -(std::int64_t{1} << 40),
                           recipes::int64_max,
                           recipes::int64_min};
  return any_of(values, rng);
}

Exact edge_real(Rng& rng) {
  static const std::vector<Exact> values{Exact(0),
                                         Exact(-1),
                                         Exact(1, 3),
                                         Exact(1, 2),
                                         Exact(7),
                                         Exact(BigInt(1) << 40),
                                         Exact(BigInt(-1), BigInt(1) << 40)};
  return any_of(values, rng);
}

std::string node_label(const NodeSpec& n) { return "node " + n.output + " (" + n.op + ")"; }

// A node for which `fits` holds, or none.
NodeSpec* node_where(GraphSpec& g, Rng& rng, const std::function<bool(const NodeSpec&)>& fits) {
  std::vector<NodeSpec*> candidates;
  for (auto& n : g.nodes)
    if (fits(n)) candidates.push_back(&n);
  return candidates.empty() ? nullptr : any_of(candidates, rng);
}

bool has_attributes(const NodeSpec& n) { return !n.attributes.empty(); }
bool has_inputs(const NodeSpec& n) { return !n.inputs.empty(); }

// One edit of a list of integers: an entry changed to an edge value or to another entry (a repeated axis), an entry
// repeated at the end or removed, or the list emptied.
void edit_list(Ints& list, Rng& rng) {
  if (list.empty()) {
    list.push_back(edge_integer(rng));
    return;
  }
  const std::size_t i = index_below(list.size(), rng);
  switch (rng() % 5) {
    case 0: list[i] = edge_integer(rng); break;
    case 1: list[i] = list[index_below(list.size(), rng)]; break;
    case 2: list.push_back(list[i]); break;
    case 3: list.erase(list.begin() + static_cast<long>(i)); break;
    default: list.clear(); break;
  }
}

using Mutation = std::optional<std::string> (*)(GraphSpec&, Rng&);

std::optional<std::string> attribute_value_changed(GraphSpec& g, Rng& rng) {
  NodeSpec* node = node_where(g, rng, has_attributes);
  if (!node) return std::nullopt;
  auto& a = node->attributes[index_below(node->attributes.size(), rng)];
  const std::string before = attribute_text(a);
  if (auto* i = std::get_if<std::int64_t>(&a.value))
    *i = edge_integer(rng);
  else if (auto* text = std::get_if<std::string>(&a.value))
    *text = rng() % 2 ? "" : "max";  // none of ScatterND's, or one its opset does not have
  else
    edit_list(std::get<Ints>(a.value), rng);
  return node_label(*node) + ": attribute " + before + " -> " + attribute_text(a);
}

// An integer attribute given as a list, or a list given as one integer.
std::optional<std::string> attribute_type_changed(GraphSpec& g, Rng& rng) {
  NodeSpec* node = node_where(g, rng, has_attributes);
  if (!node) return std::nullopt;
  auto& a = node->attributes[index_below(node->attributes.size(), rng)];
  const std::string before = attribute_text(a);
  if (const auto* i = std::get_if<std::int64_t>(&a.value))
    a.value = Ints(index_below(3, rng), *i);
  else if (std::holds_alternative<std::string>(a.value))
    a.value = std::int64_t{1};
  else
    a.value = std::get<Ints>(a.value).empty() ? 0 : std::get<Ints>(a.value).front();
  return node_label(*node) + ": attribute " + before + " -> " + attribute_text(a);
}

// An attribute of some supported op, given to a node at random (its own attribute again, or one it does not take).
std::optional<std::string> attribute_added(GraphSpec& g, Rng& rng) {
  static const std::vector<std::string> names{
      "axis",      "axes",       "perm",      "keepdims",  "to",
      "upper",     "start",      "end",       "exclusive", "reverse",
      "transA",    "transB",     "allowzero", "split",     "noop_with_empty_axes",
      "value_int", "value_ints", "epsilon",   "alpha"};
  if (g.nodes.empty()) return std::nullopt;
  NodeSpec& node = g.nodes[index_below(g.nodes.size(), rng)];
  model::OnnxAttribute a{any_of(names, rng), edge_integer(rng)};
  if (rng() % 2) a.value = Ints{edge_integer(rng), edge_integer(rng)};
  node.attributes.push_back(a);
  return node_label(node) + ": attribute " + attribute_text(a) + " added";
}

std::optional<std::string> attribute_removed(GraphSpec& g, Rng& rng) {
  NodeSpec* node = node_where(g, rng, has_attributes);
  if (!node) return std::nullopt;
  const auto at = node->attributes.begin() + static_cast<long>(index_below(node->attributes.size(), rng));
  const std::string text = attribute_text(*at);
  node->attributes.erase(at);
  return node_label(*node) + ": attribute " + text + " removed";
}

// One entry of a constant: an integer changed to an edge value or to another entry (a repeated axis or index), a
// real to 0, -1, a huge or tiny value or one that is no dyadic rational.
std::optional<std::string> constant_entry_changed(GraphSpec& g, Rng& rng) {
  std::vector<ConstantSpec*> filled;
  for (auto& c : g.constants)
    if (c.count() > 0) filled.push_back(&c);
  if (filled.empty()) return std::nullopt;
  ConstantSpec& c = *any_of(filled, rng);
  const std::string before = constant_text(c);
  const std::size_t i = index_below(c.count(), rng);
  if (c.real)
    c.reals[i] = edge_real(rng);
  else
    c.integers[i] = rng() % 4 == 0 ? c.integers[index_below(c.count(), rng)] : edge_integer(rng);
  return "constant " + before + " -> " + constant_text(c);
}

std::int64_t element_count(const Shape& shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

// A constant's element count changed, its shape with it: one dimension set to 0, one more, one less or doubled, or
// a scalar made a list of 0 or 2 entries. New entries repeat the first one (or are 1).
std::optional<std::string> constant_count_changed(GraphSpec& g, Rng& rng) {
  if (g.constants.empty()) return std::nullopt;
  ConstantSpec& c = g.constants[index_below(g.constants.size(), rng)];
  const std::string before = constant_text(c);
  if (c.shape.empty()) {
    c.shape = {rng() % 2 == 0 ? 0 : 2};
  } else {
    std::int64_t& d = c.shape[index_below(c.shape.size(), rng)];
    const Ints options{0, d + 1, std::max<std::int64_t>(d - 1, 0), 2 * d + 1};
    d = any_of(options, rng);
  }
  const auto n = static_cast<std::size_t>(element_count(c.shape));
  if (c.real)
    c.reals.resize(n, c.reals.empty() ? Exact(1) : c.reals.front());
  else
    c.integers.resize(n, c.integers.empty() ? 1 : c.integers.front());
  return "constant " + before + " -> " + constant_text(c);
}

// A constant's shape changed, its entries kept: a dimension negative, huge (2^40) or off by one, or a dimension of 1
// inserted or removed (the same entries at another rank).
std::optional<std::string> constant_shape_changed(GraphSpec& g, Rng& rng) {
  if (g.constants.empty()) return std::nullopt;
  ConstantSpec& c = g.constants[index_below(g.constants.size(), rng)];
  const std::string before = shape_text(c.shape);
  const auto choice = rng() % 3;
  if (choice == 0 || c.shape.empty()) {
    c.shape.insert(c.shape.begin() + static_cast<long>(index_below(c.shape.size() + 1, rng)), 1);
  } else if (choice == 1) {
    c.shape.erase(c.shape.begin() + static_cast<long>(index_below(c.shape.size(), rng)));
  } else {
    std::int64_t& d = c.shape[index_below(c.shape.size(), rng)];
    const Ints options{-1, std::int64_t{1} << 40, d + 1, -(std::int64_t{1} << 40)};
    d = any_of(options, rng);
  }
  return "constant " + c.name + ": shape " + before + " -> " + shape_text(c.shape) + " (entries kept)";
}

// An input dropped from the list, left out (""), or every input dropped.
std::optional<std::string> input_dropped(GraphSpec& g, Rng& rng) {
  NodeSpec* node = node_where(g, rng, has_inputs);
  if (!node) return std::nullopt;
  const std::size_t i = index_below(node->inputs.size(), rng);
  const std::string name = node->inputs[i];
  const auto choice = rng() % 4;
  if (choice == 0) {
    node->inputs.clear();
    return node_label(*node) + ": every input dropped";
  }
  if (choice == 1) {
    node->inputs[i] = "";
    return node_label(*node) + ": input " + std::to_string(i) + " (" + name + ") left out";
  }
  node->inputs.erase(node->inputs.begin() + static_cast<long>(i));
  return node_label(*node) + ": input " + std::to_string(i) + " (" + name + ") dropped";
}

std::optional<std::string> input_duplicated(GraphSpec& g, Rng& rng) {
  NodeSpec* node = node_where(g, rng, has_inputs);
  if (!node) return std::nullopt;
  const std::string name = node->inputs[index_below(node->inputs.size(), rng)];
  node->inputs.insert(node->inputs.begin() + static_cast<long>(index_below(node->inputs.size() + 1, rng)), name);
  return node_label(*node) + ": input " + name + " duplicated";
}

// An input replaced by another value defined before the node: the tokens, a constant, an earlier node's output.
std::optional<std::string> input_replaced(GraphSpec& g, Rng& rng) {
  if (g.nodes.empty()) return std::nullopt;
  const std::size_t k = index_below(g.nodes.size(), rng);
  NodeSpec& node = g.nodes[k];
  std::vector<std::string> defined{token_input_name};
  for (const auto& c : g.constants) defined.push_back(c.name);
  for (std::size_t j = 0; j < k; ++j) defined.push_back(g.nodes[j].output);
  const std::string replacement = any_of(defined, rng);
  if (node.inputs.empty()) {
    node.inputs.push_back(replacement);
    return node_label(node) + ": input " + replacement + " given";
  }
  const std::size_t i = index_below(node.inputs.size(), rng);
  const std::string before = node.inputs[i];
  node.inputs[i] = replacement;
  return node_label(node) + ": input " + std::to_string(i) + " " + (before.empty() ? "''" : before) + " -> " +
         replacement;
}

// A node's op replaced by another supported op, its inputs and attributes kept.
std::optional<std::string> op_replaced(GraphSpec& g, Rng& rng) {
  if (g.nodes.empty()) return std::nullopt;
  NodeSpec& node = g.nodes[index_below(g.nodes.size(), rng)];
  const std::string before = node.op;
  node.op = any_of(op_recipes(), rng).first;
  return "node " + node.output + ": op " + before + " -> " + node.op;
}

const std::vector<std::pair<std::string, Mutation>>& mutations() {
  static const std::vector<std::pair<std::string, Mutation>> all{{"attribute value", attribute_value_changed},
                                                                 {"attribute type", attribute_type_changed},
                                                                 {"attribute added", attribute_added},
                                                                 {"attribute removed", attribute_removed},
                                                                 {"constant entry", constant_entry_changed},
                                                                 {"constant count", constant_count_changed},
                                                                 {"constant shape", constant_shape_changed},
                                                                 {"input dropped", input_dropped},
                                                                 {"input duplicated", input_duplicated},
                                                                 {"input replaced", input_replaced},
                                                                 {"op replaced", op_replaced}};
  return all;
}

struct Mutant {
  GraphSpec graph;
  std::string kind;
  std::string edit;
};

// The graph with one edit, of a kind drawn at random among those the graph offers a place for.
Mutant mutant_of(const GraphSpec& graph, Rng& rng) {
  for (;;) {
    const auto& [kind, mutate] = any_of(mutations(), rng);
    Mutant m{graph, kind, ""};
    if (auto edit = mutate(m.graph, rng)) {
      m.edit = *edit;
      return m;
    }
  }
}

// ------------------------------------------------------------------------------------------------ running a check

// The two ways the check reads a model: every position against task reverse (V 2: token ids 0..2, BOS = 2), and
// generation against task copy (V 1: ids 0..2, BOS = 1, COPY = 2), which also plans the prefix evaluations.
struct CheckTask {
  const char* name;
  const char* V;
};
constexpr CheckTask check_tasks[] = {{"reverse", "2"}, {"copy", "1"}};

struct RunResult {
  enum class Kind { Completed, Refused, OtherException, Crashed, TimedOut } kind;
  std::string message;
};

// `check model` on the model in `file`, as the CLI runs it, on every sequence of lengths 1..2.
RunResult checked(const fs::path& file, const CheckTask& task) {
  try {
    const Construction& c = find_construction("model");
    c.check(ParamValues::parse(c.params(),
                               {{"onnx", file.string()}, {"task", task.name}, {"V", task.V}, {"lengths", "1:2"}}),
            "stored", {}, RunOptions{});
    return {RunResult::Kind::Completed, ""};
  } catch (const UsageError& e) { return {RunResult::Kind::Refused, e.what()}; } catch (const std::exception& e) {
    return {RunResult::Kind::OtherException, boost::core::demangle(typeid(e).name()) + ": " + e.what()};
  } catch (...) { return {RunResult::Kind::OtherException, "an exception of no std::exception type"}; }
}

// The child's side: the result as its kind's number, a newline and the message, then _exit (no destructors, no
// leak check: the child is a copy of the test process).
[[noreturn]] void report_and_exit(int fd, const RunResult& r) {
  const std::string text = std::to_string(static_cast<int>(r.kind)) + "\n" + r.message.substr(0, 4000);
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::_exit(0);
}

// The child's report, read until it closes the pipe; nullopt when that takes longer than `limit`.
std::optional<std::string> read_report(int fd, std::chrono::steady_clock::time_point limit) {
  std::string text;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(limit - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) == 0) return std::nullopt;
    char buffer[4096];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

// How the child ended when it wrote no complete report: a signal, or an exit status (a sanitizer's report, printed
// on stderr, ends the process with status 1).
std::string ending_of(int status) {
  if (WIFSIGNALED(status)) return "the run was killed by signal " + std::to_string(WTERMSIG(status));
  return "the run exited with status " + std::to_string(WEXITSTATUS(status)) + " (a sanitizer report is above)";
}

// checked() in a child process: a crash, a sanitizer report or a run that does not return within case_timeout()
// ends the child, not the test, and is reported as the case's result.
RunResult checked_in_child(const fs::path& file, const CheckTask& task) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::system_error(errno, std::generic_category(), "pipe");
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) {
    ::close(fds[0]);
    report_and_exit(fds[1], checked(file, task));
  }
  ::close(fds[1]);
  const auto report = read_report(fds[0], std::chrono::steady_clock::now() + case_timeout());
  ::close(fds[0]);
  if (!report) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!report)
    return {RunResult::Kind::TimedOut,
            "the run did not return within " + std::to_string(case_timeout().count()) + " s"};
  const auto newline = report->find('\n');
  if (newline == std::string::npos || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return {RunResult::Kind::Crashed, ending_of(status)};
  return {static_cast<RunResult::Kind>(std::stoi(report->substr(0, newline))), report->substr(newline + 1)};
}

std::string case_text(std::uint64_t iteration, const CheckTask& task, const std::string& edit, const GraphSpec& g) {
  std::ostringstream text;
  text << "seed 0x" << std::hex << fuzz_seed << std::dec << ", iteration " << iteration << ", task " << task.name
       << " --V " << task.V << " --lengths 1:2\n"
       << (edit.empty() ? "the generated graph, unmutated" : "edit: " + edit) << "\n"
       << describe(g);
  return text.str();
}

// A folder of its own for the models, removed afterwards.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("tverify-onnx-fuzz-" + std::to_string(::getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

// ------------------------------------------------------------------------------------------------ the loop

struct Tally {
  std::uint64_t graphs = 0, mutants = 0, failures = 0;
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> by_kind;  // completed, refused
  std::set<std::string> ops_checked;  // the ops of the valid graphs checked to the end
  double seconds = 0;

  std::string text() const {
    std::ostringstream out;
    out << graphs << " graphs and " << mutants << " mutants in " << seconds << " s (seed 0x" << std::hex << fuzz_seed
        << std::dec << ")";
    for (const auto& [kind, counts] : by_kind)
      out << "\n  " << kind << ": " << counts.first << " completed, " << counts.second << " refused";
    return out.str();
  }
};

// A failing case's model, kept after the scratch folder is removed, for `tverify check model --onnx` to reproduce.
fs::path kept_copy(const fs::path& file, std::uint64_t failure) {
  const fs::path kept = fs::temp_directory_path() / ("tverify-onnx-fuzz-failure-" + std::to_string(::getpid()) + "-" +
                                                     std::to_string(failure) + ".onnx");
  std::error_code ec;
  fs::copy_file(file, kept, fs::copy_options::overwrite_existing, ec);
  return kept;
}

// Runs one case: a valid graph must complete, a mutant complete or be refused with a UsageError.
void check_case(const GraphSpec& graph, const std::string& kind, const std::string& edit, std::uint64_t iteration,
                const fs::path& file, Tally& tally) {
  const CheckTask& task = check_tasks[iteration % 2];
  write_file_atomically(file, serialized(graph));
  const RunResult r = checked_in_child(file, task);
  const bool valid = edit.empty();
  if (valid && r.kind == RunResult::Kind::Completed)
    for (const auto& n : graph.nodes) tally.ops_checked.insert(n.op);
  if (!valid && r.kind == RunResult::Kind::Completed) ++tally.by_kind[kind].first;
  if (!valid && r.kind == RunResult::Kind::Refused) ++tally.by_kind[kind].second;
  const bool passed = r.kind == RunResult::Kind::Completed || (!valid && r.kind == RunResult::Kind::Refused);
  if (passed) return;
  ++tally.failures;
  INFO(case_text(iteration, task, edit, graph) << "the model: " << kept_copy(file, tally.failures).string());
  INFO((valid ? "a valid graph was not checked to the end: " : "a mutant was neither checked nor refused: ")
       << r.message);
  CHECK(passed);
}

}  // namespace

TEST_CASE("onnx fuzz: mutated graphs of every supported op are checked or refused with a usage error, never crash",
          "[model][fuzz]") {
  // The recipes cover the evaluator's op list exactly: an op added to the evaluator needs a recipe here.
  INFO("evaluator ops: " << joined(evaluator_ops()) << "\ngenerator ops: " << joined(generator_ops()));
  REQUIRE(generator_ops() == evaluator_ops());
  const Scratch scratch;
  Tally tally;
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + budget();
  for (std::uint64_t iteration = 0; std::chrono::steady_clock::now() < deadline && tally.failures < max_failures;
       ++iteration) {
    std::seed_seq seeds{static_cast<std::uint32_t>(fuzz_seed), static_cast<std::uint32_t>(fuzz_seed >> 32),
                        static_cast<std::uint32_t>(iteration), static_cast<std::uint32_t>(iteration >> 32)};
    Rng rng(seeds);
    const GraphSpec graph = random_graph(rng, iteration);
    const fs::path file = scratch.dir / ("graph-" + std::to_string(iteration) + ".onnx");
    check_case(graph, "", "", iteration, file, tally);
    ++tally.graphs;
    for (int k = 0; k < mutants_per_graph; ++k) {
      const Mutant m = mutant_of(graph, rng);
      check_case(m.graph, m.kind, m.edit, iteration, file, tally);
      ++tally.mutants;
    }
    fs::remove(file);
  }
  tally.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(tally.text());
  if (tally.failures < max_failures)  // a loop stopped by its failures may have met some ops in no graph yet
    for (const auto& op : evaluator_ops()) {
      INFO("the op " << op << " was in no valid graph checked to the end");
      CHECK(tally.ops_checked.count(op) == 1);
    }
  CHECK(tally.failures == 0);
}

#include "checkers/model/bounds_search.hpp"

#include "io/errors.hpp"
#include "io/progress.hpp"
#include "checkers/wire.hpp"
#include "model/box_decision.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <deque>

namespace tverify::model {

void to_json(Json& j, const DecidedBox& d) { put_fields(j, d.length, d.target, d.box, d.margin); }
void from_json(const Json& j, DecidedBox& d) { get_fields(j, d.length, d.target, d.box, d.margin); }

namespace {

// One tree: the boxes of one length explored for one target.
struct Tree {
  int length = 0;
  std::size_t target = 0;
};

struct TreeResult {
  std::uint64_t boxes = 0;
  std::vector<DecidedBox> decided;
  std::vector<DataBox> open, wrong, unexplored;
  std::uint64_t no_instances = 0;  // the members of boxes whose members are no instance of the task
  bool without_plan = false;       // a generation the graph is not shown prefix-consistent for: every input open
  std::string no_box_evaluation;
};

void to_json(Json& j, const TreeResult& t) {
  put_fields(j, t.boxes, t.decided, t.open, t.wrong, t.unexplored, t.no_instances, t.without_plan, t.no_box_evaluation);
}
void from_json(const Json& j, TreeResult& t) {
  get_fields(j, t.boxes, t.decided, t.open, t.wrong, t.unexplored, t.no_instances, t.without_plan, t.no_box_evaluation);
}

std::vector<Tree> trees_of(const BoundsRequest& r) {
  std::vector<Tree> trees;
  for (int n = r.min_length; n <= r.max_length; ++n) {
    const std::size_t targets = r.task->reads_last ? 1 : static_cast<std::size_t>(n);
    for (std::size_t i = r.decode == Decode::Last ? targets - 1 : 0; i < targets; ++i) trees.push_back({n, i});
  }
  return trees;
}

DataBox full_box(int length, long long V) {
  std::vector<std::int64_t> every(static_cast<std::size_t>(V));
  for (long long t = 0; t < V; ++t) every[static_cast<std::size_t>(t)] = t;
  return DataBox(static_cast<std::size_t>(length), every);
}

// The token sequences of the task's layout over the box: [BOS, x_1, ..., x_n] (BOS = V; x alone with --bos no), and for
// generated outputs the teacher-forced [BOS, x_1, ..., x_n, COPY, x_1, ..., x_{n-1}] (COPY = V + 1), whose box holds
// each x_j twice independently: a superset of the sequences the task makes.
TokenBox token_box(const Task& task, const DataBox& box, long long V) {
  TokenBox out;
  if (task.bos) out.positions.push_back({V});
  out.positions.insert(out.positions.end(), box.begin(), box.end());
  if (task.generative) {
    out.positions.push_back({V + 1});
    out.positions.insert(out.positions.end(), box.begin(), box.end() - 1);
  }
  return out;
}

// The first read position of the task's sequences of length n, and their length.
std::pair<std::size_t, std::size_t> read_span(const Task& task, int n, long long V) {
  const auto length = static_cast<std::size_t>(n);
  const std::size_t bos = task.bos ? 1 : 0;
  if (!task.generative) return {task.reads_last ? length - 1 + bos : bos, sequence_length(task, n, V)};
  const TaskCase c = case_of(task, Tokens(length, 0), V);  // a generation's targets are x itself
  return {c.read_from, c.sequence.size()};
}

// What one tree may hold, so that its memory stays bounded whatever the model: boxes waiting to be evaluated (a box
// past this is left open), and boxes kept for the result (past this the tree gives up: its whole length is left open,
// and the exact pass checks it, or refuses it when it is too large to check one by one).
constexpr std::size_t max_queued_boxes = std::size_t{1} << 16;
constexpr std::size_t max_kept_boxes = std::size_t{1} << 14;

// The box evaluations a tree may make before its remaining boxes are left open: its length's inputs, shared among
// its targets, over 16, and at most 2^18. A box costs about four evaluations of one input (on the sort and histogram
// examples, where the bounds decide nothing), so there the bounds add about a quarter to enumeration's time.
std::uint64_t tree_cap(const BoundsRequest& r, const Tree& tree, std::size_t trees_of_length) {
  const std::uint64_t share = sequences_of_length(r.V, tree.length) / (16 * trees_of_length);
  return std::clamp<std::uint64_t>(share, static_cast<std::uint64_t>(r.V) + 1, std::uint64_t{1} << 18);
}

// The box's children: one per token of the first position that the target reads and the box leaves open, or, when
// it reads only fixed positions, of the first open position.
std::vector<DataBox> split(const DataBox& box, const std::vector<std::size_t>& reads) {
  auto open_position = [&]() -> std::size_t {
    for (std::size_t p : reads)
      if (box[p].size() > 1) return p;
    for (std::size_t p = 0; p < box.size(); ++p)
      if (box[p].size() > 1) return p;
    return box.size();
  };
  const std::size_t p = open_position();
  if (p == box.size()) return {};  // every position one token: a single input
  return split_into_tokens(box, p);
}

// A tree that gives up: its whole length is left to the exact pass.
TreeResult whole_length_open(int length, long long V, std::uint64_t boxes) {
  TreeResult out;
  out.boxes = boxes;
  out.open.push_back(full_box(length, V));
  return out;
}

// Boxes past the double range are evaluated again at 256 bits while that has decided some box of the tree, or for
// the tree's first `tried_climbs` such boxes: a softmax of large but narrow scores (the copy example's positions)
// needs the range, a softmax of wide scores (a box of the sort example) is no better decided at 256 bits.
constexpr std::size_t tried_climbs = 8;

struct ClimbRecord {
  std::size_t tried = 0, decided = 0;
  bool worth_trying() const { return tried < tried_climbs || decided > 0; }
  void record(bool decided_box) { ++tried, decided += decided_box; }
};

// The tree explored breadth-first, children in token order. After `cap` evaluations the boxes left are open; after
// `budget` they are unexplored.
TreeResult explore(const BoundsRequest& r, const Tree& tree, std::uint64_t cap, std::optional<std::uint64_t> budget,
                   ProgressBar& progress) {
  TreeResult out;
  const auto [read_from, sequence_length] = read_span(*r.task, tree.length, r.V);
  // A generation is read from the teacher-forced sequence where the graph is shown prefix-consistent, each box's
  // members meeting the plan's checks; elsewhere its inputs are checked one by one.
  const PrefixPlan* plan =
      r.decode == Decode::Generate ? r.model->prefix_plans->plan(*r.model, read_from + 1, sequence_length) : nullptr;
  if (r.decode == Decode::Generate && !plan) {
    out.open.push_back(full_box(tree.length, r.V));
    out.without_plan = true;
    return out;
  }
  std::deque<DataBox> queue{full_box(tree.length, r.V)};
  const std::vector<std::size_t> reads = r.abstraction->reads(tree.target, static_cast<std::size_t>(tree.length));
  auto children = [&](const DataBox& box) {
    return r.abstraction->split ? r.abstraction->split(box, tree.target) : split(box, reads);
  };
  const auto small = static_cast<std::uint64_t>(r.V);  // a box this small is checked one by one
  ClimbRecord climbs;
  auto split_or_leave = [&](DataBox box) {
    auto next = box_size(box) <= small ? std::vector<DataBox>{} : children(box);
    if (next.empty() || queue.size() + next.size() > max_queued_boxes)
      out.open.push_back(std::move(box));
    else
      for (DataBox& child : next) queue.push_back(std::move(child));
  };
  while (!queue.empty()) {
    if (out.open.size() + out.wrong.size() + out.decided.size() > max_kept_boxes)
      return whole_length_open(tree.length, r.V, out.boxes);
    DataBox box = std::move(queue.front());
    queue.pop_front();
    const Validity validity = r.abstraction->validity ? r.abstraction->validity(box) : Validity::All;
    if (validity == Validity::None) {
      out.no_instances += box_size(box);
      progress.advance(box_size(box));
      continue;
    }
    if (validity == Validity::Some) {
      split_or_leave(std::move(box));
      continue;
    }
    if (budget && out.boxes == *budget) {
      out.unexplored.push_back(std::move(box));
      continue;
    }
    if (out.boxes == cap) {
      out.open.push_back(std::move(box));
      continue;
    }
    ++out.boxes;
    const BoxRead read{read_from + tree.target,
                       expected_classes(*r.task, *r.abstraction, box, tree.target, r.V, r.classes)};
    const auto decided =
        decide_box(*r.model, {token_box(*r.task, box, r.V), {read}, r.classes, plan, climbs.worth_trying()});
    if (const auto* none = std::get_if<NoBoxEvaluation>(&decided)) {
      out.no_box_evaluation = none->reason;
      return out;
    }
    const BoxAnswer& answer = std::get<BoxAnswer>(decided);
    const BoxReading& reading = answer.readings.front();
    if (answer.climbed) climbs.record(reading.verdict != BoxVerdict::Open);
    if (reading.verdict != BoxVerdict::Open) progress.advance(box_size(box));
    if (reading.verdict == BoxVerdict::Right)
      out.decided.push_back({tree.length, tree.target, std::move(box), std::min(reading.margin, 1e300)});
    else if (reading.verdict == BoxVerdict::Wrong)
      out.wrong.push_back(std::move(box));
    else
      split_or_leave(std::move(box));
  }
  return out;
}

// Whether a box is one of `length` positions over V tokens, each position's tokens non-empty and ascending.
bool box_of(const DataBox& box, int length, long long V) {
  if (box.size() != static_cast<std::size_t>(length)) return false;
  return std::all_of(box.begin(), box.end(), [V](const std::vector<std::int64_t>& set) {
    return !set.empty() && set.front() >= 0 && set.back() < V && std::is_sorted(set.begin(), set.end()) &&
           std::adjacent_find(set.begin(), set.end()) == set.end();
  });
}

// Whether a tree's result is one exploring gives: boxes of its length over V tokens, decided for its own target with
// a margin bound in [0, 1e300], which with the sequences of no instance partition the length's V^n sequences, after at
// most `cap` box evaluations. A result restored from a checkpoint or received from another rank must be one before its
// members are listed: a forged one, with its digest recomputed, would otherwise be read out of bounds, or count
// sequences it never decided.
bool well_formed(const TreeResult& t, const Tree& tree, long long V, std::uint64_t cap) {
  const std::uint64_t all = sequences_of_length(V, tree.length);
  if (t.no_instances > all || t.boxes > cap) return false;
  std::uint64_t covered = t.no_instances;
  auto cover = [&](const DataBox& box) {
    if (!box_of(box, tree.length, V)) return false;
    covered += box_size(box);  // each below 2^63, and `covered` checked at most all < 2^63 before each
    return covered <= all;
  };
  auto boxes_of_tree = [&](const std::vector<DataBox>& boxes) {
    return std::all_of(boxes.begin(), boxes.end(), cover);
  };
  const bool decided = std::all_of(t.decided.begin(), t.decided.end(), [&](const DecidedBox& d) {
    return d.length == tree.length && d.target == tree.target && d.margin >= 0 && d.margin <= 1e300 && cover(d.box);
  });
  return decided && boxes_of_tree(t.open) && boxes_of_tree(t.wrong) && boxes_of_tree(t.unexplored) && covered == all;
}

}  // namespace

std::uint64_t sequences_of_length(long long V, int n) {
  std::uint64_t p = 1;
  for (int k = 0; k < n; ++k) p *= static_cast<std::uint64_t>(V);
  return p;
}

std::uint64_t box_size(const DataBox& box) {
  std::uint64_t size = 1;
  for (const auto& set : box) size *= set.size();
  return size;
}

BoundsCover search_bounds(const BoundsRequest& r, const RunOptions& options) {
  const std::vector<Tree> trees = trees_of(r);
  auto trees_of_length = [&](int n) {
    return static_cast<std::size_t>(
        std::count_if(trees.begin(), trees.end(), [n](const Tree& t) { return t.length == n; }));
  };
  // Progress as the share of the domain the bounds decide, each tree covering its length's inputs once.
  std::uint64_t covered = 0;
  for (const Tree& t : trees)
    covered += std::min(sequences_of_length(r.V, t.length), UINT64_MAX - covered);  // saturating
  ProgressBar decided("inputs decided by bounds (once per target)", covered, options.progress);
  RunOptions quiet = options;
  quiet.progress = false;
  auto run = [&](std::size_t k, std::optional<std::uint64_t> budget, ProgressBar& bar) {
    return explore(r, trees[k], tree_cap(r, trees[k], trees_of_length(trees[k].length)), budget, bar);
  };
  std::vector<TreeResult> results = enumerate_indices<std::vector<TreeResult>>(
      trees.size(), quiet, "bound trees",
      [&](std::uint64_t k, std::vector<TreeResult>& acc) { acc.push_back(run(k, r.max_boxes, decided)); },
      [](std::vector<TreeResult>& into, std::vector<TreeResult>&& from) {
        for (auto& t : from) into.push_back(std::move(t));
      });
  BoundsCover cover;
  for (const TreeResult& t : results)
    if (!t.no_box_evaluation.empty()) {
      cover.no_box_evaluation = t.no_box_evaluation;
      return cover;
    }
  if (results.size() != trees.size())
    throw UsageError(fmt::format("--resume: {} bound trees restored for a run of {}", results.size(), trees.size()));
  for (std::size_t k = 0; k < trees.size(); ++k)
    if (!well_formed(results[k], trees[k], r.V, tree_cap(r, trees[k], trees_of_length(trees[k].length))))
      throw UsageError(
          fmt::format("--resume: bound tree {} (length {}, target {}) is not one this run makes (boxes of its length "
                      "over {} tokens that cover it once): the checkpoint was not written by this run",
                      k + 1, trees[k].length, trees[k].target, r.V));
  // The budget counted tree by tree in order: the first tree that passes it is explored again with what is left,
  // and the trees after it are unexplored.
  ProgressBar silent("", 0, false);  // the tree explored again was counted in the first pass
  for (std::size_t k = 0; k < trees.size(); ++k) {
    const std::uint64_t left = r.max_boxes ? *r.max_boxes - cover.boxes : UINT64_MAX;
    if (results[k].boxes > left || (left == 0 && r.max_boxes)) {
      results[k] = run(k, left, silent);  // with nothing left, a box of no instance is still skipped
    }
    TreeResult& t = results[k];
    cover.boxes += t.boxes;
    cover.no_instances[trees[k].length] += t.no_instances;
    if (t.without_plan && (cover.lengths_without_plan.empty() || cover.lengths_without_plan.back() != trees[k].length))
      cover.lengths_without_plan.push_back(trees[k].length);
    for (auto& d : t.decided) cover.decided.push_back(std::move(d));
    for (auto [part, into] : {std::pair{&t.open, &cover.open}, std::pair{&t.wrong, &cover.wrong}}) {
      auto& boxes = (*into)[trees[k].length];
      boxes.insert(boxes.end(), part->begin(), part->end());
    }
    if (!t.unexplored.empty()) {
      auto& unexplored = cover.unexplored[trees[k].length];
      unexplored.insert(unexplored.end(), t.unexplored.begin(), t.unexplored.end());
    }
  }
  return cover;
}

std::vector<std::uint64_t> members_in_domain_order(const std::vector<DataBox>& boxes, int length, int min_length,
                                                   long long V) {
  std::uint64_t offset = 0;
  for (int m = min_length; m < length; ++m) offset += sequences_of_length(V, m);
  std::vector<std::uint64_t> members;
  for (const DataBox& box : boxes) {
    std::vector<std::size_t> digit(box.size(), 0);
    while (true) {
      std::uint64_t rank = 0;
      for (std::size_t p = 0; p < box.size(); ++p)
        rank = rank * static_cast<std::uint64_t>(V) + static_cast<std::uint64_t>(box[p][digit[p]]);
      members.push_back(offset + rank);
      std::size_t k = box.size();
      while (k > 0 && ++digit[k - 1] == box[k - 1].size()) digit[--k] = 0;
      if (k == 0) break;
    }
  }
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  return members;
}

std::string box_text(const DataBox& box, long long V) {
  std::vector<std::string> positions;
  for (const auto& set : box)
    positions.push_back(static_cast<long long>(set.size()) == V ? std::string("*")
                                                                : fmt::format("{}", fmt::join(set, ",")));
  return fmt::format("{}", fmt::join(positions, " | "));
}

}  // namespace tverify::model

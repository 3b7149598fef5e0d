#include "checkers/fast/bits_layer1_table.hpp"

#include "checkers/fast/mpfr_layer1.hpp"
#include "core/parallel.hpp"

#include <cmath>
#include <limits>

namespace tverify::fast {

namespace {

// Magnitudes the layer-1 entries and readout values must have for the score sums to stay in double's normal range.
bool moderate(double v) { return std::fabs(v) >= 0x1p-400 && std::fabs(v) <= 0x1p400; }

// One position's layer 1 as doubles: the block's non-zero entries and the non-zero T^value . Psi(x).
struct PositionDoubles {
  std::vector<std::pair<std::uint16_t, double>> block, readout;
  bool in_range = true;
};

PositionDoubles position_doubles(const SparseMpfrLayer1::Output& layer1) {
  PositionDoubles out;
  for (const auto& [c, v] : layer1.block) {
    out.in_range = out.in_range && c <= std::numeric_limits<std::uint16_t>::max() && moderate(v.to_double());
    out.block.emplace_back(static_cast<std::uint16_t>(c), v.to_double());
  }
  for (const auto& [token, v] : layer1.readout) {
    out.in_range = out.in_range && moderate(v.to_double());
    out.readout.emplace_back(static_cast<std::uint16_t>(token), v.to_double());
  }
  return out;
}

void add_position(Layer1Table& t, const PositionDoubles& pos) {
  t.emulable = t.emulable && pos.in_range;
  if (!t.emulable) return;
  for (const auto& [c, v] : pos.block) {
    const auto id = t.entries.id(v);
    if (!id) return void(t.emulable = false);
    t.blocks.entries.push_back({c, *id});
    if (c >= t.dim && c < t.dim + t.key_width)
      t.keys.entries.push_back({static_cast<std::uint16_t>(c - t.dim), *id});
    else if (c >= t.dim + t.key_width)
      t.queries.entries.push_back({static_cast<std::uint16_t>(c - t.dim - t.key_width), *id});
  }
  for (const auto& [token, v] : pos.readout) {
    const auto id = t.readout_values.id(v);
    if (!id) return void(t.emulable = false);
    t.readouts.entries.push_back({token, *id});
  }
  for (SparseRows* rows : {&t.blocks, &t.keys, &t.queries, &t.readouts}) rows->close_row();
}

// The two indexes the steps read besides the rows: per token, the positions whose value reaches it (occurrences);
// per key coordinate c, the keys j with T^key_j[c] != 0 (postings), both by increasing j.
void build_indexes(Layer1Table& t) {
  std::vector<std::vector<SparseRows::Entry>> by_token(t.tokens);
  for (std::size_t j = 0; j < t.positions; ++j)
    for (const auto& e : t.readouts.row(j)) by_token[e.index].push_back({static_cast<std::uint32_t>(j), e.value});
  for (const auto& row : by_token) {
    t.occurrences.entries.insert(t.occurrences.entries.end(), row.begin(), row.end());
    t.occurrences.close_row();
  }
  t.postings.assign(t.key_width, {});
  for (std::size_t j = 0; j < t.positions; ++j)
    for (const auto& e : t.keys.row(j)) t.postings[e.index].push_back({static_cast<std::uint32_t>(j), e.value});
}

}  // namespace

Layer1Table layer1_table(const copy::CopyTransformer& transformer, const copy::TokenString& sequence,
                         std::size_t count, int bits, unsigned threads) {
  const std::size_t span = static_cast<std::size_t>(transformer.config().n) + 1;
  std::vector<PositionDoubles> positions(count);
  Layer1Table t;
  run_workers(threads, [&](unsigned w) {
    const RuntimeMpfr::Precision precision(bits);
    const copy::FinitePrecisionCopy finite(transformer);
    SparseMpfrLayer1 layer1(finite);
    if (w == 0) t.key_width = finite.key_width(), t.tokens = finite.psi().size();
    const std::size_t lo = count * w / threads, hi = count * (w + 1) / threads;
    for (std::size_t p = lo; p < hi; ++p) {
      const std::size_t first = p + 1 >= span ? p + 1 - span : 0;
      const copy::TokenString window(sequence.begin() + static_cast<long>(first),
                                     sequence.begin() + static_cast<long>(p) + 1);
      positions[p] = position_doubles(layer1.compute(window));
    }
  });
  t.dim = static_cast<std::size_t>(transformer.dim());
  t.positions = count;
  for (const auto& pos : positions) add_position(t, pos);
  if (t.emulable) build_indexes(t);
  return t;
}

}  // namespace tverify::fast

#include "constructions/copy/fast/bits_layer1_table.hpp"

#include "constructions/copy/fast/mpfr_layer1.hpp"
#include "core/parallel.hpp"

#include <cmath>
#include <limits>

namespace tverify::copy::fast {

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
      t.keys.entries.push_back({static_cast<std::uint32_t>(c - t.dim), *id});
    else if (c >= t.dim + t.key_width)
      t.queries.entries.push_back({static_cast<std::uint32_t>(c - t.dim - t.key_width), *id});
  }
  for (const auto& [token, v] : pos.readout) {
    const auto id = t.readout_values.id(v);
    if (!id) return void(t.emulable = false);
    t.readouts.entries.push_back({token, *id});
  }
  for (SparseRows* rows : {&t.blocks, &t.keys, &t.queries, &t.readouts}) rows->close_row();
}

// Rows by position turned into rows by index (`width` of them): row i lists (position j, value id) for every entry
// (i, value id) of position j, by increasing j.
SparseRows by_index(const SparseRows& rows, std::size_t positions, std::size_t width) {
  std::vector<std::vector<SparseRows::Entry>> lists(width);
  for (std::size_t j = 0; j < positions; ++j)
    for (const auto& e : rows.row(j)) lists[e.index].push_back({static_cast<std::uint32_t>(j), e.value});
  SparseRows out;
  for (const auto& list : lists) {
    out.entries.insert(out.entries.end(), list.begin(), list.end());
    out.close_row();
  }
  return out;
}

}  // namespace

Layer1Table layer1_table(const copy::CopyTransformer& transformer, const copy::TokenString& sequence, std::size_t count,
                         int bits, unsigned threads) {
  const std::size_t span = static_cast<std::size_t>(transformer.config().n) + 1;
  std::vector<PositionDoubles> positions(count);
  Layer1Table t;
  run_workers(threads, [&](unsigned w) {
    const copy::FinitePrecisionCopy finite(transformer, bits);
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
  if (t.emulable) {
    t.postings = by_index(t.keys, count, t.key_width);
    t.occurrences = by_index(t.readouts, count, t.tokens);
  }
  return t;
}

}  // namespace tverify::copy::fast

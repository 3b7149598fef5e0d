#include "checkers/sweep_output.hpp"

#include "checkers/certificate.hpp"
#include "checkers/cluster.hpp"
#include "checkers/errors.hpp"
#include "checkers/files.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <mutex>

namespace tverify {
namespace fs = std::filesystem;
namespace {

std::string csv(const SweepTable& t) {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + cells[i];
    out += "\n";
  };
  line(t.columns);
  for (const auto& r : t.rows) line(r);
  return out;
}

std::size_t column_index(const SweepTable& t, const std::string& name) {
  for (std::size_t i = 0; i < t.columns.size(); ++i)
    if (t.columns[i] == name) return i + 1;  // gnuplot counts from 1
  throw std::logic_error("sweep plot names an unknown column " + name);
}

std::string gnuplot_script(const SweepTable& t, const PlotSpec& p, const std::string& csv_file,
                           const std::string& png_file) {
  std::string s = fmt::format(
      "set terminal pngcairo size 900,600 noenhanced\nset output '{}'\nset datafile separator ','\nset key below\n"
      "set title \"{}\"\nset xlabel \"{}\"\nset ylabel \"{}\"\nset grid\n",
      png_file, p.title, p.xlabel, p.ylabel);
  if (p.logx) s += "set logscale x\n";
  if (p.logy) s += "set logscale y\n";
  if (p.yrange) s += fmt::format("set yrange [{}:{}]\n", p.yrange->first, p.yrange->second);
  for (std::size_t m = 0; m < p.marks.size(); ++m) {
    const auto& [x, label] = p.marks[m];
    s += fmt::format("set arrow {} from {},graph 0 to {},graph 1 nohead dt 2 lw 2\n"
                     "set label {} \"{}\" at {},graph 0.95 rotate by 90 right offset -1,0\n",
                     m + 1, x, x, m + 1, label, x);
  }
  const std::size_t xi = column_index(t, p.x_column);
  if (!p.heat_column.empty())
    return s + fmt::format("set cblabel \"{}\"\nset palette rgbformulae 33,13,10\nplot '{}' using {}:{}:{} skip 1 "
                           "with image notitle\n",
                           p.heat_label, csv_file, xi, column_index(t, p.y_column), column_index(t, p.heat_column));
  s += "plot ";
  for (std::size_t k = 0; k < p.series.size(); ++k)
    s += fmt::format("{}'{}' using {}:{} skip 1 with linespoints title \"{}\"", k ? ", " : "", csv_file, xi,
                     column_index(t, p.series[k].first), p.series[k].second);
  return s + "\n";
}

}  // namespace

void require_gnuplot() {
  if (!writes_outputs()) return;  // only the rank that writes runs gnuplot
  if (!find_program("gnuplot"))
    throw UsageError("gnuplot not found: install the Debian package gnuplot-nox (scripts/setup does)");
}

void prepare_output_dir(const std::string& dir) {
  // Held until the process ends: every sweep of this process may write into the folder, no other process may.
  if (!writes_outputs()) return;
  static std::mutex mutex;
  static std::map<std::string, OutputDirLock> held;
  const std::lock_guard<std::mutex> guard(mutex);
  std::error_code ec;
  const std::string key = fs::weakly_canonical(fs::absolute(dir.empty() ? fs::path("-") : fs::path(dir)), ec).string();
  if (held.count(key) == 0) held.emplace(key, OutputDirLock(dir, "--out"));
}

void write_sweep(const SweepOutput& out, const std::string& name, const SweepTable& table, const PlotSpec& plot,
                 const Json& summary) {
  // The script names its files relative to its own folder, so it re-runs there; gnuplot runs it (no shell) in that
  // folder on the staged CSV, writing a staged PNG. All four files replace their predecessors together.
  if (!writes_outputs()) return;
  const std::string& dir = out.dir;
  const fs::path base = fs::path(dir) / name;
  const std::string csv_file = name + ".csv", png_file = name + ".png";
  StagedFiles files;
  const fs::path staged_csv = files.stage(base.string() + ".csv", csv(table));
  files.stage(base.string() + ".gp", gnuplot_script(table, plot, csv_file, png_file));
  const fs::path staged_png = files.reserve(base.string() + ".png");
  const std::string run_script =
      gnuplot_script(table, plot, staged_csv.filename().string(), staged_png.filename().string());
  std::error_code ec;
  if (!run_program("gnuplot", {}, dir, run_script) || fs::file_size(staged_png, ec) == 0 || ec)
    throw UsageError("gnuplot could not draw '" + base.string() + ".png' (a full disk?); the previous files are kept");
  files.stage(base.string() + ".json", sweep_certificate(out.header, name, summary, table.columns, table.rows).dump(2) + "\n");
  files.commit();
}

}  // namespace tverify

#include "checkers/sweep_output.hpp"

#include "checkers/certificate.hpp"
#include "checkers/errors.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace tverify {
namespace fs = std::filesystem;
namespace {

void write_text_atomically(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out) throw UsageError("cannot write '" + path.string() + "'");
  }
  fs::rename(tmp, path);
}

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
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0)
    throw UsageError("gnuplot not found: install the Debian package gnuplot-nox (scripts/setup does)");
}

void prepare_output_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir) || access(dir.c_str(), W_OK) != 0)
    throw UsageError("--out '" + dir + "' is not a writable directory");
}

void write_sweep(const std::string& dir, const std::string& name, const SweepTable& table, const PlotSpec& plot,
                 const Json& summary) {
  const fs::path base = fs::path(dir) / name;
  const std::string csv_file = base.string() + ".csv", png_file = base.string() + ".png",
                    gp_file = base.string() + ".gp";
  write_text_atomically(csv_file, csv(table));
  // The kept script names the final PNG; gnuplot runs a copy that writes a temporary one, renamed when complete.
  write_text_atomically(gp_file, gnuplot_script(table, plot, csv_file, png_file));
  const std::string run_file = gp_file + ".run";
  write_text_atomically(run_file, gnuplot_script(table, plot, csv_file, png_file + ".tmp"));
  const std::string command = "gnuplot '" + run_file + "' 2>/dev/null";
  const bool plotted = std::system(command.c_str()) == 0 && fs::exists(png_file + ".tmp");
  fs::remove(run_file);
  if (!plotted) throw std::runtime_error("gnuplot failed on " + gp_file);
  fs::rename(png_file + ".tmp", png_file);
  write_json_atomically(base.string() + ".json", summary);
}

}  // namespace tverify

// LaTeX for a paper: `report --latex` of every kind of certificate (each construction's check, a proof, a model
// check, sweeps), one row per claim and one per certificate, and every sweep's figures (the cairolatex figure with
// LaTeX labels, the vector PDF) go into a document that pdflatex compiles without an error and without an overfull
// line; so do the claims tables the table scripts write, as docs/latex/claims.tex inputs them. Needs pdflatex
// (texlive-latex-base and texlive-latex-recommended, installed by scripts/setup); about 10 s.
#include "io/files.hpp"
#include "checkers/programs.hpp"
#include "cli_runner.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using tverify::testing::read_all;
using tverify::testing::run_tverify;

namespace {

struct Folder {
  fs::path path = fs::temp_directory_path() / ("tverify-latex-" + std::to_string(::getpid()));
  Folder() { fs::create_directories(path / "capture"); }
  ~Folder() { fs::remove_all(path); }
};

// Runs tverify in `dir`; its standard output, or a failed check naming the command.
std::string tverify_output(const fs::path& dir, const std::vector<std::string>& args) {
  const auto r = run_tverify(args, dir, dir / "capture");
  INFO(args.front() << " " << args.at(1) << ": " << r.err);
  CHECK((r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 3));
  return r.out;
}

}  // namespace

TEST_CASE("report --latex of every kind of certificate and every sweep figure compile with pdflatex, nothing overfull",
          "[latex][heavy]") {
  const Folder folder;
  const fs::path& dir = folder.path;
  const std::vector<std::vector<std::string>> runs{
      {"check", "copy", "--json", "copy.json"},
      {"check", "copy", "--variant", "corrected", "--json", "copy-corrected.json"},
      {"prove", "copy", "--json", "copy-proofs.json"},
      {"check", "count3", "--n", "4", "--json", "count3.json"},
      {"check", "cat", "--json", "cat.json"},
      {"check", "markov", "--json", "markov.json"},
      {"check", "model", "--onnx", std::string(TVERIFY_SOURCE_DIR) + "/examples/models/sort.onnx", "--task", "sort",
       "--V", "3", "--lengths", "1:3", "--json", "model.json"},
      {"sweep", "copy", "--vary", "tau", "--variant", "corrected", "--out", "sweeps"},
      {"sweep", "markov", "--vary", "pq", "--resolution", "1/4", "--out", "sweeps"},
      {"sweep", "copy", "--fast", "--D", "16", "--n", "4", "--vary", "L=8:64:x2", "--samples", "4", "--out", "sweeps"},
      {"sweep", "copy", "--vary", "L", "--variant", "corrected", "--D", "2", "--n", "2", "--L-max", "6", "--out",
       "sweeps"},
      {"sweep", "count3", "--vary", "values", "--n", "2", "--out", "sweeps"},
      {"sweep", "cat", "--vary", "L", "--variant", "key_delay_full", "--out", "sweeps"},
      {"sweep", "model", "--vary", "lengths", "--onnx", std::string(TVERIFY_SOURCE_DIR) + "/examples/models/sort.onnx",
       "--task", "sort", "--V", "3", "--lengths", "1:3", "--out", "sweeps"},
      {"sweep", "copy", "--vary", "bits", "--variant", "corrected", "--D", "2", "--n", "1", "--L-max", "3", "--out",
       "sweeps"},
      {"sweep", "cat", "--vary", "c", "--variant", "ar", "--N", "1", "--V", "2", "--L-max", "8", "--out", "sweeps"},
      {"sweep", "copy", "--fast", "--D", "16", "--n", "4", "--vary", "L=8:16:x2", "--formats", "float32,float16",
       "--samples", "2", "--out", "sweeps"},
      {"sweep", "copy", "--fast", "--D", "4", "--n", "2", "--vary", "L=8:16:x2", "--min-bits", "--samples", "2",
       "--out", "sweeps"},
      // the fast --vary c writes the same names as the exact one: a folder of its own
      {"sweep", "cat", "--fast", "--vary", "c", "--variant", "ar", "--N", "1", "--V", "3", "--L-max", "3000", "--out",
       "sweeps-fast"}};
  for (const auto& args : runs) tverify_output(dir, args);
  const std::vector<std::string> checks{"copy.json", "copy-corrected.json", "copy-proofs.json", "count3.json",
                                        "cat.json",  "markov.json",         "model.json"};
  std::vector<std::string> every = checks;
  for (const char* sweep : {"sweeps/tau-D2-n2-L4-onehot-corrected.json", "sweeps/markov-gap.json",
                            "sweeps/markov-h-alpha.json", "sweeps/copy-fast-L.json"})
    every.push_back(sweep);

  std::vector<std::string> per_claim{"report", "--latex"}, wide{"report", "--latex", "--wide"};
  per_claim.insert(per_claim.end(), every.begin(), every.end());
  wide.insert(wide.end(), checks.begin(), checks.end());
  std::ofstream(dir / "claims.tex") << tverify_output(dir, per_claim);
  std::ofstream(dir / "wide.tex") << tverify_output(dir, wide);
  for (const auto& one : every)
    std::ofstream(dir / (fs::path(one).stem().string() + ".table.tex"))
        << tverify_output(dir, {"report", "--latex", one});

  // The figures as a paper includes them: the cairolatex figure (its graphics found through \\graphicspath) and the
  // PDF, each in a figure environment.
  std::string document =
      "\\documentclass{article}\n\\usepackage{booktabs,longtable,array,graphicx,color}\n"
      "\\begin{document}\n\\input{claims.tex}\n\\input{wide.tex}\n";
  for (const auto& one : every) document += "\\input{" + fs::path(one).stem().string() + ".table.tex}\n";
  std::size_t figures = 0;
  for (const std::string folder : {"sweeps", "sweeps-fast"})
    for (const auto& entry : fs::directory_iterator(dir / folder)) {
      const std::string name = entry.path().filename().string();
      if (name.size() < 10 || name.substr(name.size() - 10) != "-latex.tex") continue;
      const std::string stem = name.substr(0, name.size() - 10);
      document += "\\graphicspath{{" + folder + "/}}\n\\begin{figure}\\centering\\input{" + folder + "/" + name +
                  "}\\caption{" + stem +
                  " (cairolatex)}\\end{figure}\n\\begin{figure}\\centering\\includegraphics[width=\\linewidth]{" +
                  stem + ".pdf}\\caption{" + stem + " (PDF)}\\end{figure}\n\\clearpage\n";
      ++figures;
    }
  // Every sweep of the README's tour: tau, L, bits, count3's values, CAT's c (exact and fast) and L, markov (two),
  // the fast copy's L, formats and fewest bits, the model's lengths.
  CHECK(figures == 13);
  std::ofstream(dir / "tables.tex") << document << "\\end{document}\n";
  REQUIRE(tverify::find_program("pdflatex"));
  CHECK(
      tverify::run_program("pdflatex", {"-interaction=nonstopmode", "-halt-on-error", "tables.tex"}, dir.string(), ""));
  const std::string log = read_all(dir / "tables.log");
  INFO(log.substr(log.size() > 3000 ? log.size() - 3000 : 0));
  CHECK(log.find("\n! ") == std::string::npos);
  CHECK(log.find("Overfull \\hbox") == std::string::npos);
  CHECK(log.find("Output written on tables.pdf") != std::string::npos);

  // The same tables with --two-column in a [twocolumn] article: table* floats, split by rows, none too large.
  per_claim.insert(per_claim.begin() + 2, "--two-column");
  wide.insert(wide.begin() + 2, "--two-column");
  std::ofstream(dir / "claims-2.tex") << tverify_output(dir, per_claim);
  std::ofstream(dir / "wide-2.tex") << tverify_output(dir, wide);
  // A sweep's figure drawn at --figure-size column fits one column of it.
  tverify_output(dir, {"sweep", "copy", "--vary", "tau", "--variant", "corrected", "--figure-size", "column", "--out",
                       "sweeps-column"});
  CHECK(read_all(dir / "sweeps-column" / "tau-D2-n2-L4-onehot-corrected.gp").find("size 3in,2.2in") !=
        std::string::npos);
  std::ofstream(dir / "two.tex")
      << "\\documentclass[twocolumn]{article}\n\\usepackage{booktabs,array,graphicx,color}\n\\begin{document}\n"
         "\\graphicspath{{sweeps-column/}}\n\\begin{figure}\\centering\\input{sweeps-column/"
         "tau-D2-n2-L4-onehot-corrected-latex.tex}\\caption{tau}\\end{figure}\n"
         "\\input{claims-2.tex}\n\\input{wide-2.tex}\n\\end{document}\n";
  CHECK(tverify::run_program("pdflatex", {"-interaction=nonstopmode", "-halt-on-error", "two.tex"}, dir.string(), ""));
  const std::string two = read_all(dir / "two.log");
  INFO(two.substr(two.size() > 3000 ? two.size() - 3000 : 0));
  CHECK(two.find("\n! ") == std::string::npos);
  CHECK(two.find("Overfull") == std::string::npos);
  CHECK(two.find("Float too large") == std::string::npos);
  CHECK(two.find("Output written on two.pdf") != std::string::npos);
  const std::string claims_two = read_all(dir / "claims-2.tex");
  CHECK(claims_two.find("longtable") == std::string::npos);
  CHECK(claims_two.find("(continued)") != std::string::npos);  // the claims of every certificate need two floats
}

TEST_CASE("report --two-column: without --latex, or with a row taller than a page's float, is one line and exit 2",
          "[latex]") {
  const Folder folder;
  const fs::path& dir = folder.path;
  tverify_output(dir, {"check", "count3", "--n", "2", "--json", "c.json"});
  const auto markdown = run_tverify({"report", "--two-column", "c.json"}, dir, dir / "capture");
  CHECK(markdown.exit_code == 2);
  CHECK(markdown.err == "tverify: error: --two-column is a layout of --latex: add --latex\n");
  // A claim summary of 6,000 characters in the one column that holds it: no float holds that row.
  tverify::Json c = tverify::Json::parse(read_all(dir / "c.json"));
  c["claims"][0]["summary"] = std::string(6000, 'x');
  std::ofstream(dir / "long.json") << c.dump();
  const auto tall = run_tverify({"report", "--latex", "--two-column", "--columns", "claim,summary", "long.json"}, dir,
                                dir / "capture");
  CHECK(tall.exit_code == 2);
  CHECK_THAT(tall.err, Catch::Contains("--two-column: row 1 of the table"));
  CHECK(tall.out.empty());
  const auto size = run_tverify({"sweep", "copy", "--vary", "tau", "--figure-size", "0.5x2in", "--out", "never"}, dir,
                                dir / "capture");
  CHECK(size.exit_code == 2);
  CHECK_THAT(size.err, Catch::Contains("--figure-size must be WIDTHxHEIGHT"));
  CHECK(!fs::exists(dir / "never"));
}

TEST_CASE("the claims tables the table scripts write to docs/latex compile with pdflatex, nothing overfull",
          "[latex][heavy]") {
  // scripts/claims-table, tau-table, count3-table, cat-table and markov-table write `report --latex --wide` of their
  // certificates to docs/latex/NAME.tex; docs/latex/claims.tex must input exactly those tables (its \input lines
  // that are not comments), and compile (twice, as its comment says) without an error or an overfull line. A few
  // seconds. Only the .tex files are copied: a user's own pdflatex run there leaves others.
  const Folder folder;
  const fs::path source = fs::path(TVERIFY_SOURCE_DIR) / "docs" / "latex";
  const std::set<std::string> tables{
      "copy-strings", "copy-gssm", "copy-transformer", "copy-proofs", "copy-tau", "count3", "cat", "markov"};
  std::set<std::string> files, inputs;
  for (const auto& entry : fs::directory_iterator(source)) {
    if (entry.path().extension() != ".tex") continue;
    fs::copy_file(entry.path(), folder.path / entry.path().filename());
    if (entry.path().filename() != "claims.tex") files.insert(entry.path().stem().string());
  }
  std::istringstream document(read_all(source / "claims.tex"));
  const std::regex input_line(R"(\\input\{([^}]*)\})");
  for (std::string line; std::getline(document, line);) {
    std::smatch m;
    if (line.rfind('%', 0) != 0 && std::regex_search(line, m, input_line)) inputs.insert(m[1]);
  }
  CHECK(files == tables);
  CHECK(inputs == tables);
  REQUIRE(tverify::find_program("pdflatex"));
  for (int run = 0; run < 2; ++run)
    CHECK(tverify::run_program("pdflatex", {"-interaction=nonstopmode", "-halt-on-error", "claims.tex"},
                               folder.path.string(), ""));
  const std::string log = read_all(folder.path / "claims.log");
  INFO(log.substr(log.size() > 3000 ? log.size() - 3000 : 0));
  CHECK(log.find("\n! ") == std::string::npos);
  CHECK(log.find("Overfull \\hbox") == std::string::npos);
  CHECK(log.find("Output written on claims.pdf") != std::string::npos);
}

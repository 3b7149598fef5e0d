// The layers of the source tree and the one direction includes run: every `#include "folder/..."` of a source file
// goes to its own layer or a lower one, never up. The table is cmake/Layers.cmake's, which also gives each layer's
// library only its own folder and the lower ones to include; a folder missing from it fails the test, so a new
// top-level folder has to take its place there.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// The layers, lowest first, as cmake/Layers.cmake writes them (TVERIFY_LAYERS: comma-separated, folders that share a
// layer joined by "+"); a file may include its own layer and every layer below it.
const std::map<std::string, int>& layer_of_folder() {
  static const std::map<std::string, int> layers = [] {
    std::map<std::string, int> out;
    const std::string table = TVERIFY_LAYERS;
    int layer = 0;
    for (std::size_t start = 0; start <= table.size(); ++layer) {
      const std::size_t end = std::min(table.find(',', start), table.size());
      for (std::size_t from = start; from < end;) {
        const std::size_t to = std::min(table.find('+', from), end);
        out.emplace(table.substr(from, to - from), layer);
        from = to + 1;
      }
      start = end + 1;
    }
    return out;
  }();
  return layers;
}

// The quoted includes of a file, as "folder/rest".
std::vector<std::string> quoted_includes(const fs::path& file) {
  static const std::regex include(R"(^\s*#\s*include\s+"([^"]+)\")");
  std::vector<std::string> out;
  std::ifstream in(file);
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, include)) out.push_back(m[1]);
  return out;
}

}  // namespace

TEST_CASE("layering: every include runs to the file's own layer or a lower one", "[layering]") {
  const fs::path root = TVERIFY_SOURCE_DIR;
  const auto& layers = layer_of_folder();
  std::size_t files = 0;
  for (const auto& [folder, layer] : layers) {
    REQUIRE(fs::is_directory(root / folder));
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
      ++files;
      for (const auto& target : quoted_includes(entry.path())) {
        const std::string to = target.substr(0, target.find('/'));
        const auto it = layers.find(to);
        INFO(fs::relative(entry.path(), root).string() << " includes \"" << target << "\"");
        REQUIRE(target.find('/') != std::string::npos);  // every include names its folder
        REQUIRE(it != layers.end());                     // and that folder is a layer of the table
        CHECK(it->second <= layer);
      }
    }
  }
  CHECK(files > 200);
}

TEST_CASE("layering: every top-level source folder has its place in the table", "[layering]") {
  const fs::path root = TVERIFY_SOURCE_DIR;
  CHECK(layer_of_folder().at("core") == 0);  // the table read as written: lowest first, "+" sharing a layer
  CHECK(layer_of_folder().at("mpi") == layer_of_folder().at("commands"));
  CHECK(layer_of_folder().at("io") == 1);
  CHECK(layer_of_folder().at("python") == 7);
  for (const auto& entry : fs::directory_iterator(root)) {
    if (!entry.is_directory()) continue;
    const std::string name = entry.path().filename().string();
    if (name.front() == '.' || name == "build" || name == "tests" || name == "bench" || name == "docs" ||
        name == "examples" || name == "scripts" || name == "cmake" || name == "independent")
      continue;  // above every layer (tests, benchmarks) or no C++ of the tool (independent: Python sharing none)
    INFO(name);
    CHECK(layer_of_folder().count(name) == 1);
  }
}

TEST_CASE("layering: no construction's folder includes another construction's folder", "[layering]") {
  // Shared code among the constructions: the RASP-L interpreter count3 runs.
  const std::vector<std::string> shared{"rasp"};
  // The one crossing left: the model checker's reference tasks reuse CAT's and count3's references.
  const std::multimap<std::string, std::string> crossings{{"model", "cat"}, {"model", "count3"}};
  const fs::path root = TVERIFY_SOURCE_DIR;
  for (const std::string layer : {"constructions", "checkers"}) {
    for (const auto& folder : fs::directory_iterator(root / layer)) {
      if (!folder.is_directory()) continue;
      const std::string own = folder.path().filename().string();
      for (const auto& entry : fs::recursive_directory_iterator(folder.path())) {
        if (!entry.is_regular_file()) continue;
        for (const auto& target : quoted_includes(entry.path())) {
          // A construction's folder below constructions/ or checkers/ (a file directly in either is shared).
          const std::size_t first = target.find('/'), second = target.find('/', first + 1);
          const std::string top = target.substr(0, first);
          if ((top != "constructions" && top != "checkers") || second == std::string::npos) continue;
          const std::string other = target.substr(first + 1, second - first - 1);
          const auto allowed = crossings.equal_range(own);
          const bool crossing =
              std::any_of(allowed.first, allowed.second, [&](const auto& c) { return c.second == other; });
          INFO(fs::relative(entry.path(), root).string() << " includes \"" << target << "\"");
          CHECK((other == own || crossing || std::find(shared.begin(), shared.end(), other) != shared.end()));
        }
      }
    }
  }
}

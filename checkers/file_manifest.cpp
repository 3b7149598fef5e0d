#include "checkers/file_manifest.hpp"

#include "io/errors.hpp"
#include "io/files.hpp"
#include "io/sha256.hpp"

#include <algorithm>
#include <sstream>

namespace tverify {
namespace fs = std::filesystem;
namespace {

constexpr std::size_t max_manifest_bytes = 1u << 16;

// The (file, digest) lines of a manifest; UsageError at the first line that is not "<64 hex>  <name>".
std::vector<std::pair<std::string, std::string>> manifest_entries(const fs::path& manifest) {
  const std::string what = "manifest '" + manifest.string() + "'";
  std::istringstream lines(read_text_file(manifest.string(), what, max_manifest_bytes));
  std::vector<std::pair<std::string, std::string>> out;
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const bool hex = line.size() > 66 && std::all_of(line.begin(), line.begin() + 64, [](char c) {
                       return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
                     });
    const std::string name = hex ? line.substr(66) : "";
    if (!hex || line.compare(64, 2, "  ") != 0 || name.find('/') != std::string::npos || name == "." || name == "..")
      throw UsageError(what + " line " + std::to_string(number) +
                       " is not '<64 lowercase hex digits>  <file name in its folder>' (sha256sum's format)");
    out.emplace_back(name, line.substr(0, 64));
  }
  return out;
}

}  // namespace

std::string manifest_text(const std::vector<ManifestFile>& files) {
  std::string out;
  for (const auto& [name, bytes] : files) out += sha256_hex(bytes) + "  " + name + "\n";
  return out;
}

fs::path manifest_of(const fs::path& file) { return fs::path(file).replace_extension(".sha256"); }

void require_whole_set(const fs::path& file) {
  const fs::path manifest = manifest_of(file);
  std::error_code ec;
  if (!fs::exists(manifest, ec)) return;
  const auto entries = manifest_entries(manifest);
  if (std::none_of(entries.begin(), entries.end(), [&](const auto& e) { return e.first == file.filename().string(); }))
    return;
  for (const auto& [name, digest] : entries) {
    const fs::path listed = manifest.parent_path() / name;
    const bool present = fs::exists(listed, ec);
    if (!present || sha256_hex(read_text_file(listed.string(), "'" + listed.string() + "'")) != digest)
      throw UsageError("'" + listed.string() + "' " + (present ? "does not match" : "is missing from") +
                       " its manifest '" + manifest.string() +
                       "': the files beside it come from different runs (a "
                       "run was killed while replacing them); run the command that made them again");
  }
}

}  // namespace tverify

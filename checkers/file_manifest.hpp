// A manifest of files written together: `<name>.sha256` beside them, in sha256sum's format ("<64 hex digits>  <file>"
// per line, so `sha256sum -c <name>.sha256` checks it too), written atomically after every file it lists has been
// renamed into place. A run killed between those renames leaves files that disagree with the manifest (the previous
// run's), and a reader refuses the set instead of reading a mix of two runs.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace tverify {

// (file name within the manifest's folder, the bytes it holds)
using ManifestFile = std::pair<std::string, std::string>;

std::string manifest_text(const std::vector<ManifestFile>& files);

// The manifest of a set `file` belongs to: `<stem>.sha256` beside it.
std::filesystem::path manifest_of(const std::filesystem::path& file);

// When the manifest of `file` exists and lists it: throws UsageError naming the first listed file that is missing or
// whose bytes differ from the manifest, or the manifest itself when it is not a sha256sum manifest of file names in
// its own folder. A file with no manifest beside it (copied elsewhere alone) passes.
void require_whole_set(const std::filesystem::path& file);

}  // namespace tverify

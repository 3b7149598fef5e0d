// The version and commit written into every certificate (generated at build time by cmake/WriteBuildInfo.cmake).
#pragma once

namespace tverify {

const char* tool_version();
const char* tool_commit();

}  // namespace tverify

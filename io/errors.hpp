// Bad usage or bad input: the CLI prints the message on one line and exits 2, having written nothing.
#pragma once

#include <stdexcept>
#include <string>

namespace tverify {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tverify

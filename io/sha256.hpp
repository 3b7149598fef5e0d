// SHA-256 of bytes, as the 64 lowercase hexadecimal digits sha256sum prints (OpenSSL libcrypto).
#pragma once

#include <string>

namespace tverify {

std::string sha256_hex(const std::string& bytes);

}  // namespace tverify

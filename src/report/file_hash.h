// SHA-256 of files (OpenSSL's EVP digest, Debian libssl-dev): the identity
// of an artifact in the store of runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace htpscope {

struct FileHash {
  std::string sha256;  // 64 lower-case hex digits
  int64_t size_bytes = 0;
};

// Hashes the bytes of `path` as stored (a .gz file is hashed compressed).
// Throws InputError naming the file when it cannot be read.
FileHash Sha256File(const std::string& path);

// SHA-256 of `bytes`, as 64 lower-case hex digits.
std::string Sha256Hex(std::string_view bytes);

}  // namespace htpscope

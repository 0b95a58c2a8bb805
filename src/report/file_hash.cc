#include "report/file_hash.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "base/errors.h"

namespace htpscope {
namespace {

struct DigestDeleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// Feeds bytes to a SHA-256 digest.
class Sha256 {
 public:
  Sha256() : ctx_(EVP_MD_CTX_new()) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1)
      throw InternalError("OpenSSL: cannot start a SHA-256 digest");
  }
  void Update(const void* data, size_t size) {
    if (EVP_DigestUpdate(ctx_.get(), data, size) != 1)
      throw InternalError("OpenSSL: SHA-256 update failed");
  }
  std::string HexDigest() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(ctx_.get(), digest, &size) != 1)
      throw InternalError("OpenSSL: SHA-256 final failed");
    static const char kDigits[] = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < size; ++i) {
      hex += kDigits[digest[i] >> 4];
      hex += kDigits[digest[i] & 15];
    }
    return hex;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, DigestDeleter> ctx_;
};

}  // namespace

FileHash Sha256File(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  Sha256 digest;
  std::vector<char> buffer(1 << 20);
  FileHash out;
  for (;;) {
    size_t n = std::fread(buffer.data(), 1, buffer.size(), file.get());
    if (n > 0) {
      digest.Update(buffer.data(), n);
      out.size_bytes += static_cast<int64_t>(n);
    }
    if (n < buffer.size()) {
      if (std::ferror(file.get()))
        throw InputError(path, std::string("cannot read: ") + std::strerror(errno));
      break;
    }
  }
  out.sha256 = digest.HexDigest();
  return out;
}

std::string Sha256Hex(std::string_view bytes) {
  Sha256 digest;
  digest.Update(bytes.data(), bytes.size());
  return digest.HexDigest();
}

}  // namespace htpscope

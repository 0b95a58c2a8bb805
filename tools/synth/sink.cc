#include "sink.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace htpscope::synth {

OutputFile::OutputFile(std::string path, bool gzip, std::optional<JsonRelayout> layout)
    : path_(std::move(path)), layout_(std::move(layout)) {
  if (gzip) {
    // "wb6": default compression level; gzopen writes no time stamp or name.
    gz_ = gzopen(path_.c_str(), "wb6");
    if (!gz_)
      throw std::runtime_error(fmt::format("{}: cannot create: {}", path_, std::strerror(errno)));
    gzbuffer(gz_, 256 * 1024);
  } else {
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_)
      throw std::runtime_error(fmt::format("{}: cannot create: {}", path_, std::strerror(errno)));
  }
  buffer_.reserve(kFlushBytes + 64 * 1024);
}

OutputFile::~OutputFile() {
  if (file_) std::fclose(file_);
  if (gz_) gzclose(gz_);
}

void OutputFile::Flush() {
  if (buffer_.size() == 0) return;
  if (gz_) {
    const char* data = buffer_.data();
    size_t left = buffer_.size();
    while (left > 0) {
      unsigned chunk = static_cast<unsigned>(std::min<size_t>(left, 1u << 30));
      int written = gzwrite(gz_, data, chunk);
      if (written <= 0) {
        int err = 0;
        const char* message = gzerror(gz_, &err);
        throw std::runtime_error(fmt::format("{}: write failed: {}", path_, message));
      }
      data += written;
      left -= static_cast<size_t>(written);
    }
  } else if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    throw std::runtime_error(fmt::format("{}: write failed: {}", path_, std::strerror(errno)));
  }
  bytes_written_ += buffer_.size();
  buffer_.clear();
}

void OutputFile::Close() {
  Flush();
  if (gz_) {
    gzFile gz = gz_;
    gz_ = nullptr;
    if (gzclose(gz) != Z_OK) throw std::runtime_error(fmt::format("{}: close failed", path_));
  }
  if (file_) {
    std::FILE* file = file_;
    file_ = nullptr;
    if (std::fclose(file) != 0)
      throw std::runtime_error(fmt::format("{}: close failed: {}", path_, std::strerror(errno)));
  }
}

}  // namespace htpscope::synth

#include "cli/output_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "base/errors.h"

namespace htpscope::cli {
namespace {

class OutputFd {
 public:
  explicit OutputFd(int fd) : fd_(fd) {}
  ~OutputFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  OutputFd(const OutputFd&) = delete;
  OutputFd& operator=(const OutputFd&) = delete;
  int get() const { return fd_; }
  // Closes the descriptor; returns close(2)'s errno, or 0.
  int Close() {
    int rc = ::close(fd_);
    fd_ = -1;
    return rc == 0 ? 0 : errno;
  }

 private:
  int fd_;
};

std::string ErrnoText(int error) { return std::strerror(error); }

}  // namespace

std::vector<std::string> InputsOfRun(const Run& run) {
  std::vector<std::string> paths;
  for (const auto& a : run.artifacts) paths.push_back(a.path);
  return paths;
}

void WriteOutputFile(const std::string& path, std::string_view content,
                     const std::vector<std::string>& inputs) {
  // Not truncated on open: the check below comes first.  Non-blocking, so
  // that a named pipe nobody reads fails (ENXIO) instead of hanging.
  OutputFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK, 0666));
  if (fd.get() < 0) {
    int error = errno;
    throw OutputError(path,
                      error == ENXIO ? "a named pipe that no process reads" : ErrnoText(error));
  }
  struct stat out {};
  if (::fstat(fd.get(), &out) != 0) throw OutputError(path, ErrnoText(errno));
  for (const auto& input : inputs) {
    struct stat in {};
    if (::stat(input.c_str(), &in) != 0) continue;
    if (in.st_dev == out.st_dev && in.st_ino == out.st_ino)
      throw OutputError(path, fmt::format("it is the input {}; refusing to write over an input "
                                          "(choose another output path)",
                                          input));
  }
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  if (S_ISREG(out.st_mode) && ::ftruncate(fd.get(), 0) != 0)
    throw OutputError(path, ErrnoText(errno));
  while (!content.empty()) {
    ssize_t n = ::write(fd.get(), content.data(), content.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw OutputError(path, ErrnoText(n < 0 ? errno : EIO));
    content.remove_prefix(static_cast<size_t>(n));
  }
  if (int error = fd.Close()) throw OutputError(path, ErrnoText(error));
}

}  // namespace htpscope::cli

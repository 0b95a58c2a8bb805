#include "formats/byte_source_open.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "base/errors.h"

namespace htpscope {
namespace {

constexpr size_t kPipeReadBytes = 1 << 20;
// A named pipe without a writer is polled this often until one comes.
constexpr int kFifoPollSliceMs = 50;

std::mutex& LimitsMutex() {
  static std::mutex mutex;
  return mutex;
}

std::optional<InputLimits>& LimitsSlot() {
  static std::optional<InputLimits> limits;
  return limits;
}

uint64_t SizeFromEnvironment(const char* variable, uint64_t fallback) {
  const char* value = std::getenv(variable);
  if (!value || !*value) return fallback;
  std::optional<uint64_t> parsed = ParseByteSize(value);
  if (!parsed || *parsed == 0)
    throw InputError(
        fmt::format("environment variable {}", variable),
        fmt::format("\"{}\" is not a size in bytes (e.g. 4294967296, 512M, 8G)", value));
  return *parsed;
}

int64_t MillisecondsFromEnvironment(const char* variable, int64_t fallback) {
  const char* value = std::getenv(variable);
  if (!value || !*value) return fallback;
  std::string_view text(value);
  int64_t ms = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ms);
  if (ec != std::errc() || end != text.data() + text.size() || ms < 0)
    throw InputError(fmt::format("environment variable {}", variable),
                     fmt::format("\"{}\" is not a whole number of milliseconds", value));
  return ms;
}

std::string ErrnoText(int error) { return std::strerror(error); }

// Closes a descriptor unless released.
class FdGuard {
 public:
  explicit FdGuard(int fd) : fd_(fd) {}
  ~FdGuard() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdGuard(const FdGuard&) = delete;
  FdGuard& operator=(const FdGuard&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// Why `path`, which open(2) could not find, is missing: a dangling symbolic
// link says where it points.
std::string MissingProblem(const std::string& path) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    std::string target(4096, '\0');
    ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
    target.resize(n > 0 ? static_cast<size_t>(n) : 0);
    return fmt::format("a dangling symbolic link (to \"{}\", which does not exist)", target);
  }
  return "no such file or directory";
}

std::string OpenProblem(const std::string& path, int error) {
  switch (error) {
    case ENOENT:
      return MissingProblem(path);
    case ELOOP:
      return "a symbolic link loop (too many levels of symbolic links)";
    case EACCES:
      return "cannot open: permission denied";
    default:
      return fmt::format("cannot open: {}", ErrnoText(error));
  }
}

// What a non-regular, non-directory file is, for messages.
std::string DescribeSpecialFile(mode_t mode) {
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// A pipe or FIFO read once: its bytes in an in-memory file, or the error
// that reading it raised (raised again on every later open).
struct HeldInput {
  int memfd = -1;
  uint64_t size_bytes = 0;
  std::optional<InputError> error;
};

struct HeldInputs {
  std::mutex mutex;
  std::map<std::pair<dev_t, ino_t>, HeldInput> by_file;
};

HeldInputs& Held() {
  static HeldInputs* held = new HeldInputs;  // lives to the end of the process
  return *held;
}

// True for an anonymous pipe (process substitution, a shell pipeline into
// standard input): it can never gain a writer once its writers are gone.
bool IsAnonymousPipe(int fd) {
  std::string link(256, '\0');
  std::string proc = fmt::format("/proc/self/fd/{}", fd);
  ssize_t n = ::readlink(proc.c_str(), link.data(), link.size());
  return n > 5 && std::string_view(link.data(), static_cast<size_t>(n)).substr(0, 5) == "pipe:";
}

void WriteAll(int fd, const char* data, size_t size, const std::string& path) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw InputError(path, fmt::format("cannot hold its bytes in memory: {}", ErrnoText(errno)));
    data += n;
    size -= static_cast<size_t>(n);
  }
}

// Reads the pipe or FIFO `fd` (non-blocking) to its end into a new
// in-memory file.  A named pipe without a writer is waited for at most
// fifo_writer_wait_ms; once a writer has come, the bytes are followed to
// the end however long it takes (the writer is the user's own command).
HeldInput HoldPipe(int fd, const std::string& path, const InputLimits& limits) {
  const bool anonymous = IsAnonymousPipe(fd);
  FdGuard memfd(::memfd_create("htpscope-input", MFD_CLOEXEC));
  if (memfd.get() < 0)
    throw InputError(path, fmt::format("cannot hold a pipe's bytes in memory: memfd_create: {}",
                                       ErrnoText(errno)));
  std::unique_ptr<char[]> buffer(new char[kPipeReadBytes]);
  uint64_t total = 0;
  bool writer_seen = anonymous;
  int64_t waited_ms = 0;
  for (;;) {
    ssize_t n = ::read(fd, buffer.get(), kPipeReadBytes);
    if (n > 0) {
      writer_seen = true;
      total += static_cast<uint64_t>(n);
      if (total > limits.max_in_memory_bytes)
        throw InputCapError(
            path,
            CapExceededProblem("a pipe's bytes, held in memory,", limits.max_in_memory_bytes,
                               kMaxInMemoryBytesVariable),
            limits.max_in_memory_bytes);
      WriteAll(memfd.get(), buffer.get(), static_cast<size_t>(n), path);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      // A writer holds it open but has written nothing yet: follow it.
      writer_seen = true;
      pollfd wait{fd, POLLIN, 0};
      ::poll(&wait, 1, -1);
      continue;
    }
    if (n < 0) throw InputError(path, fmt::format("read error: {}", ErrnoText(errno)), total);
    if (writer_seen) break;  // end of the data
    // A named pipe no process has opened for writing (yet).
    if (waited_ms >= limits.fifo_writer_wait_ms)
      throw InputError(
          path, fmt::format("a named pipe (FIFO) that no process opened for writing within {} ms "
                            "({} sets the wait)",
                            limits.fifo_writer_wait_ms, kFifoWaitMsVariable));
    pollfd wait{fd, POLLIN, 0};
    const auto slice = static_cast<int>(
        std::min<int64_t>(kFifoPollSliceMs, limits.fifo_writer_wait_ms - waited_ms));
    int ready = ::poll(&wait, 1, std::max(slice, 0));
    if (ready > 0 && (wait.revents & POLLHUP)) writer_seen = true;  // came and went
    if (ready == 0) waited_ms += slice;
  }
  HeldInput held;
  held.memfd = memfd.release();
  held.size_bytes = total;
  return held;
}

}  // namespace

const InputLimits& CurrentInputLimits() {
  std::lock_guard<std::mutex> lock(LimitsMutex());
  std::optional<InputLimits>& slot = LimitsSlot();
  if (!slot) {
    InputLimits limits;
    limits.max_input_bytes = SizeFromEnvironment(kMaxInputBytesVariable, limits.max_input_bytes);
    limits.max_in_memory_bytes =
        SizeFromEnvironment(kMaxInMemoryBytesVariable, limits.max_in_memory_bytes);
    limits.fifo_writer_wait_ms =
        MillisecondsFromEnvironment(kFifoWaitMsVariable, limits.fifo_writer_wait_ms);
    slot = limits;
  }
  return *slot;
}

ScopedInputLimits::ScopedInputLimits(const InputLimits& limits) : saved_(CurrentInputLimits()) {
  std::lock_guard<std::mutex> lock(LimitsMutex());
  LimitsSlot() = limits;
}

ScopedInputLimits::~ScopedInputLimits() {
  std::lock_guard<std::mutex> lock(LimitsMutex());
  LimitsSlot() = saved_;
}

std::optional<uint64_t> ParseByteSize(std::string_view text) {
  uint64_t number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  std::string suffix(end, text.data() + text.size());
  for (char& c : suffix) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (suffix.size() > 1 && (suffix.substr(1) == "B" || suffix.substr(1) == "IB")) suffix.resize(1);
  int shift = 0;
  if (suffix.empty() || suffix == "B") {
    shift = 0;
  } else if (suffix == "K") {
    shift = 10;
  } else if (suffix == "M") {
    shift = 20;
  } else if (suffix == "G") {
    shift = 30;
  } else if (suffix == "T") {
    shift = 40;
  } else {
    return std::nullopt;
  }
  if (shift && number > (UINT64_MAX >> shift)) return std::nullopt;
  return number << shift;
}

std::string DescribeBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (value >= 1024 && unit < 3) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

std::string CapExceededProblem(std::string_view what, uint64_t cap_bytes, const char* variable) {
  return fmt::format("{} exceed the cap of {} ({} bytes); set {} to read more", what,
                     DescribeBytes(cap_bytes), cap_bytes, variable);
}

InputFd InputFd::Open(const std::string& path) {
  const InputLimits& limits = CurrentInputLimits();
  const std::string system_path = path == "-" ? std::string("/dev/stdin") : path;
  FdGuard fd(::open(system_path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) throw InputError(path, OpenProblem(system_path, errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    throw InputError(path, fmt::format("cannot examine: {}", ErrnoText(errno)));
  if (S_ISREG(st.st_mode)) {
    // Regular files never block; reads are plain blocking reads.
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    return InputFd(fd.release(), path, static_cast<uint64_t>(st.st_size), false);
  }
  if (S_ISDIR(st.st_mode)) throw InputError(path, "is a directory, not a file");
  if (S_ISCHR(st.st_mode) && ::isatty(fd.get()))
    throw InputError(path, "is a terminal: give a file, or pipe one into it");
  if (!S_ISFIFO(st.st_mode))
    throw InputError(path, fmt::format("is {}, not a file", DescribeSpecialFile(st.st_mode)));

  HeldInputs& held = Held();
  std::lock_guard<std::mutex> lock(held.mutex);
  auto key = std::make_pair(st.st_dev, st.st_ino);
  auto it = held.by_file.find(key);
  if (it == held.by_file.end()) {
    HeldInput input;
    try {
      input = HoldPipe(fd.get(), path, limits);
    } catch (const InputError& e) {
      input.error = e;
    }
    it = held.by_file.emplace(key, std::move(input)).first;
  }
  if (it->second.error) throw *it->second.error;
  int copy = ::fcntl(it->second.memfd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) throw InputError(path, fmt::format("cannot open: {}", ErrnoText(errno)));
  return InputFd(copy, path, it->second.size_bytes, true);
}

InputFd::InputFd(InputFd&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      size_bytes_(other.size_bytes_),
      held_in_memory_(other.held_in_memory_) {}

InputFd& InputFd::operator=(InputFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    size_bytes_ = other.size_bytes_;
    held_in_memory_ = other.held_in_memory_;
  }
  return *this;
}

InputFd::~InputFd() {
  if (fd_ >= 0) ::close(fd_);
}

size_t InputFd::ReadAt(uint64_t offset, char* out, size_t capacity) const {
  for (;;) {
    ssize_t n = ::pread(fd_, out, capacity, static_cast<off_t>(offset));
    if (n >= 0) return static_cast<size_t>(n);
    if (errno == EINTR) continue;
    throw InputError(path_, fmt::format("read error: {}", ErrnoText(errno)), offset);
  }
}

void ForgetHeldInputs() {
  HeldInputs& held = Held();
  std::lock_guard<std::mutex> lock(held.mutex);
  for (auto& [key, input] : held.by_file)
    if (input.memfd >= 0) ::close(input.memfd);
  held.by_file.clear();
}

InputFileStatus StatInputFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    return {InputFileType::kUnreachable, OpenProblem(path, errno)};
  if (S_ISREG(st.st_mode)) return {InputFileType::kRegular, ""};
  if (S_ISDIR(st.st_mode)) return {InputFileType::kDirectory, ""};
  return {InputFileType::kSpecial, DescribeSpecialFile(st.st_mode)};
}

}  // namespace htpscope

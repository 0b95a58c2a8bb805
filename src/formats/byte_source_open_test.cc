#include "formats/byte_source_open.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <thread>

#include "base/errors.h"
#include "formats/artifact_kind.h"
#include "formats/byte_source.h"
#include "base/corpus_test_util.h"
#include "formats/input_error_test_util.h"

namespace htpscope::byte_source_open_test {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

using testing_support::ErrorOf;

std::string Text(const LoadedFile& f) { return std::string(f.bytes.data(), f.bytes.size()); }

// A FIFO in a fresh directory.
std::string MakeFifo(const std::string& name) {
  std::string path = testing_support::TempDir(name) + "/fifo";
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
  return path;
}

// Writes `content` into the FIFO `path` from another thread after
// `delay_ms`, then closes it.
std::thread WriterAfter(const std::string& path, std::string content, int delay_ms) {
  return std::thread([path, content = std::move(content), delay_ms] {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    int fd = ::open(path.c_str(), O_WRONLY);
    if (fd < 0) return;
    size_t done = 0;
    while (done < content.size()) {
      ssize_t n = ::write(fd, content.data() + done, content.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    ::close(fd);
  });
}

InputLimits ShortFifoWait() {
  InputLimits limits;
  limits.fifo_writer_wait_ms = 200;
  return limits;
}

TEST(InputOpen, DevicesDirectoriesAndSocketsAreRefusedByName) {
  struct Case {
    std::string path, what;
  };
  std::string dir = testing_support::TempDir("refused");
  for (const Case& c : std::vector<Case>{{"/dev/zero", "is a character device, not a file"},
                                         {"/dev/null", "is a character device, not a file"},
                                         {dir, "is a directory, not a file"}}) {
    SCOPED_TRACE(c.path);
    auto start = Clock::now();
    for (const auto& read : std::vector<std::function<void()>>{
             [&] { ReadWholeFile(c.path); }, [&] { OpenByteSource(c.path); },
             [&] { ReadPrefix(c.path, 100); }, [&] { DetectArtifactKind(c.path); }}) {
      auto error = ErrorOf(read);
      ASSERT_TRUE(error);
      EXPECT_EQ(error->file(), c.path);
      EXPECT_EQ(error->problem(), c.what);
    }
    EXPECT_FALSE(MappedFile::Open(c.path));
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
  }
}

TEST(InputOpen, MissingFilesDanglingLinksAndLoopsSayWhichTheyAre) {
  std::string dir = testing_support::TempDir("links");
  fs::create_symlink(dir + "/nowhere.json", dir + "/dangling");
  fs::create_symlink(dir + "/loop_b", dir + "/loop_a");
  fs::create_symlink(dir + "/loop_a", dir + "/loop_b");
  auto missing = ErrorOf([&] { ReadWholeFile(dir + "/absent"); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->problem(), "no such file or directory");
  auto dangling = ErrorOf([&] { ReadWholeFile(dir + "/dangling"); });
  ASSERT_TRUE(dangling);
  EXPECT_EQ(dangling->problem(),
            "a dangling symbolic link (to \"" + dir + "/nowhere.json\", which does not exist)");
  auto loop = ErrorOf([&] { OpenByteSource(dir + "/loop_a"); });
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop->file(), dir + "/loop_a");
  EXPECT_NE(loop->problem().find("symbolic link loop"), std::string::npos) << loop->what();
  EXPECT_EQ(StatInputFile(dir + "/loop_a").type, InputFileType::kUnreachable);
  EXPECT_EQ(StatInputFile(dir + "/dangling").type, InputFileType::kUnreachable);
  EXPECT_EQ(StatInputFile("/dev/zero").type, InputFileType::kSpecial);
  EXPECT_EQ(StatInputFile("/dev/zero").what, "a character device");
  EXPECT_EQ(StatInputFile(dir).type, InputFileType::kDirectory);
}

TEST(InputOpen, FifoWithoutWriterIsRefusedAfterTheWaitNeverHangs) {
  std::string fifo = MakeFifo("fifo_nowriter");
  ScopedInputLimits limits(ShortFifoWait());
  auto start = Clock::now();
  auto error = ErrorOf([&] { ReadWholeFile(fifo); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), fifo);
  EXPECT_NE(error->problem().find("a named pipe (FIFO) that no process opened for writing "
                                  "within 200 ms"),
            std::string::npos)
      << error->what();
  EXPECT_NE(error->problem().find("HTPSCOPE_FIFO_WAIT_MS"), std::string::npos);
  // Every later open gives the same answer at once.
  auto again = ErrorOf([&] { DetectArtifactKind(fifo); });
  ASSERT_TRUE(again);
  EXPECT_EQ(again->problem(), error->problem());
  EXPECT_FALSE(MappedFile::Open(fifo));
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

TEST(InputOpen, FifoIsReadOnceAndEveryLaterOpenGetsTheSameBytes) {
  std::string fifo = MakeFifo("fifo_once");
  const std::string json = R"({"header": {"artifact_type": "RUN_TRACE"}, "traceEvents": []})";
  ScopedInputLimits limits(ShortFifoWait());
  // The writer comes late, but within the wait; then sniffing and the
  // reader's own open both see the whole content.
  std::thread writer = WriterAfter(fifo, json, 50);
  EXPECT_EQ(DetectArtifactKind(fifo), ArtifactKind::kRuntrace);
  writer.join();
  EXPECT_EQ(Text(ReadWholeFile(fifo)), json);
  EXPECT_EQ(ReadPrefix(fifo, 9), json.substr(0, 9));
  auto mapped = MappedFile::Open(fifo);
  ASSERT_TRUE(mapped);
  EXPECT_EQ(std::string(mapped->data(), mapped->size()), json);
  InputFd fd = InputFd::Open(fifo);
  EXPECT_TRUE(fd.held_in_memory());
  EXPECT_EQ(fd.size_bytes(), json.size());
}

TEST(InputOpen, WriterThatOpensButWritesLateIsFollowed) {
  std::string fifo = MakeFifo("fifo_slow");
  ScopedInputLimits limits(ShortFifoWait());
  // The writer opens at once and writes after more than the wait: it holds
  // the pipe open, so its bytes are waited for.
  std::thread writer([fifo] {
    int fd = ::open(fifo.c_str(), O_WRONLY);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    ssize_t n = ::write(fd, "late bytes", 10);
    (void)n;
    ::close(fd);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(Text(ReadWholeFile(fifo)), "late bytes");
  writer.join();
}

TEST(InputOpen, PipeOverTheInMemoryCapIsRefusedNamingIt) {
  std::string fifo = MakeFifo("fifo_cap");
  InputLimits limits = ShortFifoWait();
  limits.max_in_memory_bytes = 100000;
  ScopedInputLimits scoped(limits);
  // The writer's bytes past the cap go nowhere: EPIPE, not a signal.
  ::signal(SIGPIPE, SIG_IGN);
  std::thread writer = WriterAfter(fifo, std::string(300000, 'x'), 0);
  auto error = ErrorOf([&] { ReadWholeFile(fifo); });
  writer.join();
  ASSERT_TRUE(error);
  EXPECT_EQ(error->file(), fifo);
  EXPECT_NE(error->problem().find("a pipe's bytes, held in memory, exceed the cap of 97.7 KiB "
                                  "(100000 bytes); set HTPSCOPE_MAX_IN_MEMORY_BYTES"),
            std::string::npos)
      << error->what();
}

TEST(InputOpen, ByteSizesAndLimitsFromTheEnvironment) {
  EXPECT_EQ(ParseByteSize("0"), 0u);
  EXPECT_EQ(ParseByteSize("1048576"), 1048576u);
  EXPECT_EQ(ParseByteSize("512K"), 524288u);
  EXPECT_EQ(ParseByteSize("64m"), uint64_t{64} << 20);
  EXPECT_EQ(ParseByteSize("2GiB"), uint64_t{2} << 30);
  EXPECT_EQ(ParseByteSize("3GB"), uint64_t{3} << 30);
  EXPECT_EQ(ParseByteSize("1T"), uint64_t{1} << 40);
  EXPECT_EQ(ParseByteSize("100B"), 100u);
  for (const char* bad :
       {"", "G", "-5", "1.5G", "5X", "12 M", "99999999999999999999", "20000000000T"})
    EXPECT_FALSE(ParseByteSize(bad)) << bad;
  EXPECT_EQ(DescribeBytes(100), "100 bytes");
  EXPECT_EQ(DescribeBytes(uint64_t{2} << 30), "2.0 GiB");
  InputLimits defaults;
  EXPECT_EQ(defaults.max_in_memory_bytes, uint64_t{2} << 30);
  EXPECT_EQ(defaults.max_input_bytes, uint64_t{64} << 30);
  EXPECT_EQ(defaults.fifo_writer_wait_ms, 10000);
}

}  // namespace
}  // namespace htpscope::byte_source_open_test

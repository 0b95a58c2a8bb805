// The command line on hostile and odd inputs: pipes, FIFOs, devices, links,
// empty and odd run directories, outputs aimed at inputs, names carrying
// terminal controls.  Every command runs under timeout(1): none may hang.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/corpus_test_util.h"
#include "base/test_paths.h"
#include "cli/cli_test_util.h"
#include "formats/gzip_bomb_test_util.h"

namespace htpscope::hostile_input_cli_test {
namespace {

namespace fs = std::filesystem;
using testing_support::CliResult;
using testing_support::Slurp;
using testing_support::TempDir;

const std::string kExample = std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run";

// Runs `script` with bash (for process substitution and pipes), under a
// 60 s timeout; "htpscope" in it is the binary.  Exit status 124 means it
// timed out.
CliResult RunBash(const std::string& script) {
  std::string dir = TempDir("hostile_cli_script");
  std::ofstream(dir + "/script.sh") << "htpscope() { '" << HTPSCOPE_BINARY << "' \"$@\"; }\n"
                                    << script << "\n";
  return testing_support::RunCaptured("timeout -k 5 60 bash '" + dir + "/script.sh'",
                                      "hostile_cli");
}

std::string CopyOfExample(const std::string& name) {
  std::string dir = TempDir(name) + "/run";
  fs::create_directories(dir);
  for (const auto& f : fs::directory_iterator(kExample))
    fs::copy_file(f.path(), dir + "/" + f.path().filename().string());
  return dir;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(HostileInputCli, ProcessSubstitutionAndStandardInputAreReadOnce) {
  const std::string runtrace = kExample + "/chrometrace_runtrace.json";
  for (const std::string& script :
       {"htpscope summary <(cat '" + runtrace + "')", "cat '" + runtrace + "' | htpscope summary -",
        "htpscope summary - < '" + runtrace + "'",
        "htpscope summary <(gzip -c '" + runtrace + "')"}) {
    SCOPED_TRACE(script);
    CliResult r = RunBash(script);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(Contains(r.out, "read runtrace (RUN_TRACE)")) << r.out;
    EXPECT_TRUE(Contains(r.out, "Runtrace: wall phases per execution")) << r.out;
  }
  // Two artifacts through two pipes, a third as a file.
  CliResult r = RunBash("htpscope summary <(cat '" + runtrace + "') <(cat '" + kExample +
                        "/chrometrace.json') '" + kExample + "/profile_text.txt'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "read optrace (OP_TRACE)")) << r.out;
  EXPECT_TRUE(Contains(r.out, "read profile-viewer text")) << r.out;
}

TEST(HostileInputCli, FifoWithoutWriterIsAPromptErrorAndFifosInARunAreReported) {
  std::string dir = CopyOfExample("hostile_fifo");
  ASSERT_EQ(::mkfifo((dir + "/stuck.json").c_str(), 0600), 0);
  // In a run directory: never opened, reported by name.
  CliResult in_run = RunBash("htpscope summary '" + dir + "'");
  EXPECT_EQ(in_run.status, 0) << in_run.err;
  EXPECT_TRUE(Contains(in_run.out, dir + "/stuck.json: not read: a named pipe (FIFO)"))
      << in_run.out;
  // Given by name with nobody writing: refused after the wait.
  CliResult named = RunBash("HTPSCOPE_FIFO_WAIT_MS=300 htpscope summary '" + dir + "/stuck.json'");
  EXPECT_EQ(named.status, 2);
  EXPECT_TRUE(Contains(named.err, dir + "/stuck.json: a named pipe (FIFO) that no process opened "
                                        "for writing within 300 ms"))
      << named.err;
  // With a writer, it is read.
  CliResult fed = RunBash("cat '" + kExample + "/chrometrace_runtrace.json' > '" + dir +
                          "/stuck.json' & htpscope summary '" + dir + "/stuck.json'");
  EXPECT_EQ(fed.status, 0) << fed.err;
  EXPECT_TRUE(Contains(fed.out, "read runtrace (RUN_TRACE)")) << fed.out;
}

TEST(HostileInputCli, LinksThatGoNowhereAreReportedAndEmptyDirectoriesAreErrors) {
  std::string dir = CopyOfExample("hostile_links");
  fs::create_symlink(dir + "/loop.json", dir + "/loop.json");
  fs::create_symlink(dir + "/gone.json", dir + "/dangling.json");
  CliResult r = RunBash("htpscope summary '" + dir + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, dir + "/loop.json: not read: a symbolic link loop")) << r.out;
  EXPECT_TRUE(Contains(r.out, dir + "/dangling.json: not read: a dangling symbolic link")) << r.out;
  CliResult json = RunBash("htpscope summary --json '" + dir + "'");
  EXPECT_TRUE(Contains(json.out, dir + "/loop.json: not read: a symbolic link loop")) << json.out;

  std::string empty = TempDir("hostile_empty");
  CliResult e = RunBash("htpscope summary '" + empty + "'");
  EXPECT_EQ(e.status, 2);
  EXPECT_EQ(e.out, "");
  EXPECT_TRUE(Contains(e.err, empty + ": an empty directory")) << e.err;
  std::ofstream(empty + "/notes.txt") << "nothing to see\n";
  CliResult none = RunBash("htpscope summary '" + empty + "'");
  EXPECT_EQ(none.status, 2);
  EXPECT_TRUE(Contains(none.err, empty + ": no profiling artifact among the 1 file(s) read"))
      << none.err;
}

TEST(HostileInputCli, DevicesAndOversizedFilesAreRefusedPromptlyByName) {
  std::string dir = TempDir("hostile_devices");
  std::ofstream(dir + "/stages.csv") << "stage,seconds\nload,1.0\n";
  const std::string run = "'" + kExample + "'";
  for (const std::string& command : std::vector<std::string>{
           "heap /dev/zero", "graph " + run + " --expect /dev/zero",
           "diff --stages /dev/zero '" + dir + "/stages.csv'",
           "numerics " + run + " " + run + " --manifest-ref /dev/zero",
           "report " + run + " -o '" + dir + "/r.html' --attach lint=/dev/zero",
           "summary /dev/zero", "lint /dev/zero"}) {
    SCOPED_TRACE(command);
    CliResult r = RunBash("htpscope " + command);
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_TRUE(Contains(r.err, "/dev/zero: is a character device, not a file")) << r.err;
  }
  // A file over the in-memory cap, and a gzip bomb in a run.
  std::ofstream(dir + "/heap.txt") << std::string(5000, ' ') << "\n";
  CliResult big = RunBash("HTPSCOPE_MAX_IN_MEMORY_BYTES=4K htpscope heap '" + dir + "/heap.txt'");
  EXPECT_EQ(big.status, 2);
  EXPECT_TRUE(Contains(big.err, dir + "/heap.txt: at byte 4096: is 5001 bytes: its bytes, held "
                                      "whole in memory, exceed the cap of 4.0 KiB"))
      << big.err;
  std::string bomb_run = TempDir("hostile_bomb");
  CliResult bomb = RunBash(
      "{ printf '{\"header\": {\"artifact_type\": \"QHAS\"}, \"data\": '; head -c 50000000 "
      "/dev/zero | tr '\\0' ' '; } | gzip -c > '" +
      bomb_run + "/qhas.json.gz' && HTPSCOPE_MAX_IN_MEMORY_BYTES=16M htpscope summary '" +
      bomb_run + "'");
  EXPECT_EQ(bomb.status, 2);
  EXPECT_TRUE(Contains(bomb.err, bomb_run + "/qhas.json.gz: at byte ")) << bomb.err;
  EXPECT_TRUE(Contains(bomb.err,
                       "its inflated bytes, held whole in memory, exceed "
                       "the cap of 16.0 MiB"))
      << bomb.err;
}

// 21 MB of gzip inflating to 20 GiB of white space after a QHAS header, at
// the default caps.  It used to be read to its end into memory (14.9 GB
// resident, no answer after 120 s) and, under an address-space limit, to
// abort in std::terminate (exit 134).  It stops when its inflated bytes pass
// the 2 GiB cap of artifacts read whole: exit 2 naming the file and the cap.
std::string TwentyGibibyteQhasBomb() {
  const std::string path = TempDir("hostile_big_bomb") + "/qhas.json.gz";
  testing_support::WriteWhiteSpaceGzipBomb(
      path, R"({"header": {"artifact_type": "QHAS", "version": "1.0"}, )", uint64_t{20} << 10);
  return path;
}

constexpr const char* kDefaultCaps =
    "unset HTPSCOPE_MAX_IN_MEMORY_BYTES HTPSCOPE_MAX_INPUT_BYTES; ";
constexpr const char* kDefaultCapProblem =
    "its inflated bytes, held whole in memory, exceed the cap of 2.0 GiB (2147483648 bytes); set "
    "HTPSCOPE_MAX_IN_MEMORY_BYTES to read more";

TEST(HostileInputCli, GzipBombOfTwentyGibibytesStopsAtTheDefaultCapWithExitTwo) {
  const std::string bomb = TwentyGibibyteQhasBomb();
  CliResult r = RunBash(std::string(kDefaultCaps) + "htpscope summary '" + bomb + "'");
  EXPECT_EQ(r.status, 2) << r.err;  // 124: timed out after 60 s
  EXPECT_TRUE(Contains(r.err, bomb + ": at byte ")) << r.err;
  EXPECT_TRUE(Contains(r.err, kDefaultCapProblem)) << r.err;
}

TEST(HostileInputCli, GzipBombUnderAFourGigabyteAddressSpaceLimitExitsTwo) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no limit applies";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "AddressSanitizer reserves terabytes of address space: no limit applies";
#endif
#endif
  const std::string bomb = TwentyGibibyteQhasBomb();
  // As `ulimit -v 4000000` (KiB) does: 4.1 GB of address space.
  CliResult r =
      RunBash(std::string(kDefaultCaps) + "ulimit -v 4000000 && htpscope summary '" + bomb + "'");
  EXPECT_EQ(r.status, 2) << r.err;  // not 134 (std::terminate)
  EXPECT_FALSE(Contains(r.err, "terminate called")) << r.err;
  EXPECT_TRUE(Contains(r.err, bomb + ": at byte ")) << r.err;
  EXPECT_TRUE(Contains(r.err, kDefaultCapProblem)) << r.err;
}

TEST(HostileInputCli, OutputOverAnInputIsRefusedWithStatus3) {
  std::string dir = CopyOfExample("hostile_output");
  const std::string trace = Slurp(dir + "/chrometrace.json");
  const std::string runtrace = Slurp(dir + "/chrometrace_runtrace.json");
  // Other names for inputs: a symbolic link, a path through "..", a hard link.
  const std::string other = TempDir("hostile_other_names");
  fs::create_symlink(dir + "/chrometrace.json", other + "/alias.html");
  fs::create_hard_link(dir + "/chrometrace_htp.json", other + "/hard.dot");
  const std::string dotted = other + "/../" + fs::path(other).filename().string();
  for (const std::string& command : std::vector<std::string>{
           "report '" + dir + "' -o '" + dir + "/chrometrace.json'",
           "report '" + dir + "' -o '" + dotted + "/alias.html'",
           "timeline '" + dir + "' --svg '" + dir + "/chrometrace_runtrace.json'",
           "graph '" + dir + "' --dot '" + other + "/hard.dot'"}) {
    SCOPED_TRACE(command);
    CliResult r = RunBash("htpscope " + command);
    EXPECT_EQ(r.status, 3) << r.err;
    EXPECT_TRUE(Contains(r.err, "refusing to write over an input")) << r.err;
  }
  EXPECT_EQ(Slurp(dir + "/chrometrace.json"), trace);
  EXPECT_EQ(Slurp(dir + "/chrometrace_runtrace.json"), runtrace);
  // A path that cannot be written is an output error, not an input error.
  CliResult unwritable =
      RunBash("htpscope report '" + dir + "' -o '" + dir + "/no/such/dir/r.html'");
  EXPECT_EQ(unwritable.status, 3);
  EXPECT_TRUE(Contains(unwritable.err, "cannot write " + dir + "/no/such/dir/r.html: No such file"))
      << unwritable.err;
  // Writing next to the inputs is fine.
  CliResult ok = RunBash("htpscope report '" + dir + "' -o '" + dir + "/report.html'");
  EXPECT_EQ(ok.status, 0) << ok.err;
}

TEST(HostileInputCli, RunDirectoryNamedLikeAPlaceholderRendersItsReport) {
  std::string parent = TempDir("hostile_placeholder");
  std::string dir = parent + "/{{DATA}}";
  fs::copy(kExample, dir);
  CliResult r = RunBash("htpscope report '" + dir + "' -o '" + parent +
                        "/r.html' --title "
                        "'t {{TITLE}} /*{{JS}}*/'");
  EXPECT_EQ(r.status, 0) << r.err;
  std::string page = Slurp(parent + "/r.html");
  EXPECT_TRUE(Contains(page, "<title>t {{TITLE}} /*{{JS}}*/</title>"));
  EXPECT_TRUE(Contains(page, "\"label\":\"" + dir + "\"")) << page.substr(0, 2000);
  EXPECT_GT(page.size(), 50000u);
}

TEST(HostileInputCli, TerminalControlsInOpNamesAreEscapedInTheSummary) {
  std::string dir = TempDir("hostile_names");
  std::string trace = Slurp(kExample + "/chrometrace.json");
  const std::string hostile = R"(soft\u001b]0;pwned\u0007max\r\nFAKE ROW\u001b[2J)";
  for (size_t at = trace.find("softmax_0"); at != std::string::npos;
       at = trace.find("softmax_0", at + hostile.size()))
    trace.replace(at, 9, hostile);
  std::ofstream(dir + "/chrometrace.json") << trace;
  CliResult r = RunBash("htpscope summary '" + dir + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  for (char c : {'\x1b', '\x07', '\r'}) EXPECT_EQ(r.out.find(c), std::string::npos) << int(c);
  EXPECT_TRUE(Contains(r.out, "soft\\x1b]0;pwned\\x07max\\r\\nFA")) << r.out;
  for (const auto& line : {std::string("\nFAKE ROW")}) EXPECT_FALSE(Contains(r.out, line));
}

// Every text report, not only the summary: no escape sequence reaches stdout.
TEST(HostileInputCli, TerminalControlsInOpNamesAreEscapedInEveryTextReport) {
  std::string dir = TempDir("hostile_names_all");
  std::string trace = Slurp(kExample + "/chrometrace.json");
  const std::string hostile = R"(soft\u001b]0;pwned\u0007max\u001b[2J)";
  for (size_t at = trace.find("softmax_0"); at != std::string::npos;
       at = trace.find("softmax_0", at + hostile.size()))
    trace.replace(at, 9, hostile);
  std::ofstream(dir + "/chrometrace.json") << trace;
  for (const char* command : {"timeline", "graph", "memory", "lint"}) {
    CliResult r = RunBash(std::string("htpscope ") + command + " --color always '" + dir + "'");
    EXPECT_NE(r.status, 70) << command << r.err;
    // Styling escapes are ESC '[' ... 'm'; the hostile ones (OSC "ESC ]", BEL,
    // "ESC [2J") never survive.
    EXPECT_FALSE(Contains(r.out, "\x1b]")) << command;
    EXPECT_FALSE(Contains(r.out, "\x07")) << command;
    EXPECT_FALSE(Contains(r.out, "\x1b[2J")) << command;
  }
}

TEST(HostileInputCli, ByteOrderMarkAndTrailingGzipBytesAreAcceptedAsGzipDoes) {
  std::string dir = CopyOfExample("hostile_bom");
  std::string trace = Slurp(dir + "/chrometrace.json");
  std::ofstream(dir + "/chrometrace.json", std::ios::binary) << "\xEF\xBB\xBF" << trace;
  CliResult r = RunBash("htpscope summary '" + dir + "' && gzip '" + dir +
                        "/chrometrace_runtrace.json' && printf 'x\\n' >> '" + dir +
                        "/chrometrace_runtrace.json.gz' && htpscope summary '" + dir + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "read optrace (OP_TRACE)     " + dir + "/chrometrace.json"));
  EXPECT_TRUE(Contains(r.out,
                       "chrometrace_runtrace.json.gz: decompression OK, trailing garbage "
                       "ignored"))
      << r.out;
}

}  // namespace
}  // namespace htpscope::hostile_input_cli_test

// The example run's JSON artifacts re-saved the ways other tools re-save
// them — the header after the data, keys and values spelled with escapes,
// tabs and CRLF, gzip under the same name — are the same JSON values, and
// must give the same figures, byte for byte, as the files QAIRT wrote.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/corpus_test_util.h"
#include "base/test_paths.h"
#include "cli/cli_test_util.h"
#include "formats/json_layout_test_util.h"

namespace htpscope::rewritten_artifacts_cli_test {
namespace {

namespace fs = std::filesystem;
using testing_support::CliResult;
using testing_support::EscapeFirstLetters;
using testing_support::Gzip;
using testing_support::Slurp;
using testing_support::TempDir;

const std::string kExample = std::string(HTPSCOPE_SOURCE_DIR) + "/examples/synthetic_run";
const char* const kJsonArtifacts[] = {"chrometrace.json", "chrometrace_htp.json",
                                      "chrometrace_qnn_htp_analysis_summary.json",
                                      "chrometrace_runtrace.json"};

// The example copied to <TempDir(name)>/run with each JSON artifact's bytes
// replaced by `rewrite` of them; returns the directory holding "run".
std::string RewrittenExample(const std::string& name,
                             const std::function<std::string(const std::string&)>& rewrite) {
  const std::string parent = TempDir(name);
  fs::create_directories(parent + "/run");
  for (const auto& f : fs::directory_iterator(kExample)) {
    const std::string file = f.path().filename().string();
    std::string bytes = Slurp(f.path().string());
    for (const char* artifact : kJsonArtifacts)
      if (file == artifact) bytes = rewrite(bytes);
    std::ofstream(parent + "/run/" + file, std::ios::binary) << bytes;
  }
  return parent;
}

// `summary --json run` in `parent`: the same label and paths for every copy.
CliResult SummaryOf(const std::string& parent) {
  return testing_support::RunCaptured(
      "cd '" + parent + "' && '" + HTPSCOPE_BINARY + "' summary --json run", "rewritten_cli");
}

// The JSON value with its top-level "header" member moved after the others.
nlohmann::ordered_json HeaderLast(const std::string& text) {
  const auto value = nlohmann::ordered_json::parse(text);
  nlohmann::ordered_json moved;
  for (auto it = value.begin(); it != value.end(); ++it)
    if (it.key() != "header") moved[it.key()] = it.value();
  moved["header"] = value["header"];
  return moved;
}

TEST(RewrittenArtifactsCli, ValuePreservingRewritesGiveTheSameFigures) {
  const CliResult original =
      SummaryOf(RewrittenExample("rewritten_none", [](auto& t) { return t; }));
  ASSERT_EQ(original.status, 0) << original.err;
  for (const char* kind : {"optrace (OP_TRACE)", "HTP graph (HTP_GRAPH)", "QHAS summary (QHAS)",
                           "runtrace (RUN_TRACE)"})
    ASSERT_NE(original.out.find(std::string("\"kind\": \"") + kind + "\""), std::string::npos)
        << kind;
  const std::vector<std::pair<std::string, std::function<std::string(const std::string&)>>>
      rewrites = {
          {"header_last", [](const std::string& t) { return HeaderLast(t).dump(); }},
          {"escaped_tabs_crlf",
           [](const std::string& t) {
             std::string text = EscapeFirstLetters(
                 nlohmann::ordered_json::parse(t).dump(1, '\t'),
                 {"header", "artifact_type", "OP_TRACE", "HTP_GRAPH", "QHAS", "RUN_TRACE",
                  "traceEvents", "dur", "ts", "args", "Start Cycle", "graph", "nodes",
                  "scalar_params", "htp_op_instances", "cycles_used"});
             for (size_t at = text.find('\n'); at != std::string::npos;
                  at = text.find('\n', at + 2))
               text.replace(at, 1, "\r\n");
             return text;
           }},
          {"gzip_header_last", [](const std::string& t) { return Gzip(HeaderLast(t).dump(2)); }},
      };
  for (const auto& [name, rewrite] : rewrites) {
    SCOPED_TRACE(name);
    const CliResult r = SummaryOf(RewrittenExample("rewritten_" + name, rewrite));
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, original.out);
  }
}

}  // namespace
}  // namespace htpscope::rewritten_artifacts_cli_test

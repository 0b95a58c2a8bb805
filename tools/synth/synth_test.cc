// End-to-end tests: generate small runs into a temporary directory, load
// them with htpscope's own readers (LoadRun) and summary (Summarize /
// SummaryToJson), and require the summary to equal the generator's ground
// truth exactly, every cross-check to agree, and only the expected warnings.
#include "synth.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "analysis/summary.h"
#include "base/test_paths.h"
#include "formats/artifact_kind.h"
#include "formats/byte_source.h"
#include "formats/htp_graph.h"
#include "formats/optrace.h"
#include "formats/profile_text.h"
#include "formats/qhas.h"
#include "model/run.h"
#include "report/summary_report.h"

namespace htpscope::synth::synth_test {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            fmt::format("htpscope_synth_test_{}_{}_{}", ::getpid(),
                        ::testing::UnitTest::GetInstance()->current_test_info()->name(), counter++);
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// What the readers saw in a generated directory, format by format.
struct RawArtifacts {
  std::optional<Optrace> optrace;
  std::optional<Qhas> qhas;
  std::optional<HtpGraph> htp_graph;
  std::optional<ProfileReport> profile;
};

RawArtifacts ReadRaw(const fs::path& dir) {
  RawArtifacts raw;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string path = entry.path().string();
    switch (DetectArtifactKind(path)) {
      case ArtifactKind::kOptrace:
        raw.optrace = ReadOptrace(path);
        break;
      case ArtifactKind::kQhas:
        raw.qhas = ReadQhas(path);
        break;
      case ArtifactKind::kHtpGraph:
        raw.htp_graph = ReadHtpGraph(path);
        break;
      case ArtifactKind::kProfileText:
        raw.profile = ReadProfileText(path);
        break;
      default:
        break;
    }
  }
  return raw;
}

struct Generated {
  GroundTruth truth;
  std::unique_ptr<htpscope::Run> run;  // held by pointer: `summary` points into it
  RawArtifacts raw;
  Summary summary;
  nlohmann::json json;  // what `htpscope summary --json` prints
};

// Where and how to write a run, in the writer's layout unless `layout`.
OutputOptions Out(const std::string& dir, bool gzip, JsonLayout layout = JsonLayout::kWriter) {
  OutputOptions out;
  out.dir = dir;
  out.gzip = gzip;
  out.top_ops = 20;
  out.layout = layout;
  return out;
}

void Load(Generated& g, const fs::path& dir) {
  g.run = std::make_unique<htpscope::Run>(LoadRun({dir.string()}));
  g.raw = ReadRaw(dir);
  g.summary = Summarize(*g.run);
  g.json = SummaryToJson(g.summary);
}

Generated Generate(const SynthOptions& options, const fs::path& dir, bool gzip = false) {
  Generated g;
  g.truth = GenerateRun(options, Out(dir.string(), gzip));
  Load(g, dir);
  return g;
}

std::vector<std::string> WarningCodes(const Summary& s) {
  std::vector<std::string> codes;
  for (const auto& w : s.warnings) codes.emplace_back(WarningName(w.code));
  std::sort(codes.begin(), codes.end());
  return codes;
}

std::string Describe(const Summary& s) {
  std::string out;
  for (const auto& w : s.warnings)
    out += fmt::format("  [{}] {}\n", WarningName(w.code), w.message);
  for (const auto& c : s.run->cross_checks)
    if (!c.agree) out += fmt::format("  DIFFER {}: {} vs {} ({})\n", c.name, c.a, c.b, c.note);
  return out;
}

// The summary JSON equals the ground truth, field by field.
void ExpectMatchesTruth(const Generated& g) {
  const GroundTruth& t = g.truth;
  const nlohmann::json& j = g.json;
  SCOPED_TRACE(Describe(g.summary));
  EXPECT_EQ(j["fine_source"], "optrace");
  EXPECT_EQ(j["graph_wall_cycles"].get<int64_t>(), t.graph_wall_cycles);
  EXPECT_EQ(j["start_cycle"].get<int64_t>(), t.start_cycle);
  EXPECT_EQ(j["end_cycle"].get<int64_t>(), t.end_cycle);
  EXPECT_EQ(j["work_cycles"].get<int64_t>(), t.work_cycles);
  EXPECT_EQ(j["domain_cycles"].get<int64_t>(), t.domain_cycles);
  EXPECT_EQ(j["domain_tid"].get<uint32_t>(), t.domain_tid);
  EXPECT_EQ(j["dpc_sum_cycles"].get<int64_t>(), t.dpc_sum_cycles);

  ASSERT_EQ(j["units"].size(), t.units.size());
  for (size_t i = 0; i < t.units.size(); ++i) {
    const auto& u = j["units"][i];
    EXPECT_EQ(u["tid"].get<uint32_t>(), t.units[i].tid);
    EXPECT_EQ(u["kind"], t.units[i].kind);
    EXPECT_EQ(u["cycles_used"].get<int64_t>(), t.units[i].cycles_used) << "tid " << t.units[i].tid;
    EXPECT_EQ(u["busy_cycles"].get<int64_t>(), t.units[i].busy_cycles);
    EXPECT_EQ(u["slices"].get<uint64_t>(), t.units[i].slices);
  }

  ASSERT_EQ(j["ops"].size(), t.ops.size());
  for (size_t i = 0; i < t.ops.size(); ++i) {
    const auto& op = j["ops"][i];
    SCOPED_TRACE(fmt::format("op #{} {}", i, t.ops[i].name));
    EXPECT_EQ(op["name"], t.ops[i].name);
    EXPECT_EQ(op["type"], t.ops[i].type);
    EXPECT_EQ(op["dpc_cycles"].get<int64_t>(), t.ops[i].dpc_cycles);
    EXPECT_EQ(op["work_cycles"].get<int64_t>(), t.ops[i].work_cycles);
    EXPECT_EQ(op["instances"].get<int64_t>(), t.ops[i].instances);
    EXPECT_FALSE(op["dpc_lower_bound"].get<bool>());  // QHAS gives every slice's share
  }

  ASSERT_EQ(j["executions"].size(), t.executions.size());
  for (size_t i = 0; i < t.executions.size(); ++i) {
    const auto& e = j["executions"][i];
    const ExecutionTruth& x = t.executions[i];
    EXPECT_EQ(e["index"].get<int>(), x.index);
    EXPECT_EQ(e["qnn_accelerator_us"].get<double>(), static_cast<double>(x.qnn_accelerator_us));
    EXPECT_EQ(e["accelerator_us"].get<double>(), static_cast<double>(x.accelerator_us));
    EXPECT_EQ(e["accelerator_excluding_wait_us"].get<double>(),
              static_cast<double>(x.accelerator_excluding_wait_us));
    EXPECT_EQ(e["accelerator_cycles"].get<int64_t>(), x.accelerator_cycles);
    EXPECT_EQ(e["rpc_us"].get<double>(), static_cast<double>(x.rpc_us));
    EXPECT_EQ(e["qnn_execute_us"].get<double>(), static_cast<double>(x.qnn_execute_us));
    EXPECT_EQ(e["aggregate_cycles"].get<bool>(), x.aggregate_cycles) << "execution " << x.index;
  }
  if (t.steady_qnn_accelerator_us) {
    const auto& s = j["steady_state"]["qnn_accelerator_us"];
    EXPECT_EQ(s["median"].get<double>(), t.steady_qnn_accelerator_us->median);
    EXPECT_EQ(s["min"].get<double>(), t.steady_qnn_accelerator_us->min);
    EXPECT_EQ(s["max"].get<double>(), t.steady_qnn_accelerator_us->max);
    EXPECT_EQ(s["n"].get<int>(), t.steady_qnn_accelerator_us->n);
  } else {
    EXPECT_TRUE(j["steady_state"].is_null());
  }
  EXPECT_EQ(j["clock"]["source"], "runtrace");
  EXPECT_EQ(j["clock"]["plausible_ghz"].get<double>(), t.plausible_clock_ghz);
  EXPECT_EQ(j["peak_vtcm_bytes"].get<int64_t>(), t.peak_vtcm_bytes);
  EXPECT_EQ(j["peak_vtcm_cycle"].get<int64_t>(), t.peak_vtcm_cycle);
  EXPECT_EQ(j["traced_execution"].get<int>(), t.traced_execution);

  // Per-phase wall cycles equal the generator's phases.
  EXPECT_EQ(j["runtrace_phases"].size(), 4 * t.executions.size());

  // Every artifact read, nothing missing, every cross-check agreeing.
  EXPECT_EQ(j["artifacts"].size(), 5u);
  EXPECT_TRUE(j["missing"].empty()) << j["missing"].dump();
  // 5 fixed checks + one per unit + the two per-QNN-op comparisons.
  std::vector<std::string> disagreeing;
  size_t time_checks = 0;
  for (const auto& c : g.run->cross_checks) {
    time_checks += c.topic == "time";
    if (!c.agree) disagreeing.push_back(c.name);
  }
  // Graph wall, work, DPC, three runtrace/profile checks, node cycles, the
  // profile's execution 1 work cycles and excluding-wait time vs QHAS, the
  // profile's per-op cycles summed per execution vs its work cycles, one per
  // unit; peak VTCM is a memory check.
  EXPECT_EQ(time_checks, 10 + t.units.size());
  EXPECT_EQ(disagreeing, t.expected_disagreeing_checks);
  EXPECT_EQ(WarningCodes(g.summary), t.expected_warnings);

  // The reader saw exactly what the generator wrote.
  const Optrace& trace = *g.raw.optrace;
  EXPECT_EQ(trace.events_read, t.trace.events);
  EXPECT_EQ(trace.slices.size(), t.slices);
  EXPECT_EQ(trace.duplicate_slices, t.slices);
  EXPECT_EQ(trace.non_executed.size(), t.trace.non_executed_events);
  EXPECT_EQ(trace.flows.size(), t.trace.flow_events);
  EXPECT_EQ(g.run->op_instances.size(), t.htp_op_instances);
  for (const auto& w : g.run->warnings)
    EXPECT_EQ(WarningName(w.code), "multi_slice_dpc") << w.message;
}

SynthOptions Basic() {
  SynthOptions o;
  o.graph_name = "basic";
  o.ops = 50;
  o.executions = 3;
  o.seed = 20260101;
  return o;
}

TEST(SynthRun, BasicRunSummaryEqualsGroundTruth) {
  TempDir dir;
  Generated g = Generate(Basic(), dir.path());
  ExpectMatchesTruth(g);
  EXPECT_EQ(g.truth.multi_slice_ops, 0u);
  EXPECT_EQ(g.truth.executions.size(), 3u);
  // Steady state of two warm executions: the mean of both (checked by hand
  // from the two printed values).
  const double a = static_cast<double>(g.truth.executions[1].qnn_accelerator_us);
  const double b = static_cast<double>(g.truth.executions[2].qnn_accelerator_us);
  EXPECT_EQ(g.truth.steady_qnn_accelerator_us->median, (a + b) / 2);
  EXPECT_EQ(g.truth.steady_qnn_accelerator_us->min, std::min(a, b));
  // Cold first execution: slower than every warm one.
  for (size_t i = 1; i < g.truth.executions.size(); ++i)
    EXPECT_GT(g.truth.executions[0].qnn_accelerator_us, g.truth.executions[i].qnn_accelerator_us);
}

TEST(SynthRun, TiledHvxOpsAreMultiSlice) {
  TempDir dir;
  SynthOptions o = Basic();
  o.graph_name = "tiled";
  o.hmx_share = 0.25;
  o.tiled_share = 0.4;
  o.executions = 5;
  o.seed = 77;
  Generated g = Generate(o, dir.path());
  ExpectMatchesTruth(g);
  ASSERT_GT(g.truth.multi_slice_ops, 0u);
  EXPECT_NE(std::find(g.truth.expected_warnings.begin(), g.truth.expected_warnings.end(),
                      "multi_slice_dpc"),
            g.truth.expected_warnings.end());
  // Real-file shape of a multi-slice op: one ID on several HVX threads, the
  // op-level args repeated, exactly one slice with ts+origin == Start Cycle
  // and dur == Duration (cycles).
  const Optrace& trace = *g.raw.optrace;
  ASSERT_EQ(trace.slice_args.size(), trace.slices.size());
  std::map<uint64_t, std::vector<size_t>> by_id;  // slice indexes
  for (size_t i = 0; i < trace.slices.size(); ++i) by_id[trace.slices[i].op_id].push_back(i);
  int multi = 0;
  for (const auto& [id, slices] : by_id) {
    if (slices.size() < 2) continue;
    ++multi;
    int exact = 0;
    std::set<uint32_t> tids;
    const OpSliceArgs& first = trace.slice_args[slices[0]];
    for (size_t i : slices) {
      const OpSlice& s = trace.slices[i];
      const OpSliceArgs& a = trace.slice_args[i];
      EXPECT_EQ(a.op_start_cycles, first.op_start_cycles);
      EXPECT_EQ(a.op_duration_cycles, first.op_duration_cycles);
      EXPECT_EQ(a.dpc_cycles, first.dpc_cycles);
      EXPECT_GE(s.tid, 512u);
      tids.insert(s.tid);
      exact += s.start_cycles == a.op_start_cycles && s.dur_cycles == a.op_duration_cycles;
    }
    EXPECT_EQ(exact, 1) << HexId16(id);
    EXPECT_EQ(tids.size(), slices.size());
  }
  EXPECT_EQ(static_cast<uint64_t>(multi), g.truth.multi_slice_ops);
  // Steady state over 4 warm executions: median of an even count.
  std::vector<double> warm;
  for (size_t i = 1; i < g.truth.executions.size(); ++i)
    warm.push_back(static_cast<double>(g.truth.executions[i].qnn_accelerator_us));
  std::sort(warm.begin(), warm.end());
  EXPECT_EQ(g.truth.steady_qnn_accelerator_us->median, (warm[1] + warm[2]) / 2);
  EXPECT_EQ(g.truth.steady_qnn_accelerator_us->n, 4);
}

// As in real traces (gdn_hvx_int16): the path runs over several slices of a
// tiled op, the optrace repeats the primary slice's DPC, QHAS sums every
// slice's share — the summary must report the lower bound and the mismatch.
// A tiled op whose path share spreads over its slices: the optrace's per-ID
// DPC (the primary slice's) is a lower bound, and the summary shows the true
// figure, every slice's share, from QHAS.
TEST(SynthRun, SplitTileDpcIsEverySlicesShare) {
  TempDir dir;
  SynthOptions o = Basic();
  o.graph_name = "split";
  o.hmx_share = 0.2;
  o.tiled_share = 0.5;
  o.split_tile_dpc = true;
  o.seed = 314;
  Generated g = Generate(o, dir.path());
  ExpectMatchesTruth(g);
  int lower = 0;
  for (const auto& op : g.truth.ops) {
    if (op.trace_dpc_cycles == op.dpc_cycles) continue;
    ++lower;
    EXPECT_TRUE(op.multi_slice) << op.name;
    EXPECT_LT(op.trace_dpc_cycles, op.dpc_cycles) << op.name;
    bool found = false;
    for (const auto& row : g.raw.qhas->qnn_op_instances) {
      if (g.raw.qhas->Text(row.name) != op.name) continue;
      found = true;
      EXPECT_EQ(row.dominant_path_cycles, op.dpc_cycles);
    }
    EXPECT_TRUE(found) << op.name;
  }
  EXPECT_GT(lower, 0);
  // Σ DPC is the dominant path's length: the wall less its idle cycles.
  EXPECT_EQ(g.json["dpc_sum_cycles"].get<int64_t>(),
            g.truth.graph_wall_cycles - g.json["idle_cycles"].get<int64_t>());
}

TEST(SynthRun, SharedConstantAndSpillFillHandoff) {
  TempDir dir;
  SynthOptions o = Basic();
  o.graph_name = "handoff";
  o.branches = 2;
  o.shared_constant = true;
  o.spill_fill = true;
  o.seed = 5;
  Generated g = Generate(o, dir.path());
  ExpectMatchesTruth(g);

  // The compiled graph shows one static tensor read by a node of each branch.
  ASSERT_TRUE(g.raw.htp_graph);
  ASSERT_EQ(g.truth.shared_constants.size(), 1u);
  const auto& sc = g.truth.shared_constants[0];
  const uint64_t tensor = std::stoull(sc.tensor_id, nullptr, 16);
  ASSERT_TRUE(g.raw.htp_graph->tensors.count(tensor));
  EXPECT_TRUE(g.raw.htp_graph->tensors.at(tensor).is_static());
  std::set<std::string> consumers;
  for (const auto& [id, node] : g.raw.htp_graph->nodes)
    if (std::count(node.input_ids.begin(), node.input_ids.end(), tensor))
      consumers.insert(node.grouping);
  EXPECT_EQ(consumers,
            std::set<std::string>(sc.consumer_qnn_ops.begin(), sc.consumer_qnn_ops.end()));
  EXPECT_EQ(consumers.size(), 2u);
  // The shared buffer serialises the two branches.
  EXPECT_LE(sc.consumer_end_cycles[0], sc.consumer_start_cycles[1]);

  // HVX stage, then Spill and Fill on the sequencer, then HMX: no overlap.
  ASSERT_TRUE(g.truth.handoff.present);
  const Handoff& h = g.truth.handoff;
  EXPECT_LT(h.hvx_stage_end_cycle, h.hmx_stage_start_cycle);
  int64_t last_hvx_end = 0, first_hmx_start = INT64_MAX;
  int spills = 0, fills = 0;
  for (size_t i = 0; i < g.raw.optrace->slices.size(); ++i) {
    const OpSlice& s = g.raw.optrace->slices[i];
    std::string_view type = g.raw.optrace->Str(g.raw.optrace->slice_args[i].htp_op_type);
    spills += type == "@Spill";
    fills += type == "@Fill";
    if (s.flags & kFlagUsesHmx) first_hmx_start = std::min(first_hmx_start, s.start_cycles);
    if (s.tid >= 512 && type != "q::ForceFormat_Flat")
      last_hvx_end = std::max(last_hvx_end, s.end_cycles());
  }
  EXPECT_EQ(spills, 2);
  EXPECT_EQ(fills, 2);
  EXPECT_EQ(first_hmx_start, h.hmx_stage_start_cycle);
  EXPECT_EQ(last_hvx_end, h.hvx_stage_end_cycle);
}

TEST(SynthRun, GzipRunReadsTheSame) {
  TempDir plain, zipped;
  SynthOptions o = Basic();
  o.graph_name = "zipped";
  o.tiled_share = 0.2;
  Generated a = Generate(o, plain.path());
  Generated b = Generate(o, zipped.path(), /*gzip=*/true);
  ExpectMatchesTruth(b);
  for (const auto& f : b.truth.files) {
    ASSERT_TRUE(f.size() > 3 && f.substr(f.size() - 3) == ".gz") << f;
    std::ifstream in(zipped.path() / f, std::ios::binary);
    unsigned char magic[2] = {};
    in.read(reinterpret_cast<char*>(magic), 2);
    EXPECT_EQ(magic[0], 0x1f);
    EXPECT_EQ(magic[1], 0x8b);
  }
  // Same content once inflated: the two summaries are equal but for paths.
  nlohmann::json ja = a.json, jb = b.json;
  for (auto* j : {&ja, &jb}) {
    j->erase("label");
    j->erase("artifacts");
    j->erase("skipped");
    j->erase("warnings");
  }
  EXPECT_EQ(ja, jb);
  for (const auto& name : {"chrometrace.json", "profile_text.txt"}) {
    LoadedFile x = ReadWholeFile((plain.path() / name).string());
    LoadedFile y = ReadWholeFile((zipped.path() / (std::string(name) + ".gz")).string());
    EXPECT_TRUE(y.compressed);
    EXPECT_EQ(std::string_view(x.bytes.data(), x.bytes.size()),
              std::string_view(y.bytes.data(), y.bytes.size()));
  }
}

std::map<std::string, std::string> ReadAll(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    files[entry.path().filename().string()] =
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return files;
}

TEST(SynthRun, SameSeedSameBytes) {
  TempDir a, b, c, d, e;
  SynthOptions o = Basic();
  o.tiled_share = 0.3;
  GenerateRun(o, Out(a.path().string(), false));
  GenerateRun(o, Out(b.path().string(), false));
  auto fa = ReadAll(a.path()), fb = ReadAll(b.path());
  ASSERT_EQ(fa.size(), 6u);
  EXPECT_EQ(fa, fb);
  GenerateRun(o, Out(d.path().string(), true));
  GenerateRun(o, Out(e.path().string(), true));
  EXPECT_EQ(ReadAll(d.path()), ReadAll(e.path()));
  o.seed += 1;
  GenerateRun(o, Out(c.path().string(), false));
  auto fc = ReadAll(c.path());
  EXPECT_NE(fa["chrometrace.json"], fc["chrometrace.json"]);
}

// Each layout holds the same JSON values as the writer's (strings and
// numbers byte for byte), spaced as that layout spaces them, and htpscope
// reads the same run from every one.
TEST(SynthRun, EveryLayoutHoldsTheSameValues) {
  SynthOptions o = Basic();
  o.tiled_share = 0.3;
  TempDir writer;
  const Generated reference = Generate(o, writer.path());
  const auto reference_files = ReadAll(writer.path());
  for (JsonLayout layout : {JsonLayout::kLines, JsonLayout::kMinified, JsonLayout::kIndent2}) {
    SCOPED_TRACE(std::string(JsonLayoutName(layout)));
    TempDir dir;
    GenerateRun(o, Out(dir.path().string(), false, layout));
    const auto files = ReadAll(dir.path());
    ASSERT_EQ(files.size(), reference_files.size());
    for (const char* name :
         {"chrometrace.json", "chrometrace_htp.json", "chrometrace_qnn_htp_analysis_summary.json",
          "chrometrace_runtrace.json"}) {
      SCOPED_TRACE(name);
      const std::string& text = files.at(name);
      EXPECT_NE(text, reference_files.at(name));
      EXPECT_EQ(nlohmann::ordered_json::parse(text),
                nlohmann::ordered_json::parse(reference_files.at(name)));
      const auto lines = std::count(text.begin(), text.end(), '\n');
      if (layout == JsonLayout::kMinified) {
        EXPECT_EQ(lines, 0);
      }
      if (layout == JsonLayout::kIndent2) {
        EXPECT_EQ(text.substr(0, 4), "{\n  ");
      }
    }
    // One event a line: a line per element of traceEvents, and the header's.
    if (layout == JsonLayout::kLines) {
      const std::string& trace = files.at("chrometrace.json");
      EXPECT_GE(std::count(trace.begin(), trace.end(), '\n'),
                static_cast<long>(reference.truth.trace.events));
    }
    EXPECT_EQ(files.at("profile_text.txt"), reference_files.at("profile_text.txt"));
    nlohmann::json a = SummaryToJson(Summarize(LoadRun({dir.path().string()}))), b = reference.json;
    for (auto* j : {&a, &b}) {
      j->erase("label");
      j->erase("artifacts");
      j->erase("skipped");
      j->erase("warnings");
    }
    EXPECT_EQ(a, b);
  }
}

// `summary --json` of a run in each layout, plain and gzip, equals the
// writer layout's: the figures do not depend on the layout.  The run is big
// enough that every JSON reader streams its file in chunks (512 KiB).
TEST(SynthRun, EveryLayoutStreamedGivesTheSameSummary) {
  SynthOptions o = Basic();
  o.ops = 1000;
  o.tiled_share = 0.3;
  TempDir writer;
  auto without_paths = [](nlohmann::json j) {
    j.erase("label");
    j.erase("artifacts");
    j.erase("skipped");  // ground_truth.json, by path
    return j;
  };
  const nlohmann::json reference = without_paths(Generate(o, writer.path()).json);
  for (JsonLayout layout :
       {JsonLayout::kWriter, JsonLayout::kLines, JsonLayout::kMinified, JsonLayout::kIndent2}) {
    for (bool gzip : {false, true}) {
      SCOPED_TRACE(std::string(JsonLayoutName(layout)) + (gzip ? " gz" : " plain"));
      TempDir dir;
      GenerateRun(o, Out(dir.path().string(), gzip, layout));
      const std::string suffix = gzip ? ".gz" : "";
      const fs::path d = dir.path();
      // Each streaming reader really cuts its file into chunks.
      EXPECT_GT(ReadOptrace((d / ("chrometrace.json" + suffix)).string()).chunks_parsed, 1u);
      EXPECT_GT(ReadQhas((d / ("chrometrace_qnn_htp_analysis_summary.json" + suffix)).string())
                    .chunks_parsed,
                1u);
      EXPECT_GT(ReadHtpGraph((d / ("chrometrace_htp.json" + suffix)).string()).chunks_parsed, 1u);
      const htpscope::Run run = LoadRun({d.string()});
      EXPECT_EQ(without_paths(SummaryToJson(Summarize(run))), reference);
    }
  }
}

TEST(SynthRun, SingleOpSingleExecutionIsColdOnly) {
  TempDir dir;
  SynthOptions o;
  o.graph_name = "tiny";
  o.ops = 1;
  o.executions = 1;
  o.hmx_share = 1;
  Generated g = Generate(o, dir.path());
  ExpectMatchesTruth(g);
  EXPECT_FALSE(g.truth.steady_qnn_accelerator_us);
  EXPECT_NE(
      std::find(g.truth.expected_warnings.begin(), g.truth.expected_warnings.end(), "cold_only"),
      g.truth.expected_warnings.end());
}

TEST(SynthRun, SystemServiceOpIsLeftOutOfTheProfile) {
  TempDir dir;
  SynthOptions o = Basic();
  o.system_service = true;
  Generated g = Generate(o, dir.path());
  // The profile's root leaves the SystemService op out, and the summary
  // compares it with the work of the QNN ops the profile lists: all agree.
  ExpectMatchesTruth(g);
  const GroundTruth& t = g.truth;
  const RawArtifacts& run = g.raw;
  // The trace holds the SyncOp of SystemService_ChunkPreload_<n> (QNN op id
  // 0, process "QNN::SystemService_0"); the profile prints no node for it.
  const OpSlice* sync_slice = nullptr;
  const OpSliceArgs* sync = nullptr;
  for (size_t i = 0; i < run.optrace->slices.size(); ++i)
    if (run.optrace->slices[i].qnn_op_id() == 0) {
      sync_slice = &run.optrace->slices[i];
      sync = &run.optrace->slice_args[i];
    }
  ASSERT_NE(sync, nullptr);
  EXPECT_EQ(run.optrace->Str(sync->htp_op_type), "SyncOp");
  EXPECT_EQ(run.optrace->Str(sync->qnn_op_name).substr(0, 27), "SystemService_ChunkPreload_");
  bool named = false;
  for (const auto& p : run.optrace->processes)
    named = named ||
            (run.optrace->Str(p.name) == "QNN::SystemService_0" && p.has_op_id && p.qnn_op_id == 0);
  EXPECT_TRUE(named);
  const auto& first = *run.profile->Executions().front();
  EXPECT_EQ(first.nodes.size(), t.profile_nodes);
  int64_t nodes = 0;
  for (const auto& n : first.nodes) nodes += n.cycles;
  EXPECT_EQ(nodes, t.work_cycles - sync_slice->dur_cycles);
  EXPECT_EQ(t.executions[0].accelerator_cycles, nodes);
}

TEST(SynthRun, ArtifactsHaveTheRealLayout) {
  TempDir dir;
  SynthOptions o = Basic();
  o.tiled_share = 0.3;
  GroundTruth t = GenerateRun(o, Out(dir.path().string(), false));
  auto files = ReadAll(dir.path());
  const std::string& trace = files["chrometrace.json"];
  // One event per line; counters with the compact spacing and the value under "".
  EXPECT_NE(trace.find("\"traceEvents\": [\n{ \"name\": "), std::string::npos);
  EXPECT_NE(trace.find("{ \"name\": \"VTCM alloc\", \"ph\": \"C\", \"tid\":0, \"pid\":0, \"ts\":"),
            std::string::npos);
  // 15 header lines, one line per event, the closing line.
  EXPECT_EQ(static_cast<uint64_t>(std::count(trace.begin(), trace.end(), '\n')),
            t.trace.events + 16);
  EXPECT_EQ(trace.substr(trace.size() - 4), "\n]}\n");
  EXPECT_NE(trace.find("\"Non Executed Tensors\""), std::string::npos);
  EXPECT_NE(trace.find("\"cat\": \"sequencer\""), std::string::npos);
  EXPECT_NE(trace.find("\"ph\": \"f\", \"pb\": \"e\", \"id\": 0}"), std::string::npos);
  // The overview process's metadata comes last.
  EXPECT_NE(trace.rfind("\"args\": {\"sort_index\": 1}}\n]}\n"), std::string::npos);

  // QHAS: unpadded op ids, idle rows after every op row.
  const std::string& qhas = files["chrometrace_qnn_htp_analysis_summary.json"];
  EXPECT_EQ(qhas.find("\"op_id\": \"0x0000"), std::string::npos);
  Qhas q = ReadQhas((dir.path() / "chrometrace_qnn_htp_analysis_summary.json").string());
  EXPECT_TRUE(q.warnings.empty());
  const auto& path = q.dominant_path.at(0);
  bool idle_seen = false;
  int64_t dp = 0;
  for (const auto& seg : path) {
    if (idle_seen) {
      EXPECT_TRUE(seg.is_idle());
    }
    idle_seen = idle_seen || seg.is_idle();
    dp += seg.dp_cycles;
  }
  EXPECT_EQ(dp, q.overall.at(0).timeline_cycles);
  EXPECT_EQ(q.htp_op_instances.size(), t.slices);
  EXPECT_EQ(q.model_id, o.graph_name);

  // HTP graph: trailing space after "type"/"grouping" values, node cycles = trace args.
  const std::string& graph = files["chrometrace_htp.json"];
  EXPECT_NE(graph.find("\"type\": \"q::*InputSlice\", \n"), std::string::npos);
  HtpGraph hg = ReadHtpGraph((dir.path() / "chrometrace_htp.json").string());
  EXPECT_EQ(hg.nodes.size(), t.htp_graph_nodes);
  Optrace ot = ReadOptrace((dir.path() / "chrometrace.json").string());
  int compared = 0;
  for (size_t i = 0; i < ot.slices.size(); ++i) {
    auto it = hg.nodes.find(ot.slices[i].op_id);
    if (it == hg.nodes.end()) continue;
    ++compared;
    const OpSliceArgs& a = ot.slice_args[i];
    EXPECT_EQ(it->second.IntParam("cycles_start"), a.op_start_cycles);
    EXPECT_EQ(it->second.IntParam("cycles_duration"), a.op_duration_cycles);
    EXPECT_EQ(it->second.IntParam("cycles_dominant"), a.dpc_cycles);
  }
  EXPECT_GT(compared, 0);

  // Profile text: N blocks, node lines under the cycles root.
  const std::string& text = files["profile_text.txt"];
  EXPECT_NE(text.find("Execute Stats: \n\nExecute Stat 1\n"), std::string::npos);
  EXPECT_NE(text.find("\n    Input OpId_2 (cycles) : "), std::string::npos);
  EXPECT_NE(text.find("Execute Stat 3\n"), std::string::npos);
  EXPECT_EQ(text.find("Execute Stat 4\n"), std::string::npos);

  // Runtrace: the thread/process name pair after every execution.
  const std::string& rt = files["chrometrace_runtrace.json"];
  size_t pairs = 0;
  for (size_t at = rt.find("\"Core 0 Execs\""); at != std::string::npos;
       at = rt.find("\"Core 0 Execs\"", at + 1))
    ++pairs;
  EXPECT_EQ(pairs, 3u);
  EXPECT_NE(rt.find("\"summary_inf/s\": "), std::string::npos);

  // ground_truth.json parses and carries the headline figures.
  auto gt = nlohmann::json::parse(files["ground_truth.json"]);
  EXPECT_EQ(gt["graph_wall_cycles"].get<int64_t>(), t.graph_wall_cycles);
  EXPECT_EQ(gt["counts"]["trace_events"].get<uint64_t>(), t.trace.events);
  EXPECT_EQ(gt["ops"].size(), std::min<size_t>(20, t.ops.size()));
}

// examples/synthetic_run is what examples/README.md's command writes, and
// htpscope summarises it exactly as its ground truth says.
TEST(SynthRun, ExampleRunIsUpToDate) {
  const fs::path example = fs::path(HTPSCOPE_SOURCE_DIR) / "examples" / "synthetic_run";
  ASSERT_TRUE(fs::is_directory(example)) << example;
  TempDir dir;
  SynthOptions o;
  o.graph_name = "example";
  o.seed = 1;
  o.ops = 10;
  o.input_chunks = 2;
  o.hmx_share = 0.4;
  o.tiled_share = 0.2;
  o.executions = 5;
  Generated g;
  g.truth = GenerateRun(o, Out(dir.path().string(), false));
  EXPECT_EQ(ReadAll(dir.path()), ReadAll(example))
      << "regenerate examples/synthetic_run with the command in examples/README.md";
  Load(g, example);
  ExpectMatchesTruth(g);
  // What the README promises.
  EXPECT_EQ(g.truth.htp_op_instances, 41u);
  EXPECT_EQ(g.truth.slices, 44u);
  EXPECT_EQ(g.truth.multi_slice_ops, 1u);
  EXPECT_EQ(g.truth.executions.size(), 5u);
  EXPECT_EQ(g.json["skipped"].size(), 1u);  // ground_truth.json
  uint64_t bytes = 0;
  for (const auto& entry : fs::directory_iterator(example)) bytes += fs::file_size(entry.path());
  EXPECT_LT(bytes, 300u * 1024u);
}

}  // namespace
}  // namespace htpscope::synth::synth_test

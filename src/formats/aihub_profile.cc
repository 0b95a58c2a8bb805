#include "formats/aihub_profile.h"

#include <fmt/format.h>

#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/json_util.h"

namespace htpscope {

const char* AihubStageName(AihubStage stage) {
  switch (stage) {
    case AihubStage::kCompile:
      return "compile";
    case AihubStage::kFirstLoad:
      return "first_load";
    case AihubStage::kWarmLoad:
      return "warm_load";
    case AihubStage::kInference:
      return "inference";
  }
  return "";
}

const char* AihubComputeUnitName(AihubComputeUnit unit) {
  switch (unit) {
    case AihubComputeUnit::kNpu:
      return "NPU";
    case AihubComputeUnit::kGpu:
      return "GPU";
    case AihubComputeUnit::kCpu:
      return "CPU";
    case AihubComputeUnit::kUnspecified:
      return "UNSPECIFIED";
    case AihubComputeUnit::kOther:
      return "other";
  }
  return "";
}

AihubComputeUnit ParseAihubComputeUnit(std::string_view written) {
  constexpr std::string_view kPrefix = "COMPUTE_UNIT_";
  if (written.substr(0, kPrefix.size()) == kPrefix) written.remove_prefix(kPrefix.size());
  if (written == "NPU") return AihubComputeUnit::kNpu;
  if (written == "GPU") return AihubComputeUnit::kGpu;
  if (written == "CPU") return AihubComputeUnit::kCpu;
  if (written == "UNSPECIFIED") return AihubComputeUnit::kUnspecified;
  return AihubComputeUnit::kOther;
}

const char* AihubLayoutName(AihubLayout layout) {
  return layout == AihubLayout::kTetraHub ? "tetra_hub" : "qai_hub";
}

bool LooksLikeAihubProfile(std::string_view prefix) {
  size_t i = prefix.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos || prefix[i] != '{') return false;
  i = prefix.find_first_not_of(" \t\r\n", i + 1);
  if (i == std::string_view::npos) return false;
  const std::string_view rest = prefix.substr(i);
  return rest.starts_with("\"execution_summary\"") || rest.starts_with("\"execution_detail\"");
}

namespace {

constexpr char kAihubDefinition[] =
    "an AI Hub profile is the dict qai_hub's ProfileJob.download_profile() returns, saved as "
    "JSON: {\"execution_summary\": {...}, \"execution_detail\": [...]}";

bool IsNull(JsonReader& reader, simdjson::ondemand::value v, std::string_view ctx) {
  bool null = false;
  reader.Check(v.is_null().get(null), ctx);
  return null;
}

// An integer that may be null (the client's MISSING_METRIC_VALUE); negative
// values are refused (every figure is a time or a size).
std::optional<int64_t> OptionalCount(JsonReader& reader, simdjson::ondemand::value v,
                                     const std::string& ctx) {
  if (IsNull(reader, v, ctx)) return std::nullopt;
  const int64_t n = reader.Int(v, ctx);
  if (n < 0) reader.Invalid(fmt::format("{}: {} is negative (a time or a size)", ctx, n));
  return n;
}

// The counts of array `v`, none of them null; `list` names the array in
// the error for a null ("a range").
std::vector<int64_t> Counts(JsonReader& reader, simdjson::ondemand::value v, const std::string& ctx,
                            std::string_view list) {
  auto a = reader.Array(v, ctx);
  std::vector<int64_t> out;
  reader.Elements(a, ctx, [&](simdjson::ondemand::value e, size_t i) {
    const auto n = OptionalCount(reader, e, fmt::format("{}[{}]", ctx, i));
    if (!n) reader.Invalid(fmt::format("{}[{}]: null inside {}", ctx, i, list));
    out.push_back(*n);
  });
  return out;
}

std::optional<AihubByteRange> OptionalRange(JsonReader& reader, simdjson::ondemand::value v,
                                            const std::string& ctx) {
  if (IsNull(reader, v, ctx)) return std::nullopt;
  const std::vector<int64_t> ends = Counts(reader, v, ctx, "a range");
  if (ends.size() != 2)
    reader.Invalid(fmt::format("{}: expected [lower, upper] bytes, got {} value{}", ctx,
                               ends.size(), ends.size() == 1 ? "" : "s"));
  if (ends[0] > ends[1])
    reader.Invalid(fmt::format("{}: lower {} above upper {}", ctx, ends[0], ends[1]));
  return AihubByteRange{ends[0], ends[1]};
}

std::optional<std::vector<int64_t>> OptionalTimes(JsonReader& reader, simdjson::ondemand::value v,
                                                  const std::string& ctx) {
  if (IsNull(reader, v, ctx)) return std::nullopt;
  return Counts(reader, v, ctx, "a list of times");
}

// A key of execution_summary holding one count, and which client writes it.
struct AihubCountKey {
  std::string_view key;
  std::optional<int64_t> AihubProfile::*figure;
  enum Client { kBoth, kQaiHub, kTetraHub } client = kBoth;
  bool inference = false;  // one of the inference-time keys
};
constexpr AihubCountKey kAihubCountKeys[] = {
    {"estimated_inference_time", &AihubProfile::estimated_inference_time_us, AihubCountKey::kQaiHub,
     true},
    {"execution_time", &AihubProfile::estimated_inference_time_us, AihubCountKey::kTetraHub, true},
    {"estimated_inference_peak_memory", &AihubProfile::estimated_inference_peak_memory_bytes},
    {"first_load_time", &AihubProfile::first_load_time_us},
    {"load_time", &AihubProfile::first_load_time_us, AihubCountKey::kTetraHub},
    {"first_load_peak_memory", &AihubProfile::first_load_peak_memory_bytes},
    {"warm_load_time", &AihubProfile::warm_load_time_us},
    {"warm_load_peak_memory", &AihubProfile::warm_load_peak_memory_bytes},
    {"compile_time", &AihubProfile::compile_time_us},
    {"compile_peak_memory", &AihubProfile::compile_peak_memory_bytes},
    {"peak_memory_usage", &AihubProfile::compile_peak_memory_bytes, AihubCountKey::kTetraHub},
};

const AihubCountKey* FindCountKey(std::string_view key) {
  for (const AihubCountKey& k : kAihubCountKeys)
    if (k.key == key) return &k;
  return nullptr;
}

// The stage whose figures `key` names with `suffix` ("first_load" +
// "_memory_peak_range"), or nullopt.
std::optional<AihubStage> StageOf(std::string_view key, std::string_view prefix,
                                  std::string_view suffix) {
  if (!key.starts_with(prefix) || !key.ends_with(suffix) ||
      key.size() < prefix.size() + suffix.size())
    return std::nullopt;
  const std::string_view stage =
      key.substr(prefix.size(), key.size() - prefix.size() - suffix.size());
  for (int s = 0; s < kAihubStages; ++s)
    if (stage == AihubStageName(static_cast<AihubStage>(s))) return static_cast<AihubStage>(s);
  return std::nullopt;
}

void ReadSummary(JsonReader& reader, simdjson::ondemand::value v, AihubProfile& p,
                 bool* has_inference_key) {
  auto summary = reader.Object(v, "execution_summary");
  bool tetra = false, qai = false;
  reader.Fields(summary, "execution_summary",
                [&](std::string_view key, simdjson::ondemand::value value) {
                  const std::string ctx = fmt::format("execution_summary.{}", key);
                  if (const AihubCountKey* k = FindCountKey(key)) {
                    p.*k->figure = OptionalCount(reader, value, ctx);
                    qai = qai || k->client == AihubCountKey::kQaiHub;
                    tetra = tetra || k->client == AihubCountKey::kTetraHub;
                    if (k->inference) *has_inference_key = true;
                  } else if (auto s = StageOf(key, "", "_memory_increase_range")) {
                    p.memory_increase[static_cast<int>(*s)] = OptionalRange(reader, value, ctx);
                  } else if (auto s2 = StageOf(key, "", "_memory_peak_range")) {
                    p.memory_peak[static_cast<int>(*s2)] = OptionalRange(reader, value, ctx);
                  } else if (auto s3 = StageOf(key, "all_", "_times")) {
                    p.all_times_us[static_cast<int>(*s3)] = OptionalTimes(reader, value, ctx);
                  } else {
                    p.unknown_keys.emplace_back(key);
                  }
                });
  if (tetra && qai)
    reader.Invalid(
        "execution_summary mixes the tetra_hub keys (execution_time, load_time, "
        "peak_memory_usage) with the qai_hub ones (estimated_inference_time, ...)");
  p.layout = tetra ? AihubLayout::kTetraHub : AihubLayout::kQaiHub;
}

void ReadDetail(JsonReader& reader, simdjson::ondemand::value v, AihubProfile& p) {
  auto layers = reader.Array(v, "execution_detail");
  reader.Elements(layers, "execution_detail", [&](simdjson::ondemand::value lv, size_t i) {
    const std::string where = fmt::format("execution_detail[{}]", i);
    auto o = reader.Object(lv, where);
    AihubLayer layer;
    bool has_name = false, has_type = false, has_unit = false;
    reader.Fields(o, where, [&](std::string_view key, simdjson::ondemand::value value) {
      const std::string ctx = fmt::format("{}.{}", where, key);
      if (key == "name") {
        layer.name = std::string(reader.String(value, ctx));
        has_name = true;
      } else if (key == "type") {
        layer.type = std::string(reader.String(value, ctx));
        has_type = true;
      } else if (key == "compute_unit") {
        layer.compute_unit = std::string(reader.String(value, ctx));
        layer.unit = ParseAihubComputeUnit(layer.compute_unit);
        has_unit = true;
      } else if (key == "execution_time") {
        layer.execution_time_us = OptionalCount(reader, value, ctx);
      } else if (key == "execution_cycles") {
        layer.execution_cycles = OptionalCount(reader, value, ctx);
      }
      // Other keys (later clients may add some) are not read.
    });
    if (!has_name || !has_type || !has_unit)
      reader.Invalid(fmt::format("{}: a layer has name, type and compute_unit; this one lacks {}",
                                 where,
                                 !has_name ? "name" : (!has_type ? "type" : "compute_unit")));
    p.layers.push_back(std::move(layer));
  });
}

}  // namespace

AihubProfile ParseAihubProfile(const std::string& path, const simdjson::padded_string& json) {
  JsonReader reader(path, json);
  auto root = reader.Root();
  AihubProfile p;
  bool summary = false, detail = false, inference_key = false;
  reader.Fields(root, "top level", [&](std::string_view key, simdjson::ondemand::value v) {
    if (key == "execution_summary") {
      ReadSummary(reader, v, p, &inference_key);
      summary = true;
    } else if (key == "execution_detail") {
      ReadDetail(reader, v, p);
      detail = true;
    }
  });
  reader.ExpectEnd();
  if (!summary || !detail)
    throw InputError(
        path,
        fmt::format("no \"{}\": {}", !summary ? "execution_summary" : "execution_detail",
                    kAihubDefinition),
        0);
  if (!inference_key)
    throw InputError(path,
                     "execution_summary has neither \"estimated_inference_time\" (qai_hub) nor "
                     "\"execution_time\" (tetra_hub), which every layout of the AI Hub profile "
                     "writes",
                     0);
  return p;
}

AihubProfile ReadAihubProfile(const std::string& path) {
  LoadedFile loaded = ReadWholeFile(path);
  return ParseAihubProfile(path, loaded.bytes);
}

}  // namespace htpscope

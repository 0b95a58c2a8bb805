#include "model/import_device_profiles.h"

#include <absl/container/flat_hash_map.h>

#include <filesystem>
#include <utility>

#include "formats/artifact_kind.h"
#include "model/artifact_registry.h"

namespace htpscope {

const AihubStageRow* AihubProfileTables::Stage(std::string_view name) const {
  for (const auto& s : stages)
    if (s.stage == name) return &s;
  return nullptr;
}

std::vector<int64_t> AihubProfileTables::SamplesOf(std::string_view stage) const {
  std::vector<int64_t> out;
  for (const auto& s : samples)
    if (s.stage == stage) out.push_back(s.time_us);
  return out;
}

bool IsDeviceProfileFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  const model_import::ArtifactSpec* spec = model_import::FindArtifactSpec(DetectArtifactKind(path));
  return spec && model_import::FindRunDataSpec(spec->gives).device_profile;
}

std::optional<double> GenieProfileTables::Metric(const GenieEventRow& e,
                                                 std::string_view name) const {
  for (uint32_t i = e.first_metric; i < e.first_metric + e.metric_count && i < metrics.size(); ++i)
    if (metrics[i].name == name) return metrics[i].value;
  return std::nullopt;
}

}  // namespace htpscope

namespace htpscope::model_import {

AihubProfileTables ImportAihubProfile(AihubProfile&& p) {
  AihubProfileTables t;
  t.layout = AihubLayoutName(p.layout);
  const std::optional<int64_t> times[kAihubStages] = {
      p.compile_time_us, p.first_load_time_us, p.warm_load_time_us, p.estimated_inference_time_us};
  const std::optional<int64_t> peaks[kAihubStages] = {
      p.compile_peak_memory_bytes, p.first_load_peak_memory_bytes, p.warm_load_peak_memory_bytes,
      p.estimated_inference_peak_memory_bytes};
  for (int s = 0; s < kAihubStages; ++s) {
    AihubStageRow row;
    row.stage = AihubStageName(static_cast<AihubStage>(s));
    row.time_us = times[s];
    row.peak_memory_bytes = peaks[s];
    if (const auto& r = p.memory_increase[s]) {
      row.increase_lower_bytes = r->lower_bytes;
      row.increase_upper_bytes = r->upper_bytes;
    }
    if (const auto& r = p.memory_peak[s]) {
      row.peak_lower_bytes = r->lower_bytes;
      row.peak_upper_bytes = r->upper_bytes;
    }
    if (const auto& all = p.all_times_us[s]) {
      row.samples = static_cast<uint32_t>(all->size());
      for (size_t i = 0; i < all->size(); ++i)
        t.samples.push_back({row.stage, static_cast<uint32_t>(i), (*all)[i]});
    }
    t.stages.push_back(std::move(row));
  }
  absl::flat_hash_map<std::string, uint32_t> seen;
  t.layers.reserve(p.layers.size());
  for (size_t i = 0; i < p.layers.size(); ++i) {
    AihubLayer& l = p.layers[i];
    AihubLayerRow row;
    row.index = static_cast<uint32_t>(i);
    row.occurrence = ++seen[l.name];
    row.name = std::move(l.name);
    row.type = std::move(l.type);
    row.compute_unit =
        l.unit == AihubComputeUnit::kOther ? l.compute_unit : AihubComputeUnitName(l.unit);
    row.time_us = l.execution_time_us;
    row.cycles = l.execution_cycles;
    t.layers.push_back(std::move(row));
  }
  t.unknown_keys = std::move(p.unknown_keys);
  return t;
}

GenieProfileTables ImportGenieProfile(GenieProfile&& p) {
  GenieProfileTables t;
  t.header_version = std::move(p.header_version);
  t.version = std::move(p.version);
  t.timestamp_us = p.timestamp_us;
  t.has_trace_events = p.has_trace_events;
  for (auto& c : p.components) {
    uint32_t queries = 0;
    for (size_t i = 0; i < c.events.size(); ++i) {
      GenieEvent& e = c.events[i];
      GenieEventRow row;
      row.component = c.name;
      row.component_type = c.type;
      row.index = static_cast<uint32_t>(i);
      row.type = std::move(e.type);
      if (row.type == "GenieDialog_query" || row.type == "GenieEmbedding_generate")
        row.query = ++queries;
      row.start_us = e.start_us;
      row.duration_us = e.duration_us;
      row.stop_us = e.stop_us;
      row.first_metric = static_cast<uint32_t>(t.metrics.size());
      row.metric_count = static_cast<uint32_t>(e.metrics.size());
      const auto event = static_cast<uint32_t>(t.events.size());
      for (auto& m : e.metrics)
        t.metrics.push_back({event, std::move(m.name), m.value, std::move(m.unit)});
      t.events.push_back(std::move(row));
    }
  }
  return t;
}

}  // namespace htpscope::model_import

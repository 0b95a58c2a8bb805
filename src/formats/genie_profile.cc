#include "formats/genie_profile.h"

#include <fmt/format.h>

#include <utility>

#include "base/errors.h"
#include "formats/byte_source.h"
#include "formats/json_util.h"

namespace htpscope {

const GenieMetric* GenieEvent::Find(std::string_view name) const {
  for (const auto& m : metrics)
    if (m.name == name) return &m;
  return nullptr;
}

namespace {

constexpr char kGenieDefinition[] =
    "a Genie profile (genie-t2t-run --profile FILE) has \"header\" (artifact_type "
    "GENIE_PROFILE), \"metadata\" and \"components\"";

// The unit the definition (Genie's Profile.cpp) writes each metric in.
const char* DefinedUnit(std::string_view metric) {
  static constexpr std::pair<std::string_view, const char*> kUnits[] = {
      {"init-time", "us"},
      {"num-prompt-tokens", ""},
      {"prompt-processing-rate", "toks/sec"},
      {"time-to-first-token", "us"},
      {"num-generated-tokens", ""},
      {"token-generation-rate", "toks/sec"},
      {"token-generation-time", "us"},
      {"apply-engine-state", "us"},
      {"token-acceptance-rate", "toks/iteration"},
      {"lora-adapter-switching-time", "us"},
      {"getEngine-time", "us"},
      {"bindEngine-time", "us"},
  };
  for (const auto& [name, unit] : kUnits)
    if (name == metric) return unit;
  return nullptr;
}

std::string Version(JsonReader& reader, simdjson::ondemand::value v, const std::string& ctx) {
  auto parts = reader.Object(v, ctx);
  int64_t major = 0, minor = 0, patch = 0;
  reader.Fields(parts, ctx, [&](std::string_view key, simdjson::ondemand::value pv) {
    if (key == "major") major = reader.Int(pv, ctx + ".major");
    if (key == "minor") minor = reader.Int(pv, ctx + ".minor");
    if (key == "patch") patch = reader.Int(pv, ctx + ".patch");
  });
  return fmt::format("{}.{}.{}", major, minor, patch);
}

void ReadHeader(JsonReader& reader, simdjson::ondemand::value v, GenieProfile& p) {
  auto header = reader.Object(v, "header");
  std::string artifact;
  reader.Fields(header, "header", [&](std::string_view key, simdjson::ondemand::value hv) {
    if (key == "artifact_type")
      artifact = std::string(reader.String(hv, "header.artifact_type"));
    else if (key == "header_version")
      p.header_version = Version(reader, hv, "header.header_version");
    else if (key == "version")
      p.version = Version(reader, hv, "header.version");
  });
  if (artifact != "GENIE_PROFILE")
    reader.Invalid(fmt::format("header.artifact_type is \"{}\", not GENIE_PROFILE", artifact));
}

int64_t Microseconds(JsonReader& reader, simdjson::ondemand::value v, const std::string& ctx) {
  const int64_t n = reader.Int(v, ctx);
  if (n < 0) reader.Invalid(fmt::format("{}: {} µs is negative", ctx, n));
  return n;
}

GenieEvent ReadEvent(JsonReader& reader, simdjson::ondemand::value v, const std::string& where) {
  auto o = reader.Object(v, where);
  GenieEvent e;
  bool has_type = false, has_start = false, has_duration = false;
  reader.Fields(o, where, [&](std::string_view key, simdjson::ondemand::value value) {
    const std::string ctx = fmt::format("{}.{}", where, key);
    if (key == "type") {
      e.type = std::string(reader.String(value, ctx));
      has_type = true;
    } else if (key == "start") {
      e.start_us = Microseconds(reader, value, ctx);
      has_start = true;
    } else if (key == "duration") {
      e.duration_us = Microseconds(reader, value, ctx);
      has_duration = true;
    } else if (key == "stop") {
      e.stop_us = Microseconds(reader, value, ctx);
    } else {
      auto metric = reader.Object(value, ctx);
      GenieMetric m;
      m.name = std::string(key);
      bool has_value = false, has_unit = false;
      reader.Fields(metric, ctx, [&](std::string_view mk, simdjson::ondemand::value mv) {
        if (mk == "value") {
          m.value = reader.Number(mv, ctx + ".value");
          has_value = true;
        } else if (mk == "unit") {
          m.unit = std::string(reader.String(mv, ctx + ".unit"));
          has_unit = true;
        }
      });
      if (!has_value || !has_unit)
        reader.Invalid(
            fmt::format("{}: a metric is {{\"value\": number, \"unit\": string}}; this "
                        "one has no \"{}\"",
                        ctx, !has_value ? "value" : "unit"));
      if (m.value < 0) reader.Invalid(fmt::format("{}: value {} is negative", ctx, m.value));
      if (const char* unit = DefinedUnit(m.name); unit && m.unit != unit)
        reader.Invalid(fmt::format("{}: unit \"{}\", where the Genie profile writes \"{}\"", ctx,
                                   m.unit, unit));
      e.metrics.push_back(std::move(m));
    }
  });
  if (!has_type || !has_start || !has_duration)
    reader.Invalid(fmt::format("{}: an event has type, start and duration; this one lacks {}",
                               where, !has_type ? "type" : (!has_start ? "start" : "duration")));
  return e;
}

void ReadComponents(JsonReader& reader, simdjson::ondemand::value v, GenieProfile& p) {
  auto components = reader.Array(v, "components");
  reader.Elements(components, "components", [&](simdjson::ondemand::value cv, size_t i) {
    const std::string where = fmt::format("components[{}]", i);
    auto o = reader.Object(cv, where);
    GenieComponent c;
    bool has_name = false, has_events = false;
    reader.Fields(o, where, [&](std::string_view key, simdjson::ondemand::value value) {
      const std::string ctx = fmt::format("{}.{}", where, key);
      if (key == "name") {
        c.name = std::string(reader.String(value, ctx));
        has_name = true;
      } else if (key == "type") {
        c.type = std::string(reader.String(value, ctx));
      } else if (key == "events") {
        auto events = reader.Array(value, ctx);
        reader.Elements(events, ctx, [&](simdjson::ondemand::value ev, size_t k) {
          c.events.push_back(ReadEvent(reader, ev, fmt::format("{}[{}]", ctx, k)));
        });
        has_events = true;
      }
    });
    if (!has_name || !has_events)
      reader.Invalid(fmt::format("{}: a component has name, type and events; this one lacks {}",
                                 where, !has_name ? "name" : "events"));
    p.components.push_back(std::move(c));
  });
}

}  // namespace

GenieProfile ParseGenieProfile(const std::string& path, const simdjson::padded_string& json) {
  JsonReader reader(path, json);
  auto root = reader.Root();
  GenieProfile p;
  bool header = false, components = false;
  reader.Fields(root, "top level", [&](std::string_view key, simdjson::ondemand::value v) {
    if (key == "header") {
      ReadHeader(reader, v, p);
      header = true;
    } else if (key == "metadata") {
      auto metadata = reader.Object(v, "metadata");
      reader.Fields(metadata, "metadata", [&](std::string_view mk, simdjson::ondemand::value mv) {
        if (mk == "timestamp") p.timestamp_us = Microseconds(reader, mv, "metadata.timestamp");
      });
    } else if (key == "components") {
      ReadComponents(reader, v, p);
      components = true;
    } else if (key == "traceEvents") {
      p.has_trace_events = true;  // skipped by the on-demand parser
    }
  });
  reader.ExpectEnd();
  if (!header || !components)
    throw InputError(
        path, fmt::format("no \"{}\": {}", !header ? "header" : "components", kGenieDefinition), 0);
  return p;
}

GenieProfile ReadGenieProfile(const std::string& path) {
  LoadedFile loaded = ReadWholeFile(path);
  return ParseGenieProfile(path, loaded.bytes);
}

}  // namespace htpscope

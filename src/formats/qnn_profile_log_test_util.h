// Test support: qnn-net-run profiling logs built with FlatBufferBuilder from
// src/formats/qnn_profile_log.fbs, and a small run with the rows
// qnn-profile-viewer prints for it, worked out by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#if HTPSCOPE_HAVE_QNN_LOG
#include "qnn_profile_log_generated.h"

namespace htpscope::testing_support {

namespace ql = qnnlog;

struct EventSpec {
  std::string identifier;
  uint32_t type = 0;
  uint64_t value = 0;
  uint32_t unit = 1;
  std::vector<EventSpec> subs;
  bool extra_field = false;  // a 7th field, which no known log has
};

struct PhaseSpec {
  uint8_t kind = 1;
  uint64_t timestamp_us = 0;
  std::optional<std::pair<uint64_t, uint64_t>> interval;
  std::vector<EventSpec> events;
  std::string graph;
};

struct LogSpec {
  std::vector<PhaseSpec> phases;
  uint32_t magic = 0x358637bd;
  uint32_t layout = 116;
};

inline flatbuffers::Offset<ql::Event> BuildEvent(flatbuffers::FlatBufferBuilder& fbb,
                                                 const EventSpec& e) {
  std::vector<flatbuffers::Offset<ql::Event>> subs;
  for (const auto& s : e.subs) subs.push_back(BuildEvent(fbb, s));
  auto id = fbb.CreateString(e.identifier);
  auto sub_vector = e.subs.empty() ? 0 : fbb.CreateVector(subs);
  ql::EventBuilder b(fbb);
  b.add_identifier(id);
  b.add_type(e.type);
  b.add_value(e.value);
  b.add_unit(e.unit);
  if (!e.subs.empty()) b.add_sub_events(sub_vector);
  b.add_level(2);
  if (e.extra_field) fbb.AddElement<uint32_t>(4 + 2 * 6, 9, 0);
  return b.Finish();
}

inline std::string BuildLog(const LogSpec& spec) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<ql::Phase>> phases;
  uint32_t sequence = 0;
  for (const auto& p : spec.phases) {
    auto stamp = ql::CreateStamp(fbb, p.timestamp_us, sequence++);
    flatbuffers::Offset<ql::Interval> interval = 0;
    if (p.interval) interval = ql::CreateInterval(fbb, p.interval->first, p.interval->second);
    std::vector<flatbuffers::Offset<ql::Event>> events;
    for (const auto& e : p.events) events.push_back(BuildEvent(fbb, e));
    auto event_vector = events.empty() ? 0 : fbb.CreateVector(events);
    auto graph = p.graph.empty() ? 0 : fbb.CreateString(p.graph);
    phases.push_back(ql::CreatePhase(fbb, stamp, p.kind, interval, 0, event_vector, graph));
  }
  auto header = ql::CreateHeaderDirect(fbb, spec.magic, 1782626727584123, 900, spec.layout,
                                       "v2.47.0.1", "v2.47.0.2", "qnn-net-run");
  auto log = ql::CreateLog(fbb, header, fbb.CreateVector(phases));
  // As qnn-net-run writes it: the length, then a buffer aligned on its own
  // (not FinishSizePrefixed, whose alignment counts the prefix in).
  fbb.Finish(log);
  const uint32_t length = fbb.GetSize();
  std::string out(reinterpret_cast<const char*>(&length), sizeof length);
  return out + std::string(reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize());
}

inline EventSpec Cycles(std::string label, uint64_t cycles) {
  return {std::move(label), 404, cycles, 3, {}, false};
}

inline PhaseSpec Execute(uint64_t ts, uint64_t start, uint64_t end, uint64_t qnn_us, uint64_t input,
                         uint64_t conv) {
  return {1,
          ts,
          std::make_pair(start, end),
          {{"QNN (execute) time", 400, qnn_us, 1, {}, false},
           {"Accelerator (execute) time (cycles)",
            3003,
            input + conv,
            3,
            {Cycles("Input OpId_2 (cycles)", input), Cycles("conv:OpId_7 (cycles)", conv)},
            false},
           {"Number of HVX threads used", 8001, 4, 4, {}, false}},
          "g"};
}

// A run of one graph in the order qnn-net-run writes it: INIT, COMPOSE,
// FINALIZE, two EXECUTEs, EXECUTE IPS, DE-INIT.
inline LogSpec SmallRun() {
  LogSpec s;
  s.phases.push_back({6, 1000, std::make_pair(900, 950), {}, ""});
  s.phases.push_back({7, 2000, std::make_pair(1100, 1900), {}, ""});
  s.phases.push_back(
      {2,
       3000,
       std::make_pair(2000, 2900),
       {{"RPC (finalize) time", 2001, 500, 1, {}, false},
        {"QNN (finalize) time",
         300,
         880,
         1,
         {{"Graph Optimizations", 0, 600, 1, {}, false}, {"VTCM Allocation", 0, 30, 1, {}, false}},
         false}},
       "g"});
  s.phases.push_back(Execute(4000, 3100, 3600, 480, 300, 700));
  s.phases.push_back(Execute(5000, 4100, 4400, 280, 200, 700));
  s.phases.push_back(
      {8,
       6000,
       std::nullopt,
       {{"numInferences", 400, 2, 4, {}, false}, {"duration", 400, 800, 1, {}, false}},
       ""});
  s.phases.push_back(
      {5, 7000, std::make_pair(6100, 6300), {{"QNN (deinit) time", 500, 190, 1, {}, false}}, ""});
  return s;
}

// What qnn-profile-viewer prints for SmallRun(), worked out by hand from the
// rules of docs/profile-readers.md (INIT: its 50 µs span + COMPOSE 800 +
// FINALIZE 900).
constexpr std::string_view kSmallRunRows =
    "1000,INIT,1750,US,NETRUN,ROOT,null\n"
    "2000,COMPOSE GRAPHS,800,US,NETRUN,ROOT,null\n"
    "3000,FINALIZE,900,US,NETRUN,ROOT,Graph 0: g\n"
    "3000,FINALIZE,500,US,BACKEND,ROOT,RPC (finalize) time\n"
    "3000,FINALIZE,880,US,BACKEND,ROOT,QNN (finalize) time\n"
    "3000,FINALIZE,600,US,BACKEND,SUB-EVENT,Graph Optimizations\n"
    "3000,FINALIZE,30,US,BACKEND,SUB-EVENT,VTCM Allocation\n"
    "7000,DE-INIT,200,US,NETRUN,ROOT,null\n"
    "7000,DE-INIT,190,US,BACKEND,ROOT,QNN (deinit) time\n"
    "4000,EXECUTE,500,US,NETRUN,ROOT,Graph 0: g\n"
    "4000,EXECUTE,480,US,BACKEND,ROOT,QNN (execute) time\n"
    "4000,EXECUTE,1000,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n"
    "4000,EXECUTE,300,CYCLES,BACKEND,SUB-EVENT,Input OpId_2 (cycles)\n"
    "4000,EXECUTE,700,CYCLES,BACKEND,SUB-EVENT,conv:OpId_7 (cycles)\n"
    "4000,EXECUTE,4,COUNT,BACKEND,ROOT,Number of HVX threads used\n"
    "5000,EXECUTE,300,US,NETRUN,ROOT,Graph 0: g\n"
    "5000,EXECUTE,280,US,BACKEND,ROOT,QNN (execute) time\n"
    "5000,EXECUTE,900,CYCLES,BACKEND,ROOT,Accelerator (execute) time (cycles)\n"
    "5000,EXECUTE,200,CYCLES,BACKEND,SUB-EVENT,Input OpId_2 (cycles)\n"
    "5000,EXECUTE,700,CYCLES,BACKEND,SUB-EVENT,conv:OpId_7 (cycles)\n"
    "5000,EXECUTE,4,COUNT,BACKEND,ROOT,Number of HVX threads used\n"
    "6000,EXECUTE IPS,2500.000000,INF/SEC,NETRUN,ROOT,null\n";

constexpr std::string_view kViewerCsvHeader =
    "Msg Timestamp, Message, Time, Unit of Measurement, Timing Source, Event Level, Event "
    "Identifier\n";

}  // namespace htpscope::testing_support

#endif  // HTPSCOPE_HAVE_QNN_LOG

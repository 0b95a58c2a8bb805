// For the optrace fuzz targets and tests: two reads of one input (matched
// and general path, streamed and whole) must give the same events.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "formats/optrace.h"

namespace htpscope::fuzz {

// Aborts, naming the two reads (`reads`) and what differs, unless `ok`.
inline void RequireSame(bool ok, const char* reads, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz contract violated: %s reads differ: %s\n", reads, what);
    std::abort();
  }
}

// Every event of `a` equals `b`'s, in the same order: slices field by field,
// flows, counter samples, processes, threads, copies, tensors, and the ts
// origin.
inline void RequireSameEvents(const Optrace& a, const Optrace& b, const char* reads) {
  RequireSame(a.events_read == b.events_read, reads, "events read");
  RequireSame(a.duplicate_slices == b.duplicate_slices, reads, "copies");
  RequireSame(a.non_executed.size() == b.non_executed.size(), reads, "tensors");
  RequireSame(a.origin_cycles == b.origin_cycles, reads, "origin");
  RequireSame(a.slices.size() == b.slices.size(), reads, "slices");
  RequireSame(a.slice_args.size() == a.slices.size() && b.slice_args.size() == b.slices.size(),
              reads, "one args row per slice");
  for (size_t i = 0; i < a.slices.size(); ++i) {
    const OpSlice& s = a.slices[i];
    const OpSlice& t = b.slices[i];
    const OpSliceArgs& x = a.slice_args[i];
    const OpSliceArgs& y = b.slice_args[i];
    RequireSame(s.op_id == t.op_id && s.start_cycles == t.start_cycles &&
                    s.dur_cycles == t.dur_cycles && x.op_start_cycles == y.op_start_cycles &&
                    x.op_duration_cycles == y.op_duration_cycles && x.dpc_cycles == y.dpc_cycles &&
                    s.tid == t.tid && s.flags == t.flags,
                reads, "a slice's numbers");
    // Bit patterns: NaN cannot come from JSON, and -0.0 must stay -0.0.
    RequireSame(std::memcmp(&x.cycles_per_packet, &y.cycles_per_packet, sizeof(double)) == 0, reads,
                "a slice's floating-point args");
    RequireSame(a.Str(x.htp_op_type) == b.Str(y.htp_op_type) &&
                    a.Str(x.qnn_op_name) == b.Str(y.qnn_op_name) &&
                    a.Str(x.qnn_op_type) == b.Str(y.qnn_op_type) &&
                    a.Str(x.data_type) == b.Str(y.data_type) &&
                    a.Str(x.description) == b.Str(y.description),
                reads, "a slice's strings");
    RequireSame(x.dims_count == y.dims_count && x.inputs_count == y.inputs_count, reads,
                "list sizes");
    for (uint32_t k = 0; k < x.dims_count; ++k)
      RequireSame(a.dims[x.dims_begin + k] == b.dims[y.dims_begin + k], reads, "a dimension");
    for (uint32_t k = 0; k < x.inputs_count; ++k)
      RequireSame(a.input_ids[x.inputs_begin + k] == b.input_ids[y.inputs_begin + k], reads,
                  "an input");
  }
  RequireSame(a.flows.size() == b.flows.size(), reads, "flows");
  for (size_t i = 0; i < a.flows.size(); ++i)
    RequireSame(a.flows[i].flow_id == b.flows[i].flow_id &&
                    a.flows[i].ts_cycles == b.flows[i].ts_cycles &&
                    a.flows[i].pid == b.flows[i].pid && a.flows[i].tid == b.flows[i].tid &&
                    a.flows[i].is_start == b.flows[i].is_start &&
                    a.Str(a.flows[i].category) == b.Str(b.flows[i].category),
                reads, "a flow");
  RequireSame(a.processes.size() == b.processes.size(), reads, "processes");
  for (size_t i = 0; i < a.processes.size(); ++i) {
    const TraceProcess& x = a.processes[i];
    const TraceProcess& y = b.processes[i];
    RequireSame(x.pid == y.pid && a.Str(x.name) == b.Str(y.name) && x.has_name == y.has_name &&
                    x.has_op_id == y.has_op_id && x.qnn_op_id == y.qnn_op_id &&
                    x.has_sort_index == y.has_sort_index && x.sort_index == y.sort_index,
                reads, "a process");
  }
  RequireSame(a.threads.size() == b.threads.size(), reads, "threads");
  for (size_t i = 0; i < a.threads.size(); ++i)
    RequireSame(a.threads[i].pid == b.threads[i].pid && a.threads[i].tid == b.threads[i].tid &&
                    a.Str(a.threads[i].name) == b.Str(b.threads[i].name),
                reads, "a thread");
  RequireSame(a.counters.size() == b.counters.size(), reads, "counter tracks");
  for (const auto& [name, samples] : a.counters) {
    auto it = b.counters.find(name);
    RequireSame(it != b.counters.end() && it->second.size() == samples.size(), reads, "a track");
    for (size_t i = 0; i < samples.size(); ++i)
      RequireSame(samples[i].ts_cycles == it->second[i].ts_cycles &&
                      samples[i].value == it->second[i].value,
                  reads, "a counter sample");
  }
}

}  // namespace htpscope::fuzz

// Test helper: two reads of the same optrace (whole and streamed, matched
// and general path) must give the same slices, field by field.
#pragma once

#include <gtest/gtest.h>

#include <cmath>

#include "formats/optrace.h"

namespace htpscope::testing_support {

inline void ExpectSameSlices(const Optrace& a, const Optrace& b) {
  ASSERT_EQ(a.slices.size(), b.slices.size());
  ASSERT_EQ(a.slice_args.size(), a.slices.size());
  ASSERT_EQ(b.slice_args.size(), b.slices.size());
  for (size_t i = 0; i < a.slices.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "slice " << i);
    EXPECT_EQ(a.slices[i].op_id, b.slices[i].op_id);
    EXPECT_EQ(a.slices[i].start_cycles, b.slices[i].start_cycles);
    EXPECT_EQ(a.slices[i].dur_cycles, b.slices[i].dur_cycles);
    EXPECT_EQ(a.slices[i].tid, b.slices[i].tid);
    EXPECT_EQ(a.slices[i].flags, b.slices[i].flags);
    const OpSliceArgs& x = a.slice_args[i];
    const OpSliceArgs& y = b.slice_args[i];
    EXPECT_EQ(x.op_start_cycles, y.op_start_cycles);
    EXPECT_EQ(x.op_duration_cycles, y.op_duration_cycles);
    EXPECT_EQ(x.dpc_cycles, y.dpc_cycles);
    EXPECT_EQ(std::signbit(x.cycles_per_packet), std::signbit(y.cycles_per_packet));
    EXPECT_EQ(x.cycles_per_packet, y.cycles_per_packet);
    EXPECT_EQ(a.Str(x.htp_op_type), b.Str(y.htp_op_type));
    EXPECT_EQ(a.Str(x.description), b.Str(y.description));
    EXPECT_EQ(a.Str(x.qnn_op_name), b.Str(y.qnn_op_name));
    EXPECT_EQ(a.Str(x.qnn_op_type), b.Str(y.qnn_op_type));
    EXPECT_EQ(a.Str(x.data_type), b.Str(y.data_type));
    ASSERT_EQ(x.dims_count, y.dims_count);
    for (uint32_t k = 0; k < x.dims_count; ++k)
      EXPECT_EQ(a.dims[x.dims_begin + k], b.dims[y.dims_begin + k]);
    ASSERT_EQ(x.inputs_count, y.inputs_count);
    for (uint32_t k = 0; k < x.inputs_count; ++k)
      EXPECT_EQ(a.input_ids[x.inputs_begin + k], b.input_ids[y.inputs_begin + k]);
  }
}

// Everything a read of an optrace gives, compared: slices, flows, counter
// samples, threads, processes and warnings.
inline void ExpectSameTrace(const Optrace& a, const Optrace& b) {
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.events_read, b.events_read);
  EXPECT_EQ(a.origin_cycles, b.origin_cycles);
  EXPECT_EQ(a.duplicate_slices, b.duplicate_slices);
  ExpectSameSlices(a, b);
  EXPECT_EQ(a.non_executed.size(), b.non_executed.size());
  ASSERT_EQ(a.flows.size(), b.flows.size());
  for (size_t i = 0; i < a.flows.size(); ++i) {
    EXPECT_EQ(a.flows[i].flow_id, b.flows[i].flow_id) << "flow " << i;
    EXPECT_EQ(a.flows[i].ts_cycles, b.flows[i].ts_cycles) << "flow " << i;
    EXPECT_EQ(a.flows[i].is_start, b.flows[i].is_start) << "flow " << i;
  }
  ASSERT_EQ(a.counters.size(), b.counters.size());
  for (const auto& [name, samples] : a.counters) {
    const auto& other = b.counters.at(name);
    ASSERT_EQ(samples.size(), other.size()) << name;
    for (size_t i = 0; i < samples.size(); ++i) {
      EXPECT_EQ(samples[i].ts_cycles, other[i].ts_cycles);
      EXPECT_EQ(samples[i].value, other[i].value);
    }
  }
  ASSERT_EQ(a.threads.size(), b.threads.size());
  for (size_t i = 0; i < a.threads.size(); ++i) {
    EXPECT_EQ(a.threads[i].pid, b.threads[i].pid);
    EXPECT_EQ(a.threads[i].tid, b.threads[i].tid);
    EXPECT_EQ(a.Str(a.threads[i].name), b.Str(b.threads[i].name));
  }
  ASSERT_EQ(a.processes.size(), b.processes.size());
  for (size_t i = 0; i < a.processes.size(); ++i) {
    EXPECT_EQ(a.processes[i].pid, b.processes[i].pid);
    EXPECT_EQ(a.Str(a.processes[i].name), b.Str(b.processes[i].name));
    EXPECT_EQ(a.processes[i].qnn_op_id, b.processes[i].qnn_op_id);
    EXPECT_EQ(a.processes[i].sort_index, b.processes[i].sort_index);
  }
  EXPECT_EQ(a.warnings, b.warnings);
}

}  // namespace htpscope::testing_support

// Reader for the QHAS analysis summary JSON
// (`*_qnn_htp_analysis_summary.json`, artifact_type QHAS).
//
// QHAS is derived by the viewer from the first (cold) execution's optrace.
// Its op ids are unpadded hex ("0x13") and are stored as integers.  Units:
// *_cycle / *cycles fields are HTP cycles, dram_* / vtcm_* are bytes,
// time_us / graph_execute_us are µs, utilization / percent_* are percent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_pool.h"
#include "formats/streamed_read_options.h"

namespace htpscope {

struct QhasResource {
  std::string type;  // "HMX" | "HVX" (| "UNK" in defective files)
  uint32_t tid = 0;
  int64_t start_cycle = 0, end_cycle = 0, timeline_cycles = 0, cycles_used = 0;
  double utilization_pct = 0;
  int64_t dram_read_bytes = 0, dram_write_bytes = 0, vtcm_read_bytes = 0, vtcm_write_bytes = 0;
};

struct QhasOverall {
  int64_t htp = 0;
  std::vector<QhasResource> resources;
  double percent_idle = 0, percent_utilization = 0;
  double time_us = 0, graph_execute_us = 0, inf_per_s = 0;
  int64_t timeline_cycles = 0;
  int64_t total_dram_read_bytes = 0, total_dram_write_bytes = 0, total_dram_bytes = 0;
  int64_t total_vtcm_read_bytes = 0, total_vtcm_write_bytes = 0, total_vtcm_bytes = 0;
  int64_t peak_vtcm_alloc_bytes = 0;
  int64_t unique_qnn_ops = 0, qnn_nodes = 0, unique_htp_ops = 0, htp_nodes = 0;
};

// What the big sections' rows hold apart from their fixed-size fields:
// their texts, each distinct text once (a file repeats a few op types and
// each op's name over hundreds of thousands of rows), and each op instance's
// dims and input IDs, one flat array each, so that reading a row allocates
// nothing of its own.
struct QhasRowStore {
  StringPool texts;
  std::vector<int64_t> dims;
  std::vector<uint64_t> input_ids;
};

// A row of qnn_op_types, qnn_op_instances_nodes or htp_op_types.
struct QhasOpAggregate {
  StringId name = StringPool::kEmpty;         // "op" or "qnn_op", in QhasRowStore::texts
  StringId qnn_op_type = StringPool::kEmpty;  // qnn_op_instances_nodes only
  int64_t cycles = 0;                         // thread-aggregate work
  double percent_active_cycles = 0;
  int64_t dominant_path_cycles = 0;
  double percent_dominant_path = 0;
  int64_t count = 0;  // num_htp_ops or instances
  int64_t dram_read_bytes = 0, dram_write_bytes = 0, vtcm_read_bytes = 0, vtcm_write_bytes = 0;
  bool format_change = false, reference_op = false;
};

struct QhasOpInstance {
  int64_t htp = 0;
  uint32_t tid = 0;
  uint64_t op_id = 0;
  // In QhasRowStore::texts.
  StringId htp_op = StringPool::kEmpty, qnn_op = StringPool::kEmpty,
           qnn_op_type = StringPool::kEmpty, dtype = StringPool::kEmpty;
  int64_t rank = 0;
  double step_size = 0;
  int64_t zero_offset = 0;
  // dims and input_nodes: [begin, begin + count) of QhasRowStore::dims and
  // ::input_ids.
  uint32_t dims_begin = 0, dims_count = 0;
  uint32_t inputs_begin = 0, inputs_count = 0;
  int64_t start_cycle = 0, cycles = 0, dominant_path_cycles = 0;
  double percent_dominant_path = 0, cycles_per_packet = 0;
  bool fmt_change = false, ref_op = false, hmx = false, hvx = false, dma_wait = false,
       dma_set = false, dma = false, sync = false;
  int64_t dram_read_bytes = 0, dram_write_bytes = 0, vtcm_read_bytes = 0, vtcm_write_bytes = 0;
};

struct QhasPathSegment {
  uint64_t op_id = 0;
  StringId htp_op = StringPool::kEmpty, qnn_op = StringPool::kEmpty;  // in QhasRowStore::texts
  int64_t start_cycle = 0, end_cycle = 0;
  int64_t dp_cycles = 0;  // end - start: this segment's share of the critical path
  int64_t cycles = 0;     // the whole op's cycles
  bool partial = false;
  bool idle = false;  // htp_op is "Accumulated Idle": time the path waited, not an op
  bool is_idle() const { return idle; }
};

struct Qhas {
  std::string path;
  std::string version;
  std::string model_id;
  std::vector<QhasOverall> overall;  // one row per HTP core
  std::vector<QhasOpAggregate> qnn_op_types, qnn_op_instances, htp_op_types;
  std::vector<QhasOpInstance> htp_op_instances;
  std::map<int, std::vector<QhasPathSegment>> dominant_path;  // by core: dominant_path_htp_<N>
  std::vector<std::string> sections;                          // section names in file order
  QhasRowStore store;  // the texts, dims and input IDs of the rows above
  std::vector<std::string> warnings;
  uint64_t chunks_parsed = 0;  // chunks of rows parsed in parallel; 0 when parsed whole

  std::string_view Text(StringId id) const { return store.texts.View(id); }
  std::span<const int64_t> DimsOf(const QhasOpInstance& row) const {
    return std::span(store.dims).subspan(row.dims_begin, row.dims_count);
  }
  std::span<const uint64_t> InputIdsOf(const QhasOpInstance& row) const {
    return std::span(store.input_ids).subspan(row.inputs_begin, row.inputs_count);
  }
};

// Reads a QHAS file (plain or gzip).  The rows of the big sections
// (htp_op_instances, qnn_op_instances_nodes, the op types, the dominant
// paths) are streamed in chunks parsed on `options.threads` threads, so
// memory grows with the rows kept, not with the file; a malformed file is
// parsed whole, so results and errors never depend on the chunking.  Throws
// InputError with the file name and byte offset on bad input.
Qhas ReadQhas(const std::string& path, const StreamedReadOptions& options = {});
Qhas ParseQhas(const std::string& path, std::string_view json);

}  // namespace htpscope

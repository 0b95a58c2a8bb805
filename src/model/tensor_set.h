// Tensor sets for the numerics comparison, whatever artifact they come from:
// a directory of .npy files, a JSON manifest describing raw dumps (as
// qnn-net-run writes them) and/or .npy files, one .npy file, or an
// ExecuTorch ETDump with its debug buffer.  Formats are documented in
// docs/numerics.md.
//
// Loading validates everything that can be checked without reading the
// elements (dtypes, layouts against ranks, quantization against the axis,
// every tensor's bytes against its file); elements are read later, in
// blocks, through TensorReader.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/tensor_types.h"

namespace htpscope {

class TensorFileReader;
struct HtpGraph;

struct TensorEntry {
  std::string name;  // manifest name, .npy file name without extension, or ETDump event name
  TensorData data;   // file, first byte, dtype, byte order, shape, strides
  TensorLayout layout = TensorLayout::kUnstated;
  std::string layout_name;  // as written ("NHWC"); "" when unstated
  std::optional<Quantization> quantization;
  std::optional<int64_t> debug_handle;  // from the manifest or the ETDump
  std::optional<int64_t> output_index;  // from the manifest or the ETDump
  std::vector<std::string> ops;         // op names the tensor belongs to
};

// What a tensor set was read from; decides whether its order is execution order.
enum class TensorSetSource {
  kNpyDirectory,  // file names in natural order: not execution order
  kNpyFile,
  kManifest,  // manifest order, taken as execution order
  kEtdump,    // debug events in the order the runtime logged them
};

struct TensorSet {
  std::string origin;         // the directory, manifest or ETDump given, for messages
  std::string manifest_path;  // the manifest read, "" otherwise
  TensorSetSource source = TensorSetSource::kNpyDirectory;
  // Manifest or ETDump order, else file names in natural order ("t2" < "t10").
  std::vector<TensorEntry> tensors;
  // Notes on what was left out (e.g. ETDump debug values that are not tensors).
  std::vector<std::string> notes;
  bool ordered() const {
    return source == TensorSetSource::kManifest || source == TensorSetSource::kEtdump;
  }
};

// What the tensor set at `path` would be read from, without a manifest
// option: a directory holding manifest.json (kManifest), any other directory
// (kNpyDirectory), an ExecuTorch ETDump (by content), a .json file
// (kManifest) or a .npy file; nullopt when it does not exist or is none of
// these.  Throws InputError only when a file cannot be opened.
std::optional<TensorSetSource> TensorSetSourceOf(const std::string& path);
// "directory of .npy files", ".npy file", "manifest", "ExecuTorch ETDump".
const char* TensorSetSourceName(TensorSetSource source);

// Loads the tensor set at `path`:
//  * a directory with `manifest_override` given: that manifest, with file
//    paths relative to `path`;
//  * else as TensorSetSourceOf recognises it:
//    * an ExecuTorch ETDump: its debug events' tensors, whose elements are
//      in `debug_buffer` (required; see LoadEtdumpTensorSet);
//    * a directory holding manifest.json: that manifest;
//    * any other directory: its *.npy files (not recursive); .raw files
//      without a manifest are an error, since their dtype and shape are
//      unknown;
//    * a .json file: a manifest, files relative to its directory;
//    * a .npy file: a set of that one tensor.
// Throws InputError naming the file (and tensor) for every problem; an
// InputNeedsValueError (kEtdumpDebugBuffer) for an ETDump without `debug_buffer`.
TensorSet LoadTensorSet(const std::string& path, const std::string& manifest_override = "",
                        const std::string& debug_buffer = "");

// The tensors the debug events of `etdump_path` logged, with their elements
// in `debug_buffer_path`.  Debug events of the first run-data block that has
// any are taken (the others are named in `notes`).  A tensor's debug handle
// is the event's delegate_debug_id_int when set (≥ 0); a TensorList gives
// outputs 0..n-1 of its handle, and further events with the same handle
// continue the numbering, so several outputs of one handle stay apart.
// Events without an integer id are paired by name (delegate_debug_id_str,
// else the event name, else "instruction_<id>").  Non-tensor values (ints,
// floats, bools) are skipped and counted in `notes`.  Throws an
// InputNeedsValueError (kEtdumpDebugBuffer) when `debug_buffer_path` is "",
// before reading the ETDump (whose kind its caller recognised); InputError
// naming the ETDump and the byte offset of the tensor's table when its scalar
// type has no numeric decoding (bits16, packed 4/2-bit types), its strides
// do not fit its sizes, or its bytes lie outside the debug buffer.
TensorSet LoadEtdumpTensorSet(const std::string& etdump_path, const std::string& debug_buffer_path);

// Reads one tensor's elements as doubles, in C order of its logical shape
// (strides honoured), in blocks.  Movable, not copyable.
class TensorReader {
 public:
  // Opens the tensor's file.  Throws InputError naming the file and tensor
  // when it cannot be opened or does not hold the tensor's bytes.
  explicit TensorReader(const TensorEntry& tensor);
  ~TensorReader();
  TensorReader(TensorReader&&) noexcept;
  TensorReader& operator=(TensorReader&&) noexcept;

  // Elements [first_element, first_element + count) into `out`, using
  // `scratch` for raw bytes.  Safe from several threads with distinct
  // scratch buffers.  Throws InputError if the file shrank or on I/O errors.
  void Read(uint64_t first_element, size_t count, double* out, std::vector<char>& scratch) const;
  uint64_t element_count() const;

 private:
  std::unique_ptr<TensorFileReader> file_;
};

// QNN op names of the compiled graph in execution order: nodes sorted by
// their cycles_start (profiled graphs), else by output tensor index; each
// op name (node grouping, else qnn_op_name) once, at its first node.
std::vector<std::string> ExecutionOrderOps(const HtpGraph& graph);
// The same for the HTP graph JSON (chrometrace_htp.json) at `htp_graph_path`.
// Throws InputError when it cannot be read.
std::vector<std::string> ExecutionOrderOps(const std::string& htp_graph_path);

}  // namespace htpscope

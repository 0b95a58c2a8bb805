// Tensor sets for numerics comparison: a directory of .npy files, or a JSON
// manifest describing raw dumps (as qnn-net-run writes them) and/or .npy
// files.  The manifest format is documented in docs/numerics.md:
//
//   {"version": 1,
//    "tensors": [{"name": "conv_0__debugID_3", "file": "conv_0__debugID_3.raw",
//                 "dtype": "uint8", "shape": [1, 8, 8, 16], "layout": "NHWC",
//                 "quantization": {"scale": 0.02, "offset": 128},
//                 "debug_handle": 3, "output_index": 0, "ops": ["conv_0"]}]}
//
// Loading validates everything that can be checked without reading the
// elements: JSON syntax and fields, dtype names, layouts against ranks,
// quantization against the quantized axis, .npy headers, and every file's
// length against dtype × shape.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/npy.h"

namespace htpscope {

// Memory order of a tensor's axes, as far as layout conversion cares.
enum class TensorLayout {
  kUnstated,       // the source says nothing (a .npy file, or no "layout" key)
  kNone,           // stated as "none"/null: never converted
  kChannelsFirst,  // NCHW (also NCW, NCDHW)
  kChannelsLast,   // NHWC (also NWC, NDHWC)
};

// Parses "NHWC", "NCHW", "NWC", "NCW", "NDHWC", "NCDHW" or "none" (case-sensitive).
std::optional<TensorLayout> ParseTensorLayout(std::string_view name);

// Affine quantization: real = (stored - offset) × scale.  `offset` is the
// zero point (QNN's own "offset" field is its negation; the manifest key
// "qnn_offset" takes that convention).  Per-tensor when `axis` is empty
// (one scale and one offset), else one scale/offset per index along `axis`.
struct Quantization {
  std::vector<double> scale;
  std::vector<double> offset;
  std::optional<int> axis;
};

struct TensorEntry {
  std::string name;     // manifest name, or the .npy file name without extension
  TensorData data;      // file, header size, dtype, byte order, shape
  bool is_npy = false;  // the file is an .npy file (else a raw dump)
  TensorLayout layout = TensorLayout::kUnstated;
  std::string layout_name;  // as written ("NHWC"); "" when unstated
  std::optional<Quantization> quantization;
  std::optional<int64_t> debug_handle;  // from the manifest only
  std::optional<int64_t> output_index;  // from the manifest only
  std::vector<std::string> ops;         // op names the tensor belongs to
};

struct TensorSet {
  std::string origin;         // the directory or manifest given, for messages
  std::string manifest_path;  // "" for a scanned directory of .npy files
  // Manifest order, which is execution order when the manifest writer knew
  // it; for a scanned directory, file names in natural order ("t2" < "t10").
  std::vector<TensorEntry> tensors;
  bool ordered() const { return !manifest_path.empty(); }
};

// Loads the tensor set at `path`:
//  * a directory with `manifest_override` given: that manifest, with file
//    paths relative to `path`;
//  * a directory holding manifest.json: that manifest;
//  * any other directory: its *.npy files (not recursive); .raw files
//    without a manifest are an error, since their dtype and shape are unknown;
//  * a .json file: a manifest, files relative to its directory;
//  * a .npy file: a set of that one tensor.
// Throws InputError naming the file (and tensor) for every problem.
TensorSet LoadTensorSet(const std::string& path, const std::string& manifest_override = "");

// Parses manifest JSON read from `manifest_path` and checks each tensor's
// file, resolving relative "file" paths against `data_dir`.
TensorSet ParseTensorManifest(const std::string& manifest_path, const simdjson::padded_string& json,
                              const std::string& data_dir);

// Orders strings with digit runs compared as numbers: "t2" < "t10".
bool NaturalLess(std::string_view a, std::string_view b);

}  // namespace htpscope

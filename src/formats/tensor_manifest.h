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

#include "base/tensor_types.h"
#include "formats/npy.h"

namespace htpscope {

// One tensor as a manifest (or a lone .npy file) describes it.
struct ManifestTensor {
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

// Parses manifest JSON read from `manifest_path` and checks each tensor's
// file, resolving relative "file" paths against `data_dir`.  Tensors are in
// manifest order.  Throws InputError naming the manifest (and byte offset)
// or the tensor file for every problem.
std::vector<ManifestTensor> ParseTensorManifest(const std::string& manifest_path,
                                                const simdjson::padded_string& json,
                                                const std::string& data_dir);

// Reads the manifest at `manifest_path` and parses it (see ParseTensorManifest).
std::vector<ManifestTensor> ReadTensorManifest(const std::string& manifest_path,
                                               const std::string& data_dir);

// The .npy file at `path` as a tensor named after the file (without its
// extension); its header is parsed and its length checked.
ManifestTensor ReadNpyTensor(const std::string& path);

}  // namespace htpscope

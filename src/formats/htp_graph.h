// Reader for the compiled HTP graph `chrometrace_htp.json` (artifact_type
// HTP_GRAPH): nodes (HTP ops, grouped by QNN op) and tensors.
//
// Node and tensor keys are the same 16-digit hex IDs as the optrace's
// args.ID; they are stored as integers.  A node's id equals its output
// tensor's id, so "input tensor id is a node" is a node->node edge.
#pragma once

#include <absl/container/btree_map.h>
#include <absl/container/flat_hash_map.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "formats/streamed_read_options.h"

namespace htpscope {

// The texts of scalar_params keys and string values, shared by the nodes
// read together: a graph has a dozen keys and few distinct values, so each
// node holds pointers into this pool instead of copies.  Addresses are
// stable; not thread-safe (each reader thread pools its own chunk).
class ParamTexts {
 public:
  // The pooled copy of `text`.
  const std::string* Intern(std::string_view text);

 private:
  std::deque<std::string> texts_;
  absl::flat_hash_map<std::string_view, const std::string*> index_;
};

// A scalar_params value, written as a one-member object keyed by a numeric
// QNN data-type code, e.g. {"100": 1668827862868}.  The code is kept, but the
// value's type comes from the JSON itself (cycles_per_packet has code 100 =
// INT_64 yet a fractional value in real files).  A string value points into
// its node's ParamTexts.
struct ScalarParam {
  int type_code = 0;
  std::variant<int64_t, double, const std::string*, bool> value;

  // An integer, boolean (0/1) or integral number (1.5e3, 42.0) as int64_t;
  // nullopt for a fraction, a string or a number beyond ±9e18.
  std::optional<int64_t> AsInt() const;
  std::optional<double> AsDouble() const;
  const std::string* AsString() const;
};

// A node's scalar_params, key to value in key order, with std::map's
// lookups; stored flat (a node has about fourteen), keys and string values
// pooled in a ParamTexts the container keeps alive.
class ScalarParams {
 public:
  using value_type = std::pair<std::string_view, ScalarParam>;
  using iterator = std::vector<value_type>::iterator;
  using const_iterator = std::vector<value_type>::const_iterator;

  ScalarParams() = default;
  explicit ScalarParams(std::shared_ptr<ParamTexts> texts) : texts_(std::move(texts)) {}

  iterator begin() { return entries_.begin(); }
  iterator end() { return entries_.end(); }
  const_iterator begin() const { return entries_.begin(); }
  const_iterator end() const { return entries_.end(); }
  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void clear() { entries_.clear(); }
  void reserve(size_t n) { entries_.reserve(n); }

  iterator find(std::string_view key);
  const_iterator find(std::string_view key) const;
  size_t count(std::string_view key) const { return find(key) != end() ? 1 : 0; }
  // Throws std::out_of_range when `key` is absent.
  const ScalarParam& at(std::string_view key) const;
  // The value of `key`, added (an integer 0) when absent.
  ScalarParam& operator[](std::string_view key);
  // Sets `key` to the string `text` with data-type code `type_code`.
  void SetString(std::string_view key, int type_code, std::string_view text);

 private:
  ParamTexts& texts();

  std::shared_ptr<ParamTexts> texts_;
  std::vector<value_type> entries_;  // by key
};

struct HtpNode {
  uint64_t id = 0;
  std::string type;      // HTP op type
  std::string grouping;  // QNN op name
  ScalarParams scalar_params;
  std::vector<uint64_t> input_ids;
  std::vector<uint64_t> output_ids;

  std::optional<int64_t> IntParam(const std::string& key) const;
};

struct HtpTensor {
  uint64_t id = 0;
  int64_t index = 0;  // "id" field: 0..N-1
  int type = 0;       // Qnn_TensorType_t: 3 NATIVE, 4 STATIC (inferred)
  int data_type = 0;  // Qnn_DataType_t code
  std::vector<int64_t> dims;
  bool is_static() const { return type == 4; }
};

struct HtpGraph {
  std::string path;
  std::string version;
  absl::btree_map<uint64_t, HtpNode> nodes;
  absl::btree_map<uint64_t, HtpTensor> tensors;
  std::vector<std::string> op_types;
  uint64_t chunks_parsed = 0;  // chunks of nodes or tensors parsed in parallel; 0 when parsed whole
};

// threads and chunk_bytes: of the members of graph.nodes and graph.tensors.
struct ReadHtpGraphOptions : StreamedReadOptions {
  // The scalar_params keys each node keeps; empty keeps them all.  Every
  // param is checked either way (a malformed one is the same error): a
  // reader that needs a few of a node's ~14 params skips storing the rest,
  // which took 40 % of the reading time.
  std::vector<std::string> kept_params;
};

// Reads an HTP_GRAPH file (plain or gzip).  The members of graph.nodes and
// graph.tensors are streamed in chunks parsed on every core; a malformed
// file is parsed whole, so results and errors never depend on the chunking.
// Throws InputError with the file name and byte offset on bad input.
HtpGraph ReadHtpGraph(const std::string& path, const ReadHtpGraphOptions& options = {});
HtpGraph ParseHtpGraph(const std::string& path, std::string_view json);

}  // namespace htpscope

// bench_read: one artifact read by its htpscope reader alone, for timing a
// reader without the analyses and reports after it.
//
//   bench_read optrace|qhas|htp_graph|runtrace|profile_text FILE [THREADS]
//
// Prints one JSON object: the reader, the seconds it took (read and parse,
// in this process), the chunks it parsed in parallel (0: parsed whole) and
// counts of what it read, so that runs can be checked against each other.
// Exit status 2 on bad input.
#include <fmt/format.h>

#include <chrono>
#include <exception>
#include <string>

#include "base/errors.h"
#include "formats/htp_graph.h"
#include "formats/optrace.h"
#include "formats/profile_text.h"
#include "formats/qhas.h"
#include "formats/runtrace.h"

int main(int argc, char** argv) {
  using namespace htpscope;
  if (argc != 3 && argc != 4) {
    fmt::print(stderr,
               "usage: bench_read optrace|qhas|htp_graph|runtrace|profile_text FILE [THREADS]\n");
    return 2;
  }
  const std::string kind = argv[1], path = argv[2];
  const unsigned threads =
      argc == 4 ? static_cast<unsigned>(std::stoul(argv[3])) : 0;  // 0: all cores
  const auto start = std::chrono::steady_clock::now();
  std::string counts;
  uint64_t chunks = 0;
  try {
    if (kind == "optrace") {
      ReadOptraceOptions options;
      options.threads = threads;
      const Optrace t = ReadOptrace(path, options);
      chunks = t.chunks_parsed;
      counts = fmt::format("\"events\": {}, \"slices\": {}, \"flows\": {}", t.events_read,
                           t.slices.size(), t.flows.size());
    } else if (kind == "qhas") {
      StreamedReadOptions qhas_options;
      qhas_options.threads = threads;
      const Qhas q = ReadQhas(path, qhas_options);
      chunks = q.chunks_parsed;
      size_t path_rows = 0;
      for (const auto& [core, rows] : q.dominant_path) path_rows += rows.size();
      counts = fmt::format(
          "\"htp_op_instances\": {}, \"qnn_op_instances\": {}, \"dominant_path_rows\": {}",
          q.htp_op_instances.size(), q.qnn_op_instances.size(), path_rows);
    } else if (kind == "htp_graph") {
      ReadHtpGraphOptions graph_options;
      graph_options.threads = threads;
      const HtpGraph g = ReadHtpGraph(path, graph_options);
      chunks = g.chunks_parsed;
      size_t params = 0;
      for (const auto& [id, node] : g.nodes) params += node.scalar_params.size();
      counts = fmt::format("\"nodes\": {}, \"tensors\": {}, \"scalar_params\": {}", g.nodes.size(),
                           g.tensors.size(), params);
    } else if (kind == "runtrace") {
      const Runtrace r = ReadRuntrace(path);
      chunks = r.chunks_parsed;
      counts = fmt::format("\"executions\": {}", r.executions.size());
    } else if (kind == "profile_text") {
      const ProfileReport p = ReadProfileText(path);
      size_t nodes = 0;
      for (const auto& b : p.raw) nodes += b.nodes.size();
      for (const auto& b : p.statistics) nodes += b.nodes.size();
      counts =
          fmt::format("\"blocks\": {}, \"nodes\": {}", p.raw.size() + p.statistics.size(), nodes);
    } else {
      fmt::print(stderr, "bench_read: unknown reader \"{}\"\n", kind);
      return 2;
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench_read: {}\n", e.what());
    return 2;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("{{\"reader\": \"{}\", \"seconds\": {:.4f}, \"chunks_parsed\": {}, {}}}\n", kind,
             seconds, chunks, counts);
  return 0;
}

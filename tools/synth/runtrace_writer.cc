// The runtrace (chrometrace_runtrace.json): per execution the four phases
// as X events on pid 0 tid 0 (ts/dur in 19.2 MHz ticks since the first
// event), then the thread/process name pair, repeated after every execution
// as the viewer does.  summary_* args are derived from the phase's own ticks
// and cycles and printed like C's %g.
#include <fmt/format.h>

#include "writers.h"

namespace htpscope::synth {

void WriteRuntrace(const Model& m, OutputFile& out) {
  out.Write(
      "{\n  \"header\": {\n    \"header_version\": {\n      \"major\": 1,\n      \"minor\": 0,\n"
      "      \"patch\": 0\n    },\n    \"version\": {\n      \"major\": 1,\n      \"minor\": 1,\n"
      "      \"patch\": 0\n    },\n    \"artifact_type\": \"RUN_TRACE\"\n  },\n\"traceEvents\": "
      "[\n");
  const int64_t first_tick = m.executions.front().phases[0].start_ticks;
  bool first = true;
  for (const auto& x : m.executions) {
    for (const Phase& p : x.phases) {
      const double us = static_cast<double>(p.ticks()) / kTicksPerUs;
      out.Print(
          "{}{{ \"name\": \"{}\", \"ph\": \"X\", \"tid\": 0, \"pid\": 0, \"ts\": {}, \"dur\": {}, "
          "\"args\": {{\"graph_name\": \"{}\", \"stat_start_ticks\": {}, \"stat_end_ticks\": {}, "
          "\"stat_start_cycles\": {}, \"stat_end_cycles\": {}, \"summary_htp_frequency_ghz\": {}, "
          "\"summary_inf/s\": {}, \"summary_time_us\": {}}} }}",
          first ? "" : ",\n", p.name, p.start_ticks - first_tick, p.ticks(), m.options.graph_name,
          p.start_ticks, p.end_ticks, p.start_cycles, p.end_cycles, FormatG(p.effective_ghz()),
          FormatG(1e6 / us), FormatG(us));
      first = false;
    }
    out.Print(
        ",\n{{ \"cat\": \"__metadata\", \"pid\": 0, \"tid\": 0, \"ph\": \"M\", \"name\": "
        "\"thread_name\", \"args\": {{\"name\": \"Core 0 Execs\"}}}},\n"
        "{{ \"cat\": \"__metadata\", \"pid\": 0, \"ph\": \"M\", \"name\": \"process_name\", "
        "\"args\": {{\"name\": \"{} Runtraces\"}}}}",
        m.options.graph_name);
  }
  out.Write("\n]}\n");
}

}  // namespace htpscope::synth

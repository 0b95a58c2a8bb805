// The qnn-net-run binary profiling log (qnn_profile_log.h,
// qnn_profile_log.fbs, docs/profile-readers.md "The binary log").
//
// How a log becomes the viewer's rows (checked row by row against the CSV
// qnn-profile-viewer 2.47 printed from each log of ../shared/corpus/qnn_net_run_2.47):
//  * phases are printed INIT, COMPOSE GRAPHS, FINALIZE, DE-INIT, EXECUTE...,
//    EXECUTE IPS (log order within a kind); every row of a phase carries the
//    phase's stamp as its Msg Timestamp and its kind as its Message;
//  * a phase other than EXECUTE IPS opens with a NETRUN ROOT row: Time =
//    interval end - start (µs), identifier "Graph N: NAME" when the phase
//    names a graph, else "null"; INIT's Time is the sum of the INIT, COMPOSE
//    GRAPHS and FINALIZE spans (the viewer's INIT covers all three: exact on
//    both corpus logs);
//  * then each event as a BACKEND row (Time = value, unit as the viewer
//    names it), ROOT for the phase's events, SUB-EVENT for theirs, ... ,
//    each followed by its sub-events (depth first);
//  * EXECUTE IPS prints one NETRUN row, INF/SEC: numInferences * 1e6 /
//    duration (µs), computed in single precision and printed with 6
//    decimals as the viewer does; its two events are not printed.
#include "formats/qnn_profile_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>

#include "base/errors.h"
#include "base/text_util.h"
#include "formats/byte_source.h"

#if HTPSCOPE_HAVE_QNN_LOG
#include <flatbuffers/flatbuffers.h>

#include "qnn_profile_log_generated.h"
#endif

namespace htpscope {
namespace {

constexpr size_t kSizePrefixBytes = 4;

// A CSV field holding `text` as the CSV reader reads it back.
std::string CsvField(std::string_view text) {
  bool plain = text.find_first_of("\"\r\n") == std::string_view::npos && Trim(text) == text;
  if (plain) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string LevelName(int depth) {
  if (depth == 0) return "ROOT";
  std::string out;
  for (int i = 0; i < depth; ++i) out += "SUB-";
  return out + "EVENT";
}

#if HTPSCOPE_HAVE_QNN_LOG

// A phase kind the reader knows: its Message and where the viewer prints it.
struct PhaseKind {
  uint8_t code;
  std::string_view message;
  int rank;  // print order
};
constexpr std::array<PhaseKind, 6> kPhaseKinds = {{{6, "INIT", 0},
                                                   {7, "COMPOSE GRAPHS", 1},
                                                   {2, "FINALIZE", 2},
                                                   {5, "DE-INIT", 3},
                                                   {1, "EXECUTE", 4},
                                                   {8, "EXECUTE IPS", 5}}};
constexpr uint8_t kInitKind = 6, kIpsKind = 8;
// INIT, COMPOSE GRAPHS and FINALIZE: the phases the viewer's INIT row spans.
constexpr int kLastSetUpRank = 2;

const PhaseKind* FindPhaseKind(uint8_t code) {
  for (const PhaseKind& k : kPhaseKinds)
    if (k.code == code) return &k;
  return nullptr;
}

// QNN_PROFILE_EVENTUNIT_* as the viewer's CSV names them (1..4; OBJECT and
// backend units have never been seen in a log).
std::optional<std::string_view> UnitName(uint32_t unit) {
  switch (unit) {
    case 1:
      return "US";
    case 2:
      return "BYTES";
    case 3:
      return "CYCLES";
    case 4:
      return "COUNT";
    default:
      return std::nullopt;
  }
}

namespace fb = ::flatbuffers;
using qnnlog::Event;
using qnnlog::Header;
using qnnlog::Interval;
using qnnlog::Log;
using qnnlog::Phase;
using qnnlog::Stamp;

constexpr uint32_t kMagic = 0x358637bd;
constexpr uint32_t kLayout = 116;

const fb::Table* AsTable(const void* t) { return reinterpret_cast<const fb::Table*>(t); }

class Decoder {
 public:
  // `buffer`: the `size` bytes after the log's size prefix (8-byte aligned),
  // of a file of `file_size` bytes.
  Decoder(const std::string& path, uint64_t file_size, const uint8_t* buffer, size_t size)
      : path_(path), file_size_(file_size), base_(buffer), size_(size) {}

  QnnLogContent Run() {
    {
      fb::Verifier verifier = MakeVerifier();
      if (!qnnlog::VerifyLogBuffer(verifier)) Locate();
    }
    const Log* log = qnnlog::GetLog(base_);
    KnownFields(log, 2, "the root table");
    const Header* header = log->header();
    if (!header)
      Fail(Offset(log), "the root table has no header: expected the log's header table first");
    KnownFields(header, 7, "the header");
    if (header->magic() != kMagic || header->layout() != kLayout)
      Fail(Offset(header),
           fmt::format("the header's magic {:#010x} and layout number {} are not the QAIRT 2.47 "
                       "log's ({:#010x}, {}): another version of the log, which this reader "
                       "does not know",
                       header->magic(), header->layout(), kMagic, kLayout));
    out_.application = Text(header->application());
    out_.application_version = Text(header->application_version());
    out_.backend_version = Text(header->backend_version());
    out_.epoch_us = header->epoch_us();
    out_.clock_us = header->clock_us();
    const auto* phases = log->phases();
    if (!phases || phases->size() == 0)
      Fail(Offset(log), "the log holds no phase records (INIT, FINALIZE, EXECUTE, ...)");
    // The viewer's order: by kind, log order within a kind.
    std::vector<std::pair<int, const Phase*>> order;
    for (const Phase* phase : *phases) {
      KnownFields(phase, 6, "a phase record");
      const PhaseKind* kind = FindPhaseKind(phase->kind());
      if (!kind)
        Fail(Offset(phase),
             fmt::format("phase kind {} is not one this reader knows (1 EXECUTE, 2 FINALIZE, 5 "
                         "DE-INIT, 6 INIT, 7 COMPOSE GRAPHS, 8 EXECUTE IPS)",
                         phase->kind()));
      order.emplace_back(kind->rank, phase);
    }
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [rank, phase] : order)
      if (rank <= kLastSetUpRank) set_up_us_ += Duration(phase, *FindPhaseKind(phase->kind()));
    for (const auto& [rank, phase] : order) AddPhase(phase);
    return std::move(out_);
  }

 private:
  [[noreturn]] void Fail(uint64_t offset, std::string problem) const {
    throw InputError(path_, std::move(problem), std::min<uint64_t>(offset, file_size_));
  }

  uint64_t Offset(const void* p) const {
    return kSizePrefixBytes + static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(p) - base_);
  }

  // Nesting as deep as FlatBuffers' default allows (real logs nest 3
  // tables deep), and as many tables as the buffer can hold (a table takes
  // at least 4 bytes), so that a big log is never refused for its size.
  fb::Verifier MakeVerifier() const {
    return fb::Verifier(base_, size_, /*max_depth=*/64,
                        static_cast<fb::uoffset_t>(std::max<size_t>(size_ / 4 + 1, 1000000)));
  }

  static std::string Text(const fb::String* s) { return s ? s->str() : std::string(); }

  // Refuses a table with a field beyond the `known` this layout has: a later
  // version that added one.
  void KnownFields(const void* table, int known, std::string_view what) const {
    const uint8_t* vtable = AsTable(table)->GetVTable();
    const auto vtable_bytes = fb::ReadScalar<fb::voffset_t>(vtable);
    const int fields = (vtable_bytes - 4) / 2;
    for (int i = known; i < fields; ++i)
      if (fb::ReadScalar<fb::voffset_t>(vtable + 4 + 2 * i) != 0)
        Fail(Offset(table), fmt::format("{} has field {} (of {}), beyond the {} this reader "
                                        "knows: another version of the log",
                                        what, i, fields, known));
  }

  // Says where verification failed: the innermost phase or event that does
  // not verify, else the root.
  [[noreturn]] void Locate() const {
    const Log* log = qnnlog::GetLog(base_);
    const std::string what =
        "an offset, length or alignment of it points outside the buffer (a truncated or "
        "corrupt log, or another layout)";
    {
      fb::Verifier v = MakeVerifier();
      const uint32_t root = fb::ReadScalar<uint32_t>(base_);
      if (root > size_ - sizeof(fb::soffset_t) ||
          !v.VerifyTableStart(reinterpret_cast<const uint8_t*>(log)))
        Fail(kSizePrefixBytes, "the root table: " + what);
      // Only an offset that verified is followed.
      if (!AsTable(log)->VerifyOffset(v, Log::VT_HEADER))
        Fail(Offset(log), "the header's offset: " + what);
      if (log->header() && !log->header()->Verify(v))
        Fail(Offset(log->header()), "the header: " + what);
      if (!AsTable(log)->VerifyOffset(v, Log::VT_PHASES) || !v.VerifyVector(log->phases()))
        Fail(Offset(log), "the list of phase records: " + what);
    }
    const auto* phases = log->phases();
    for (fb::uoffset_t i = 0; phases && i < phases->size(); ++i) {
      const Phase* phase = phases->Get(i);
      fb::Verifier v = MakeVerifier();
      if (phase->Verify(v)) continue;
      fb::Verifier w = MakeVerifier();
      const bool events_ok = w.VerifyTableStart(reinterpret_cast<const uint8_t*>(phase)) &&
                             AsTable(phase)->VerifyOffset(w, Phase::VT_EVENTS) &&
                             w.VerifyVector(phase->events());
      if (events_ok && phase->events())
        for (const Event* e : *phase->events()) LocateEvent(e, what);
      Fail(Offset(phase), fmt::format("phase record {}: {}", i, what));
    }
    Fail(kSizePrefixBytes, "the log's FlatBuffer does not verify: " + what);
  }

  void LocateEvent(const Event* event, const std::string& what) const {
    fb::Verifier v = MakeVerifier();
    if (event->Verify(v)) return;
    fb::Verifier w = MakeVerifier();
    const bool subs_ok = w.VerifyTableStart(reinterpret_cast<const uint8_t*>(event)) &&
                         AsTable(event)->VerifyOffset(w, Event::VT_SUB_EVENTS) &&
                         w.VerifyVector(event->sub_events());
    if (subs_ok && event->sub_events())
      for (const Event* sub : *event->sub_events()) LocateEvent(sub, what);
    Fail(Offset(event), "an event record: " + what);
  }

  void Add(const Phase* phase, const PhaseKind& kind, std::string time, std::string_view unit,
           std::string_view source, int depth, std::string identifier, const void* at) {
    QnnLogRow row;
    row.timestamp_us = phase->stamp()->timestamp_us();
    row.message = std::string(kind.message);
    row.time = std::move(time);
    row.unit = std::string(unit);
    row.source = std::string(source);
    row.depth = depth;
    row.identifier = std::move(identifier);
    row.byte_offset = Offset(at);
    out_.rows.push_back(std::move(row));
  }

  void AddPhase(const Phase* phase) {
    const PhaseKind& kind = *FindPhaseKind(phase->kind());
    if (!phase->stamp())
      Fail(Offset(phase),
           fmt::format("the {} phase record has no stamp (its timestamp)", kind.message));
    KnownFields(phase->stamp(), 2, "a phase's stamp");
    if (phase->interval()) KnownFields(phase->interval(), 2, "a phase's interval");
    if (kind.code == kIpsKind) {
      AddInferencesPerSecond(phase, kind);
      return;
    }
    std::string identifier = "null";
    if (phase->graph_name())
      identifier = fmt::format("Graph {}: {}", phase->graph_index(), phase->graph_name()->str());
    const uint64_t netrun_us = kind.code == kInitKind ? set_up_us_ : Duration(phase, kind);
    Add(phase, kind, fmt::format("{}", netrun_us), "US", "NETRUN", 0, identifier, phase);
    if (phase->events())
      for (const Event* e : *phase->events()) AddEvent(phase, kind, e, 0);
  }

  uint64_t Duration(const Phase* phase, const PhaseKind& kind) const {
    const Interval* interval = phase->interval();
    if (!interval)
      Fail(Offset(phase), fmt::format("the {} phase record has no interval (start and end): "
                                      "its NETRUN time cannot be read",
                                      kind.message));
    if (interval->end_us() < interval->start_us())
      Fail(Offset(interval),
           fmt::format("the {} phase record ends ({} µs) before it starts ({} µs)", kind.message,
                       interval->end_us(), interval->start_us()));
    return interval->end_us() - interval->start_us();
  }

  void AddEvent(const Phase* phase, const PhaseKind& kind, const Event* event, int depth) {
    KnownFields(event, 6, "an event record");
    std::optional<std::string_view> unit = UnitName(event->unit());
    if (!unit)
      Fail(Offset(event),
           fmt::format("event \"{}\" has unit {}, which this reader does not know (1 µs, 2 bytes, "
                       "3 cycles, 4 count)",
                       Text(event->identifier()), event->unit()));
    std::string identifier = event->identifier() ? event->identifier()->str() : "null";
    Add(phase, kind, fmt::format("{}", event->value()), *unit, "BACKEND", depth,
        std::move(identifier), event);
    if (event->sub_events())
      for (const Event* sub : *event->sub_events()) AddEvent(phase, kind, sub, depth + 1);
  }

  // The EXECUTE IPS row from the phase's numInferences and duration events.
  void AddInferencesPerSecond(const Phase* phase, const PhaseKind& kind) {
    const Event *count = nullptr, *duration = nullptr;
    if (phase->events())
      for (const Event* e : *phase->events()) {
        KnownFields(e, 6, "an event record");
        const std::string name = Text(e->identifier());
        if (name == "numInferences" && e->unit() == 4) count = e;
        if (name == "duration" && e->unit() == 1) duration = e;
      }
    if (!count || !duration || duration->value() == 0)
      Fail(Offset(phase),
           "the EXECUTE IPS record lacks a numInferences count or a non-zero duration in µs");
    const float ips = static_cast<float>(static_cast<double>(count->value()) * 1e6 /
                                         static_cast<double>(duration->value()));
    Add(phase, kind, fmt::format("{:.6f}", static_cast<double>(ips)), "INF/SEC", "NETRUN", 0,
        "null", phase);
  }

  const std::string& path_;
  uint64_t file_size_;
  const uint8_t* base_;
  size_t size_;
  QnnLogContent out_;
  uint64_t set_up_us_ = 0;  // Σ of the INIT, COMPOSE GRAPHS and FINALIZE spans (µs)
};

#endif  // HTPSCOPE_HAVE_QNN_LOG

// The size prefix: the length of the rest of the file, which must be all of
// it (at least a root offset and a table).
void CheckFraming(const std::string& path, std::string_view bytes) {
  auto fail = [&](uint64_t at, std::string problem) {
    throw InputError(path, std::move(problem), at);
  };
  if (bytes.size() < kSizePrefixBytes + 8)
    fail(0, fmt::format("{} bytes: too short for a qnn-net-run profiling log (a size prefix "
                        "and a FlatBuffer)",
                        bytes.size()));
  uint32_t length = 0;
  std::memcpy(&length, bytes.data(), sizeof length);
  const uint64_t rest = bytes.size() - kSizePrefixBytes;
  if (length > rest)
    fail(0, fmt::format("truncated: the size prefix says {} bytes follow it, the file has {}",
                        length, rest));
  if (length < rest)
    fail(kSizePrefixBytes + length,
         fmt::format("{} bytes after the end of the log's buffer (its size prefix says {} "
                     "bytes): several logs in one file, or another layout",
                     rest - length, length));
}

// "line N: message" -> "byte X: message", X the log offset of line N's row.
std::string ToByteWarning(const std::string& warning, const std::vector<uint64_t>& offsets) {
  if (warning.rfind("line ", 0) != 0) return warning;
  size_t colon = warning.find(": ");
  if (colon == std::string::npos) return warning;
  uint64_t line = 0;
  for (size_t i = 5; i < colon; ++i) {
    if (warning[i] < '0' || warning[i] > '9') return warning;
    line = line * 10 + static_cast<uint64_t>(warning[i] - '0');
  }
  if (line >= offsets.size()) return warning;
  return fmt::format("byte {}{}", offsets[line], warning.substr(colon));
}

}  // namespace

bool QnnProfileLogSupported() { return HTPSCOPE_HAVE_QNN_LOG != 0; }

bool LooksLikeQnnProfileLog(std::string_view prefix) {
  if (prefix.size() < 32) return false;
  auto u32 = [&](size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, prefix.data() + at, 4);
    return v;
  };
  auto u16 = [&](size_t at) {
    uint16_t v = 0;
    std::memcpy(&v, prefix.data() + at, 2);
    return v;
  };
  const uint32_t length = u32(0), root = u32(4);
  // In 64 bits: a root offset near 2^32 must not wrap past the size check.
  if (length < 24 || root % 4 != 0 || root < 8 || uint64_t{root} + 16 > prefix.size() ||
      root > length)
    return false;
  const size_t table = kSizePrefixBytes + root;
  const int32_t to_vtable = static_cast<int32_t>(u32(table));
  const int64_t vtable = static_cast<int64_t>(table) - to_vtable;
  if (vtable < 8 || vtable + 8 > static_cast<int64_t>(prefix.size())) return false;
  const size_t vt = static_cast<size_t>(vtable);
  // The root table: a vtable of two fields, both set (header, phases)...
  if (u16(vt) != 8 || u16(vt + 2) != 12 || u16(vt + 4) != 4 || u16(vt + 6) != 8) return false;
  // ... pointing inside the buffer, and the phases to a list of at least one.
  const uint64_t end = kSizePrefixBytes + uint64_t{length};
  const uint64_t header = table + 4 + uint64_t{u32(table + 4)};
  const uint64_t phases = table + 8 + uint64_t{u32(table + 8)};
  if (header % 4 != 0 || phases % 4 != 0 || header + 8 > end || phases + 8 > end) return false;
  if (phases + 4 > prefix.size()) return true;  // beyond the bytes at hand
  const uint32_t count = u32(static_cast<size_t>(phases));
  return count >= 1 && phases + 4 + uint64_t{count} * 4 <= end;
}

QnnLogContent DecodeQnnProfileLog(const std::string& path, std::string_view bytes) {
  CheckFraming(path, bytes);
#if HTPSCOPE_HAVE_QNN_LOG
  if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
    throw InputError(path, "a log of 2 GiB or more is beyond what FlatBuffers can address", 0);
  // The buffer after the size prefix is aligned as FlatBuffers aligns a
  // buffer of its own (qnn-net-run writes the prefix in front of it, not
  // with FinishSizePrefixed): verify and read it from 8-byte aligned memory.
  const std::string_view buffer = bytes.substr(kSizePrefixBytes);
  const AlignedBytes aligned(buffer);
  return Decoder(path, bytes.size(), aligned.data(), buffer.size()).Run();
#else
  throw InputError(path,
                   "htpscope was built without FlatBuffers (flatc and libflatbuffers-dev were not "
                   "found at configure time): qnn-net-run profiling logs cannot be read; convert "
                   "the log with qnn-profile-viewer --reader ...CSV and read the CSV",
                   0);
#endif
}

std::string QnnLogAsCsv(const std::string& path, const QnnLogContent& content,
                        std::vector<uint64_t>* line_offsets) {
  std::string out;
  std::vector<uint64_t> offsets = {0};  // index 0 unused: lines are 1-based
  auto line = [&](std::string text, uint64_t offset) {
    out += text;
    out += '\n';
    offsets.push_back(offset);
  };
  line("input log file location, " + CsvField(path), 0);
  const std::string application =
      content.application.empty() ? std::string("application") : content.application;
  line(fmt::format("{}, {}", CsvField(application + " version"),
                   CsvField(content.application_version)),
       0);
  line("Backend version, " + CsvField(content.backend_version), 0);
  line(
      "Msg Timestamp, Message, Time, Unit of Measurement, Timing Source, Event Level, Event "
      "Identifier",
      0);
  for (const QnnLogRow& r : content.rows)
    line(fmt::format("{},{},{},{},{},{},{}", r.timestamp_us, r.message, r.time, r.unit, r.source,
                     LevelName(r.depth), CsvField(r.identifier)),
         r.byte_offset);
  if (line_offsets) *line_offsets = std::move(offsets);
  return out;
}

ProfileReport ParseQnnProfileLog(const std::string& path, std::string_view bytes) {
  QnnLogContent content = DecodeQnnProfileLog(path, bytes);
  std::vector<uint64_t> offsets;
  const std::string csv = QnnLogAsCsv(path, content, &offsets);
  ProfileReport report;
  try {
    report = ParseProfileCsv(path, csv);
  } catch (const InputError& e) {
    // A row the CSV reader refuses: name the event it comes from.
    uint64_t at = e.line() && *e.line() < offsets.size() ? offsets[*e.line()] : 0;
    throw InputError(path, e.problem(), std::min<uint64_t>(at, bytes.size()));
  }
  report.format = ProfileFormat::kQnnLog;
  for (std::string& w : report.warnings) w = ToByteWarning(w, offsets);
  return report;
}

ProfileReport ReadQnnProfileLog(const std::string& path) {
  LoadedFile loaded = ReadWholeFile(path);
  return ParseQnnProfileLog(path, std::string_view(loaded.bytes.data(), loaded.bytes.size()));
}

}  // namespace htpscope

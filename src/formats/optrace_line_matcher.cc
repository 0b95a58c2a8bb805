#include "formats/optrace_line_matcher.h"

#include <cstring>

namespace htpscope {
namespace {

// A cursor over [at, end) that only moves on a match.
class LineCursor {
 public:
  LineCursor(const char* at, const char* end) : at_(at), end_(end) {}

  bool Literal(std::string_view text) {
    if (static_cast<size_t>(end_ - at_) < text.size() ||
        std::memcmp(at_, text.data(), text.size()) != 0)
      return false;
    at_ += text.size();
    return true;
  }

  // A string's content up to its closing quote, printable ASCII only.
  bool String(std::string_view* out) {
    const char* p = at_;
    while (p < end_ && *p != '"') {
      const auto byte = static_cast<unsigned char>(*p);
      // ASCII only: the general parser validates escapes, control
      // characters and UTF-8.
      if (*p == '\\' || byte < 0x20 || byte >= 0x80) return false;
      ++p;
    }
    if (p == end_) return false;
    *out = std::string_view(at_, static_cast<size_t>(p - at_));
    at_ = p + 1;
    return true;
  }

  // A JSON integer literal of at most 18 digits (no overflow possible); a
  // fraction or exponent after it fails the next Literal.
  bool Integer(int64_t* out) {
    const char* p = at_;
    bool negative = p < end_ && *p == '-';
    if (negative) ++p;
    const char* digits = p;
    int64_t value = 0;
    while (p < end_ && *p >= '0' && *p <= '9') {
      if (p - digits == 18) return false;  // 19 digits or more: could overflow
      value = value * 10 + (*p++ - '0');
    }
    const auto count = p - digits;
    if (count == 0 || (count > 1 && *digits == '0')) return false;
    if (p < end_ && (*p == '.' || *p == 'e' || *p == 'E')) return false;
    *out = negative ? -value : value;
    at_ = p;
    return true;
  }

  size_t consumed(const char* start) const { return static_cast<size_t>(at_ - start); }

 private:
  const char* at_;
  const char* end_;
};

}  // namespace

size_t MatchCounterLine(const char* text, const char* end, CounterLine* out) {
  LineCursor c(text, end);
  int64_t pid = 0, tid = 0;
  if (c.Literal("{ \"name\": \"") && c.String(&out->name) &&
      c.Literal(", \"ph\": \"C\", \"tid\":") && c.Integer(&tid) && c.Literal(", \"pid\":") &&
      c.Integer(&pid) && c.Literal(", \"ts\":") && c.Integer(&out->ts) &&
      c.Literal(", \"args\": {\"\": ") && c.Integer(&out->value) && c.Literal("}}"))
    return c.consumed(text);
  return 0;
}

size_t MatchOpEventPrefix(const char* text, const char* end, OpEventPrefix* out) {
  LineCursor c(text, end);
  if (!(c.Literal("{ \"name\": \"") && c.String(&out->name) &&
        c.Literal(", \"ph\": \"X\", \"tid\": ") && c.Integer(&out->tid) &&
        c.Literal(", \"pid\": ")))
    return 0;
  out->pid_begin = c.consumed(text);
  if (!c.Integer(&out->pid)) return 0;
  out->pid_end = c.consumed(text);
  return c.Literal(", ") ? out->pid_end : 0;
}

size_t MatchFlowLine(const char* text, const char* end, FlowLine* out) {
  LineCursor c(text, end);
  std::string_view name;
  if (!(c.Literal("{ \"cat\": \"") && c.String(&out->category) && c.Literal(", \"name\": \"") &&
        c.String(&name) && c.Literal(", \"tid\": ") && c.Integer(&out->tid) &&
        c.Literal(", \"pid\": ") && c.Integer(&out->pid) && c.Literal(", \"ts\": ") &&
        c.Integer(&out->ts)))
    return 0;
  if (c.Literal(", \"ph\": \"s\", \"id\": "))
    out->is_start = true;
  else if (c.Literal(", \"ph\": \"f\", \"pb\": \"e\", \"id\": "))
    out->is_start = false;
  else
    return 0;
  if (c.Integer(&out->id) && c.Literal("}")) return c.consumed(text);
  return 0;
}

}  // namespace htpscope

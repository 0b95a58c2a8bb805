#include "formats/optrace_line_matcher.h"

#include <charconv>
#include <cstring>

namespace htpscope {

bool LineCursor::Number(double* out) {
  const char* p = at_;
  auto digits = [&] {
    const char* first = p;
    while (p < end_ && *p >= '0' && *p <= '9') ++p;
    return p - first;
  };
  if (p < end_ && *p == '-') ++p;
  const char* integer = p;
  const auto integer_digits = digits();
  if (integer_digits == 0 || (integer_digits > 1 && *integer == '0')) return false;
  if (p < end_ && *p == '.') {
    ++p;
    if (digits() == 0) return false;
  }
  if (p < end_ && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end_ && (*p == '+' || *p == '-')) ++p;
    if (digits() == 0) return false;
  }
  // The JSON literal [at_, p), converted with correct rounding (as simdjson
  // does); out of double's range is left to the general parser.
  auto [end, error] = std::from_chars(at_, p, *out);
  if (error != std::errc() || end != p) return false;
  at_ = p;
  return true;
}

bool LineCursor::Walk(const char* text, const FragmentToken* tokens, size_t count) {
  const char* p = at_;
  for (size_t i = 0; i < count; ++i) {
    const FragmentToken& t = tokens[i];
    if (t.structural) {
      while (p < end_ && IsJsonWhiteSpace(*p)) ++p;
      if (p == end_ || *p != t.structural) return false;
      ++p;
      // Not after a closing bracket: a matcher's last bracket ends its
      // event, and the white space after the event is not its own.
      if (IsJsonOpener(t.structural))
        while (p < end_ && IsJsonWhiteSpace(*p)) ++p;
      continue;
    }
    if (static_cast<size_t>(end_ - p) < t.length || std::memcmp(p, text + t.begin, t.length) != 0)
      return false;
    p += t.length;
  }
  at_ = p;
  return true;
}

char FirstKeyLetter(const char* text, const char* end) {
  if (text == end || *text != '{') return 0;
  ++text;
  while (text < end && IsJsonWhiteSpace(*text)) ++text;
  if (end - text < 2 || *text != '"') return 0;
  return text[1];
}

size_t MatchCounterLine(const char* text, const char* end, CounterLine* out) {
  LineCursor c(text, end);
  int64_t pid = 0, tid = 0;
  if (c.Literal<"{ \"name\": \"">() && c.String(&out->name) &&
      c.Literal<", \"ph\": \"C\", \"tid\":">() && c.Integer(&tid) && c.Literal<", \"pid\":">() &&
      c.Integer(&pid) && c.Literal<", \"ts\":">() && c.Integer(&out->ts) &&
      c.Literal<", \"args\": {\"\": ">() && c.Integer(&out->value) && c.Literal<"}}">())
    return c.consumed(text);
  return 0;
}

size_t MatchOpEventPrefix(const char* text, const char* end, OpEventPrefix* out) {
  LineCursor c(text, end);
  if (!(c.Literal<"{ \"name\": \"">() && c.String(&out->name) &&
        c.Literal<", \"ph\": \"X\", \"tid\": ">() && c.Integer(&out->tid) &&
        c.Literal<", \"pid\": ">()))
    return 0;
  out->pid_begin = c.consumed(text);
  if (!c.Integer(&out->pid)) return 0;
  out->pid_end = c.consumed(text);
  return c.Literal<", ">() ? out->pid_end : 0;
}

size_t MatchFlowLine(const char* text, const char* end, FlowLine* out) {
  LineCursor c(text, end);
  std::string_view name;
  if (!(c.Literal<"{ \"cat\": \"">() && c.String(&out->category) && c.Literal<", \"name\": \"">() &&
        c.String(&name) && c.Literal<", \"tid\": ">() && c.Integer(&out->tid) &&
        c.Literal<", \"pid\": ">() && c.Integer(&out->pid) && c.Literal<", \"ts\": ">() &&
        c.Integer(&out->ts)))
    return 0;
  if (c.Literal<", \"ph\": \"s\", \"id\": ">())
    out->is_start = true;
  else if (c.Literal<", \"ph\": \"f\", \"pb\": \"e\", \"id\": ">())
    out->is_start = false;
  else
    return 0;
  if (c.Integer(&out->id) && c.Literal<"}">()) return c.consumed(text);
  return 0;
}

size_t MatchMetadataLine(const char* text, const char* end, MetadataLine* out) {
  LineCursor c(text, end);
  *out = MetadataLine();
  if (!(c.Literal<"{ \"cat\": \"__metadata\", \"pid\": ">() && c.Integer(&out->pid))) return 0;
  if (c.Literal<", \"tid\": ">()) {
    if (!c.Integer(&out->tid)) return 0;
    out->has_tid = true;
  }
  if (!(c.Literal<", \"ph\": \"M\", \"name\": \"">() && c.String(&out->name) &&
        c.Literal<", \"args\": {\"">()))
    return 0;
  if (c.Literal<"name\": \"">()) {
    if (!c.String(&out->arg_name)) return 0;
    if (c.Literal<", \"opid\": \"">() && !c.String(&out->opid_text)) return 0;
  } else if (c.Literal<"sort_index\": ">()) {
    if (!c.Integer(&out->sort_index)) return 0;
    out->has_sort_index = true;
  } else {
    return 0;
  }
  return c.Literal<"}}">() ? c.consumed(text) : 0;
}

}  // namespace htpscope

#include "analysis/module_path.h"

#include <algorithm>

#include "base/text_util.h"

namespace htpscope {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsWordChar(char c) { return IsDigit(c) || IsUpper(c) || IsLower(c) || c == '_'; }

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), IsDigit);
}

bool IsBlockKeyword(std::string_view s) {
  for (std::string_view k : kBlockKeywords)
    if (s == k) return true;
  return false;
}

// "Conv_token_13_2" -> "Conv": ONNX Runtime's copy suffix "_token_<N>[_<N>...]".
std::string_view DropTokenSuffix(std::string_view op) {
  size_t at = op.rfind("_token_");
  if (at == std::string_view::npos || at == 0) return op;
  std::string_view rest = op.substr(at + 7);
  for (std::string_view part : SplitAt(rest, '_'))
    if (!AllDigits(part)) return op;
  return op.substr(0, at);
}

ModulePath FromOnnxScope(std::string_view name) {
  ModulePath out;
  std::vector<std::string_view> parts;
  for (std::string_view p : SplitAt(name, '/'))
    if (!p.empty()) parts.push_back(p);
  if (parts.size() < 2) {
    out.op = std::string(name);
    return out;
  }
  out.spelling = ModuleSpelling::kOnnxScope;
  for (size_t i = 0; i + 1 < parts.size(); ++i) out.segments.emplace_back(parts[i]);
  out.op = std::string(DropTokenSuffix(parts.back()));
  return out;
}

// Namespaces of operator names that are dotted but name an op, not a module
// ("aten.conv2d.default", "quantized_decomposed.quantize_per_tensor").
constexpr std::string_view kOpNamespaces[] = {
    "aten",      "prim",          "prims",           "torch", "quantized_decomposed",
    "quantized", "dim_order_ops", "executorch_prim", "llama", "tosa"};

std::optional<ModulePath> FromDotted(std::string_view name) {
  if (!std::all_of(name.begin(), name.end(), [](char c) { return IsWordChar(c) || c == '.'; }))
    return std::nullopt;
  std::vector<std::string_view> raw = SplitAt(name, '.');
  for (std::string_view ns : kOpNamespaces)
    if (raw.front() == ns) return std::nullopt;
  for (std::string_view r : raw)
    if (r.empty()) return std::nullopt;
  if (raw.size() < 2 || AllDigits(raw.front())) return std::nullopt;
  if (AllDigits(raw.back())) raw.pop_back();  // the op's copy index
  ModulePath out;
  out.spelling = ModuleSpelling::kDotted;
  for (std::string_view r : raw) {
    if (AllDigits(r) && !out.segments.empty()) {
      out.segments.back() += '.';
      out.segments.back() += r;
    } else {
      out.segments.emplace_back(r);
    }
  }
  // The op is the innermost module's own computation.
  std::string_view leaf = out.segments.back();
  out.op = std::string(leaf.substr(0, leaf.find('.')));
  return out;
}

// Module tokens [0, end) of a sanitised name, split at block tokens only.
std::vector<std::string> SegmentsOfTokens(const std::vector<std::string_view>& tokens, size_t end) {
  std::vector<std::string> out;
  std::string pending;
  auto flush = [&] {
    if (!pending.empty()) out.push_back(std::move(pending));
    pending.clear();
  };
  for (size_t i = 0; i < end; ++i) {
    std::string_view t = tokens[i];
    if (t.empty()) continue;
    if (IsBlockKeyword(t) && i + 1 < end && AllDigits(tokens[i + 1])) {
      flush();
      out.push_back(std::string(t) + "." + std::string(tokens[i + 1]));
      ++i;
      continue;
    }
    if (!pending.empty()) pending += '_';
    pending += t;
  }
  flush();
  return out;
}

std::string JoinTokens(const std::vector<std::string_view>& tokens, size_t from) {
  std::string out;
  for (size_t i = from; i < tokens.size(); ++i) {
    if (i > from) out += '_';
    out += tokens[i];
  }
  return out;
}

std::optional<ModulePath> FromSanitized(std::string_view name) {
  if (!std::all_of(name.begin(), name.end(), IsWordChar)) return std::nullopt;
  std::vector<std::string_view> tokens = SplitAt(name, '_');
  // The op starts at the first token with an upper-case initial (an ONNX op type).
  size_t op_at = tokens.size();
  for (size_t i = 0; i < tokens.size(); ++i)
    if (!tokens[i].empty() && IsUpper(tokens[i].front())) {
      op_at = i;
      break;
    }
  // Without one, the module ends at the last block token followed by more.
  if (op_at == tokens.size()) {
    for (size_t i = tokens.size(); i-- > 1;)
      if (AllDigits(tokens[i]) && IsBlockKeyword(tokens[i - 1]) && i + 1 < tokens.size()) {
        op_at = i + 1;
        break;
      }
    if (op_at == tokens.size()) return std::nullopt;
  }
  // A module is lower-case words: the module tokens must start with a letter.
  bool any = false;
  for (size_t i = 0; i < op_at; ++i)
    if (std::string_view t = tokens[i]; !t.empty()) {
      if (!any && !IsLower(t.front())) return std::nullopt;
      any = true;
    }
  if (!any) return std::nullopt;
  ModulePath out;
  out.spelling = ModuleSpelling::kSanitized;
  out.segments = SegmentsOfTokens(tokens, op_at);
  out.op = std::string(DropTokenSuffix(JoinTokens(tokens, op_at)));
  if (out.op.empty()) return std::nullopt;
  return out;
}

}  // namespace

const char* ModuleSpellingName(ModuleSpelling spelling) {
  switch (spelling) {
    case ModuleSpelling::kOnnxScope:
      return "onnx_scope";
    case ModuleSpelling::kDotted:
      return "dotted";
    case ModuleSpelling::kSanitized:
      return "sanitized";
    case ModuleSpelling::kNone:
      break;
  }
  return "none";
}

std::string ModulePath::Joined() const {
  std::string out;
  for (const auto& s : segments) {
    if (!out.empty()) out += '/';
    out += s;
  }
  return out;
}

ModulePath ParseModulePath(std::string_view op_name) {
  if (op_name.find('/') != std::string_view::npos) return FromOnnxScope(op_name);
  if (op_name.find('.') != std::string_view::npos) {
    if (auto dotted = FromDotted(op_name)) return *dotted;
  } else if (op_name.find('_') != std::string_view::npos) {
    if (auto sanitized = FromSanitized(op_name)) return *sanitized;
  }
  ModulePath none;
  none.op = std::string(op_name);
  return none;
}

std::optional<BlockIndex> BlockOf(std::string_view segment) {
  size_t at = segment.find_last_of("._");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view keyword = segment.substr(0, at), number = segment.substr(at + 1);
  if (!IsBlockKeyword(keyword) || !AllDigits(number) || number.size() > 6) return std::nullopt;
  return BlockIndex{std::string(keyword), std::stoi(std::string(number))};
}

}  // namespace htpscope

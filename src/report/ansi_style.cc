#include "report/ansi_style.h"

#include <array>

namespace htpscope {
namespace {

constexpr std::string_view kBold = "\x1b[1m", kRed = "\x1b[31m", kBoldRed = "\x1b[1;31m",
                           kYellow = "\x1b[33m", kReset = "\x1b[0m";

bool IsUnderline(std::string_view line, size_t width) {
  if (line.size() != width || width < 3) return false;
  for (char c : line)
    if (c != '-') return false;
  return true;
}

// Red for the words that mean something failed.
std::string StyleWords(std::string_view line) {
  static constexpr std::array<std::string_view, 5> kFailureWords = {"FAIL", "DIFFERS", "regression",
                                                                    "missing:", "extra:"};
  std::string out;
  size_t at = 0;
  while (at < line.size()) {
    size_t best = std::string_view::npos, best_len = 0;
    for (std::string_view w : kFailureWords) {
      size_t p = line.find(w, at);
      if (p < best) {
        best = p;
        best_len = w.size();
      }
    }
    if (best == std::string_view::npos) break;
    out.append(line.substr(at, best - at));
    out.append(kRed).append(line.substr(best, best_len)).append(kReset);
    at = best + best_len;
  }
  out.append(line.substr(at));
  return out;
}

}  // namespace

std::string StyleReportText(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    std::string_view line = text.substr(at, end == std::string_view::npos ? end : end - at);
    size_t next = end == std::string_view::npos ? text.size() : end + 1;
    std::string_view following;
    if (next < text.size()) {
      size_t e2 = text.find('\n', next);
      following = text.substr(next, e2 == std::string_view::npos ? e2 : e2 - next);
    }
    size_t indent = line.find_first_not_of(' ');
    if (!line.empty() && IsUnderline(following, line.size())) {
      out.append(kBold).append(line).append(kReset);
    } else if (indent != std::string_view::npos && line[indent] == '[' &&
               line.find(']', indent) != std::string_view::npos) {
      size_t close = line.find(']', indent);
      out.append(line.substr(0, indent))
          .append(kYellow)
          .append(line.substr(indent, close + 1 - indent))
          .append(kReset)
          .append(StyleWords(line.substr(close + 1)));
    } else {
      out += StyleWords(line);
    }
    if (end != std::string_view::npos) out += '\n';
    at = next;
  }
  return out;
}

std::string AnsiBoldRed(std::string_view text) {
  return std::string(kBoldRed) + std::string(text) + std::string(kReset);
}

std::string StripAnsi(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      i += 2;
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e)) ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

}  // namespace htpscope

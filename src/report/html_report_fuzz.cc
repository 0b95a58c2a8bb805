// libFuzzer target: the HTML page writer (RenderHtmlReport).  The input is
// cut at NUL bytes into a title, a run label, a key and a value, which land
// in the page's <title> and in its data as any string of an artifact would.
// Aborts unless the page has the template's structure exactly once (one
// data script, one page script, one style), the <title> reads back as the
// title, and the embedded JSON parses back to the model.
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "base/fuzz_support.h"
#include "report/html_report.h"

namespace {

using nlohmann::json;

size_t Count(std::string_view text, std::string_view needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

std::string_view Between(std::string_view page, std::string_view open, std::string_view close) {
  size_t begin = page.find(open);
  if (begin == std::string_view::npos) std::abort();
  begin += open.size();
  size_t end = page.find(close, begin);
  if (end == std::string_view::npos) std::abort();
  return page.substr(begin, end - begin);
}

std::string UnescapeHtml(std::string_view text) {
  static const std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&#39;", '\''}};
  std::string out;
  for (size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (text[i] == '&')
      for (const auto& [entity, c] : kEntities)
        if (text.substr(i, entity.size()) == entity) {
          out += c;
          i += entity.size();
          replaced = true;
          break;
        }
    if (!replaced) out += text[i++];
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace htpscope;
  std::vector<std::string> parts(4);
  size_t part = 0;
  for (char c : fuzz::AsText(data, size)) {
    if (c == '\0' && part + 1 < parts.size()) {
      ++part;
    } else {
      parts[part] += c;
    }
  }
  const std::string& title = parts[0];
  json model = {{"schema", "htpscope.report/1"},
                {"title", title},
                {"label", parts[1]},
                {"lint", {{parts[2], parts[3]}, {"list", {parts[3], parts[1]}}}}};
  std::string page = RenderHtmlReport(model);
  if (page.rfind("<!DOCTYPE html>", 0) != 0) std::abort();
  if (Count(page, "<script type=\"application/json\" id=\"data\">") != 1) std::abort();
  if (Count(page, "</script>") != 2 || Count(page, "</style>") != 1) std::abort();
  if (Count(page, "</title>") != 1) std::abort();
  std::string_view shown_title = Between(page, "<title>", "</title>");
  if (shown_title.find('<') != std::string_view::npos || UnescapeHtml(shown_title) != title)
    std::abort();
  // Invalid UTF-8 is replaced by U+FFFD on the way into the page, as the
  // JSON encoder does it.
  json expected = json::parse(model.dump(-1, ' ', false, json::error_handler_t::replace));
  std::string_view embedded =
      Between(page, "<script type=\"application/json\" id=\"data\">", "</script>");
  if (json::parse(embedded) != expected) std::abort();
  return 0;
}

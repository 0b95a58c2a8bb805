// The page is assembled in one pass over the template: placeholder text in
// a title, a run label or any string of the data is written as it is.
#include <gtest/gtest.h>

#include <string>

#include "report/html_report.h"

namespace htpscope::html_report_template_test {
namespace {

using nlohmann::json;

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::string Between(const std::string& page, const std::string& open, const std::string& close) {
  size_t begin = page.find(open);
  EXPECT_NE(begin, std::string::npos) << open;
  if (begin == std::string::npos) return "";
  begin += open.size();
  size_t end = page.find(close, begin);
  EXPECT_NE(end, std::string::npos) << close;
  return page.substr(begin, end - begin);
}

const char* const kPlaceholders[] = {"{{DATA}}",   "{{TITLE}}", "/*{{CSS}}*/",
                                     "/*{{JS}}*/", "{{CSS}}",   "{{JS}}"};

TEST(HtmlReportTemplate, PlaceholderTextInTitleAndDataIsWrittenAsItIs) {
  for (const std::string placeholder : kPlaceholders) {
    SCOPED_TRACE(placeholder);
    const std::string text = "run " + placeholder + " end";
    json model = {{"schema", "htpscope.report/1"},
                  {"title", text},
                  {"label", placeholder},
                  {"overview", {{"label", text}, {"skipped", {placeholder + "/x.json"}}}}};
    std::string page = RenderHtmlReport(model);
    EXPECT_EQ(Between(page, "<title>", "</title>"), text);
    EXPECT_EQ(
        json::parse(Between(page, "<script type=\"application/json\" id=\"data\">", "</script>")),
        model);
    // The template's own parts are there once each: the data script, the
    // page script and the style.
    EXPECT_EQ(Count(page, "<script type=\"application/json\" id=\"data\">"), 1u);
    EXPECT_EQ(Count(page, "</script>"), 2u);
    EXPECT_EQ(Count(page, "</style>"), 1u);
    EXPECT_GT(Between(page, "<style>", "</style>").size(), 100u);
    EXPECT_GT(Between(page, "<script>", "</script>").size(), 1000u);
    // No placeholder is left but the ones the strings carry: the <title>,
    // and the four strings of the data.
    EXPECT_EQ(Count(page, placeholder), 5u)
        << "a placeholder was substituted into user text or left unfilled";
  }
}

TEST(HtmlReportTemplate, TitleWithEveryPlaceholderAtOnce) {
  std::string title;
  for (const std::string p : kPlaceholders) title += p + " ";
  json model = {{"schema", "htpscope.report/1"}, {"title", title}, {"label", title}};
  std::string page = RenderHtmlReport(model);
  EXPECT_EQ(Between(page, "<title>", "</title>"), title);
  EXPECT_EQ(
      json::parse(Between(page, "<script type=\"application/json\" id=\"data\">", "</script>")),
      model);
  EXPECT_NE(RenderDiffHtml(json{{"x", title}}, title).find("<title>" + title + "</title>"),
            std::string::npos);
}

}  // namespace
}  // namespace htpscope::html_report_template_test

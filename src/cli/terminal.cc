#include "cli/terminal.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli/progress.h"
#include "report/ansi_style.h"
#include "report/text_sanitize.h"

namespace htpscope::cli {
namespace {

ColorMode g_mode = ColorMode::kAuto;

bool Styled(int fd) {
  if (g_mode != ColorMode::kAuto) return g_mode == ColorMode::kAlways;
  // https://no-color.org: present and not empty disables colour.
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::strcmp(term, "dumb") == 0) return false;
  return isatty(fd) == 1;
}

}  // namespace

void SetColorMode(ColorMode mode) { g_mode = mode; }

ColorMode ParseColorMode(std::string_view name) {
  if (name == "always") return ColorMode::kAlways;
  if (name == "never") return ColorMode::kNever;
  return ColorMode::kAuto;
}

bool StdoutStyled() { return Styled(STDOUT_FILENO); }
bool StderrStyled() { return Styled(STDERR_FILENO); }

void PrintReport(std::string_view text) {
  StopProgress();  // the progress line leaves the screen before the report
  const std::string safe = TerminalSafeLines(text);  // before styling adds its own escapes
  if (StdoutStyled())
    fmt::print("{}", StyleReportText(safe));
  else
    fmt::print("{}", safe);
}

void PrintText(std::string_view text, bool machine_format) {
  if (machine_format) {
    StopProgress();
    fmt::print("{}", text);
  } else
    PrintReport(text);
}

void PrintJson(const LazyObject& doc) {
  StopProgress();
  PrintLazyJson(doc);
}

std::string StyleError(std::string_view prefix, bool styled) {
  return styled ? AnsiBoldRed(prefix) : std::string(prefix);
}

}  // namespace htpscope::cli

// Whether htpscope's output goes to a terminal, and so gets colour: --color
// auto (the default: colour when the stream is a terminal, NO_COLOR is unset
// or empty and TERM is not "dumb"), always, or never.  Pipes and files never
// get escape sequences unless --color always asks for them.
#pragma once

#include <string>
#include <string_view>

#include "report/lazy_json.h"

namespace htpscope::cli {

enum class ColorMode { kAuto, kAlways, kNever };

// Set once after parsing the command line; kAuto until then.
void SetColorMode(ColorMode mode);
ColorMode ParseColorMode(std::string_view name);  // "auto", "always", "never"

bool StdoutStyled();
bool StderrStyled();

// Prints a text report to stdout: control characters escaped line by line
// (TerminalSafeLines), then styled when StdoutStyled().
void PrintReport(std::string_view text);

// PrintReport for text and markdown; machine formats (JSON, JUnit XML, ...),
// whose own encoders escape, are printed as they are.  Both end the
// progress display (cli/progress.h) first.
void PrintText(std::string_view text, bool machine_format);

// A --json document written as it is built (report/lazy_json.h), after
// ending the progress display.
void PrintJson(const LazyObject& doc);

// "htpscope: error" etc., bold red when stderr is styled.
std::string StyleError(std::string_view prefix, bool styled);

}  // namespace htpscope::cli

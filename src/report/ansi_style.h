// ANSI colour for the text reports, for terminals only: the reports are
// rendered plain, and the CLI passes them through here when its output is a
// terminal (or --color always).  Styling adds escape sequences only; removing
// them gives back the plain text byte for byte.
#pragma once

#include <string>
#include <string_view>

namespace htpscope {

// Section titles (a line underlined by a line of '-' of its length) bold;
// warning tags ("[code]" first on a line) yellow; "FAIL", "DIFFERS",
// "regression", "missing:" and "extra:" red.
std::string StyleReportText(std::string_view text);

// `text` in bold red (an error's "htpscope: error" prefix).
std::string AnsiBoldRed(std::string_view text);

// `text` without ANSI CSI sequences (ESC '[' ... final byte).
std::string StripAnsi(std::string_view text);

}  // namespace htpscope

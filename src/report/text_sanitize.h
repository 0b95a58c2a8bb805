// Untrusted text (op, tensor, thread and file names, messages quoting them)
// made safe for a terminal and for text output.
//
// A name read from an artifact may hold bytes that a terminal obeys: ESC
// and CSI sequences recolour or move the cursor, OSC sequences retitle the
// window or write the clipboard, BEL rings, CR and LF forge table rows,
// and bidirectional overrides reorder what is shown.  Every renderer that
// prints such a string to a terminal or a text report passes it through
// TerminalSafe first; JSON output needs nothing (its encoder escapes control
// characters), HTML and XML have their own escaping.
#pragma once

#include <string>
#include <string_view>

namespace htpscope {

// `text` with every character a terminal could act on written as a visible
// escape, everything else (printable ASCII, backslash included, and valid
// UTF-8 of printable code points) unchanged:
//   \n \r \t                   for LF, CR and TAB
//   \xNN                       for the other C0 controls (ESC is \x1b), DEL,
//                              and each byte that is not valid UTF-8
//   \u{NNNN}                   for C1 controls (U+0080..U+009F), the line and
//                              paragraph separators U+2028/U+2029, and the
//                              bidirectional controls U+061C, U+200E/F,
//                              U+202A..U+202E, U+2066..U+2069
// The result is never shorter than `text` and holds no byte below 0x20 nor
// 0x7F.
std::string TerminalSafe(std::string_view text);

// A whole text report made safe the same way line by line: every line
// break ('\n') is kept, everything else as TerminalSafe writes it.  Applied
// to every text report before it is printed, so a renderer that forgot to
// escape a name still cannot emit an escape sequence; idempotent, and a
// no-op on text TerminalSafe already produced.
std::string TerminalSafeLines(std::string_view text);

// True when TerminalSafe(text) == text (nothing to escape).
bool IsTerminalSafe(std::string_view text);

}  // namespace htpscope

// Number formatting shared by the text reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace htpscope {

// 1234567 -> "1,234,567".
std::string GroupDigits(int64_t value);
// Optional values print as "-" when absent.
std::string OrDash(const std::optional<int64_t>& value);
std::string OrDash(const std::optional<double>& value, int decimals);
// 928212 -> "906.5 KiB".
std::string HumanBytes(int64_t bytes);
// Cuts `text` to `width` display columns, ending in "…" when cut.
std::string Ellipsize(const std::string& text, size_t width);

}  // namespace htpscope

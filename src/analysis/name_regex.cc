#include "analysis/name_regex.h"

#include <re2/re2.h>

namespace htpscope {

std::optional<NameRegex> SplitNameRegex(std::string_view spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  return NameRegex{spec.substr(0, eq), spec.substr(eq + 1), eq + 1};
}

std::unique_ptr<re2::RE2> CompileRegex(std::string_view regex) {
  re2::RE2::Options options;
  options.set_log_errors(false);
  return std::make_unique<re2::RE2>(re2::StringPiece(regex.data(), regex.size()), options);
}

bool RegexSearch(const re2::RE2& regex, std::string_view text) {
  return re2::RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), regex);
}

}  // namespace htpscope

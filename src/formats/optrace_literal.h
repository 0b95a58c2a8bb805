// Compile-time forms of the JSON fragments the optrace line matchers expect
// (optrace_line_matcher.h), so that one matcher reads an event however the
// file is spaced.  A fragment is written as the optrace writer spaces it,
// e.g. ", \"ph\": \"C\", \"tid\":"; a space beside a structural character
// ({ } [ ] , :) stands for any JSON white space there, none included.  From
// it the compiler derives the fragment minified (",\"ph\":\"C\",\"tid\":"),
// spaced as Python's json.dumps spaces (", \"ph\": \"C\", \"tid\": ") and
// as tokens for any other spacing (indented layouts).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace htpscope {

constexpr bool IsJsonStructural(char c) {
  return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':';
}
// Structural characters a value or key must follow (white space may too).
constexpr bool IsJsonOpener(char c) { return c == '{' || c == '[' || c == ',' || c == ':'; }
constexpr bool IsJsonWhiteSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// A string literal as a template argument: Literal<"{ \"name\": \"">().
template <size_t N>
struct JsonFragment {
  char text[N] = {};
  constexpr JsonFragment(const char (&s)[N]) {  // NOLINT: implicit on purpose
    for (size_t i = 0; i < N; ++i) text[i] = s[i];
  }
  static constexpr size_t kLength = N - 1;

  // Whether text[i], a space, is white space (beside a structural character).
  constexpr bool OptionalSpace(size_t i) const {
    return text[i] == ' ' && ((i > 0 && IsJsonStructural(text[i - 1])) ||
                              (i + 1 < kLength && IsJsonStructural(text[i + 1])));
  }
};

// The fragment spaced another way.
template <size_t N>
struct RespacedFragment {
  std::array<char, 2 * N> text = {};
  size_t length = 0;
};

enum class FragmentSpacing { kMinified, kDumps };

template <size_t N>
constexpr RespacedFragment<N> Respace(const JsonFragment<N>& f, FragmentSpacing spacing) {
  RespacedFragment<N> out;
  for (size_t i = 0; i < f.kLength; ++i) {
    if (f.OptionalSpace(i)) continue;
    const char c = f.text[i];
    out.text[out.length++] = c;
    // json.dumps separators: ", " and ": ".
    if (spacing == FragmentSpacing::kDumps && (c == ',' || c == ':')) out.text[out.length++] = ' ';
  }
  return out;
}

// A structural character, or a run of other bytes text[begin, begin + length).
struct FragmentToken {
  char structural = 0;
  uint8_t begin = 0, length = 0;
};

template <size_t N>
struct FragmentTokens {
  std::array<FragmentToken, N> tokens = {};
  size_t count = 0;
};

template <size_t N>
constexpr FragmentTokens<N> Tokenize(const JsonFragment<N>& f) {
  FragmentTokens<N> out;
  for (size_t i = 0; i < f.kLength; ++i) {
    if (f.OptionalSpace(i)) continue;
    const char c = f.text[i];
    if (IsJsonStructural(c)) {
      out.tokens[out.count++] = {c, 0, 0};
      continue;
    }
    const bool extends = out.count > 0 && out.tokens[out.count - 1].structural == 0 &&
                         out.tokens[out.count - 1].begin + out.tokens[out.count - 1].length == i;
    if (extends)
      ++out.tokens[out.count - 1].length;
    else
      out.tokens[out.count++] = {0, static_cast<uint8_t>(i), 1};
  }
  return out;
}

}  // namespace htpscope

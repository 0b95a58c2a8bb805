#include "formats/artifact_header.h"

#include <simdjson.h>

#include <cstring>
#include <memory>

#include "formats/byte_source.h"
#include "formats/json_util.h"

namespace htpscope {
namespace {

// Any spelling of "header", each of its six letters escaped as \uXXXX, is
// shorter: a longer key is another one.
constexpr size_t kMaxHeaderKeyBytes = 36;
// A header is a few hundred bytes; a bigger "header" is not QAIRT's.
constexpr size_t kMaxHeaderBytes = size_t{1} << 20;

bool IsJsonWhiteSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The artifact_type string of a header object's text, or "" when it has none.
std::string ArtifactTypeOfHeader(const std::string& header) {
  simdjson::ondemand::parser parser;
  std::string type;
  FindObjectMember(header, "artifact_type", parser, [&](simdjson::ondemand::value v) {
    std::string_view text;
    if (!v.get_string().get(text)) type = text;
  });
  return type;
}

}  // namespace

void ArtifactTypeFinder::ExpectByte(char c, char expected, Step next) {
  if (IsJsonWhiteSpace(c)) return;
  if (c == expected)
    step_ = next;
  else
    SetNotFound();
}

void ArtifactTypeFinder::Decide() {
  artifact_type_ = ArtifactTypeOfHeader(header_);
  header_.clear();
  state_ = artifact_type_.empty() ? State::kNotFound : State::kFound;
}

size_t ArtifactTypeFinder::Consume(const char* text, size_t length, bool final) {
  size_t i = 0;
  while (state_ == State::kNeedMoreData && i < length) {
    if (step_ == Step::kInContainer) {
      const auto found = container_.Scan(text, i, length, SIZE_MAX, final);
      if (found.stop == JsonContainerScanner::Stop::kNeedMoreData) {
        i = found.offset;
        break;
      }
      i = found.offset + 1;  // past the closing bracket
      step_ = Step::kAfterValue;
      continue;
    }
    if (step_ == Step::kStart || step_ == Step::kBeforeKey || step_ == Step::kAfterKey ||
        step_ == Step::kBeforeValue || step_ == Step::kAfterValue) {
      // White space between tokens, skipped fast: gigabytes of it may pad a file.
      i = SkipJsonWhiteSpace(text, i, length);
      if (i == length) break;
    }
    const char c = text[i++];
    switch (step_) {
      case Step::kStart:
        ExpectByte(c, '{', Step::kBeforeKey);
        break;
      case Step::kBeforeKey:
        if (IsJsonWhiteSpace(c)) break;
        if (c == '"') {
          key_.clear();
          escaped_ = false;
          step_ = Step::kInKey;
        } else {
          SetNotFound();  // '}' (no member left) or no JSON
        }
        break;
      case Step::kInKey:
        if (c == '"' && !escaped_) {
          step_ = Step::kAfterKey;
          break;
        }
        escaped_ = c == '\\' && !escaped_;
        if (key_.size() <= kMaxHeaderKeyBytes) key_.push_back(c);
        break;
      case Step::kAfterKey:
        ExpectByte(c, ':', Step::kBeforeValue);
        break;
      case Step::kBeforeValue:
        if (IsJsonWhiteSpace(c)) break;
        if (c == '{' && key_.size() <= kMaxHeaderKeyBytes && UnescapeJsonString(key_) == "header") {
          header_.assign(1, c);
          header_depth_ = 1;
          in_string_ = escaped_ = false;
          step_ = Step::kInHeader;
        } else if (c == '{' || c == '[') {
          container_ = JsonContainerScanner();
          step_ = Step::kInContainer;
        } else if (c == '"') {
          escaped_ = false;
          step_ = Step::kInString;
        } else {
          step_ = Step::kInScalar;
        }
        break;
      case Step::kInString:
        if (c == '"' && !escaped_)
          step_ = Step::kAfterValue;
        else
          escaped_ = c == '\\' && !escaped_;
        break;
      case Step::kInScalar:
        if (c == ',')
          step_ = Step::kBeforeKey;
        else if (c == '}')
          SetNotFound();  // the last member, and not the header
        else if (IsJsonWhiteSpace(c))
          step_ = Step::kAfterValue;
        break;
      case Step::kInHeader:
        if (header_.size() >= kMaxHeaderBytes) {
          SetNotFound();
          break;
        }
        header_.push_back(c);
        if (in_string_) {
          if (c == '"' && !escaped_)
            in_string_ = false;
          else
            escaped_ = c == '\\' && !escaped_;
        } else if (c == '"') {
          in_string_ = true;
          escaped_ = false;
        } else if (c == '{' || c == '[') {
          ++header_depth_;
        } else if ((c == '}' || c == ']') && --header_depth_ == 0) {
          Decide();
        }
        break;
      case Step::kAfterValue:
        ExpectByte(c, ',', Step::kBeforeKey);  // '}' (the last member) ends the walk too
        break;
      case Step::kInContainer:
        break;  // handled above
    }
  }
  if (final) {
    if (state_ == State::kNeedMoreData) SetNotFound();
    return length;
  }
  return i;
}

std::optional<std::string> ArtifactTypeFinder::found_type() const {
  if (state_ != State::kFound) return std::nullopt;
  return artifact_type_;
}

std::optional<std::string> FindArtifactType(std::string_view text, bool final, bool* decided) {
  ArtifactTypeFinder finder;
  finder.Consume(text.data(), text.size(), final);
  *decided = finder.state() != ArtifactTypeFinder::State::kNeedMoreData;
  return finder.found_type();
}

std::optional<std::string> FindArtifactType(ByteSource& source) {
  constexpr size_t kBlockBytes = size_t{1} << 20;
  auto buffer = std::make_unique<char[]>(kBlockBytes);
  ArtifactTypeFinder finder;
  size_t kept = 0;  // bytes left over by the last Consume, at the buffer's front
  while (finder.state() == ArtifactTypeFinder::State::kNeedMoreData) {
    const size_t n = source.Read(buffer.get() + kept, kBlockBytes - kept);
    const size_t length = kept + n;
    const size_t consumed = finder.Consume(buffer.get(), length, n == 0);
    kept = length - consumed;
    std::memmove(buffer.get(), buffer.get() + consumed, kept);
  }
  return finder.found_type();
}

}  // namespace htpscope

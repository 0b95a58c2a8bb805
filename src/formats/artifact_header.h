// Finding an artifact's header.artifact_type ("OP_TRACE", "QHAS", ...) by the
// structure of its JSON, wherever the "header" member sits.
//
// QAIRT writes the header first, but JSON objects are unordered: a script
// that re-saves a trace (filtering its events, say) may write "traceEvents"
// first and the header after hundreds of megabytes.  The finder walks the
// top-level object's members in file order and skips every value but the
// header's structurally (quote-, escape- and bracket-aware), so that neither
// text inside strings nor a nested "header" is taken for the artifact's, and
// keys and values are compared unescaped ("\u0068eader" is "header").
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "formats/json_structure.h"

namespace htpscope {

class ByteSource;

class ArtifactTypeFinder {
 public:
  enum class State {
    kNeedMoreData,  // nothing decided yet: feed more bytes
    kFound,         // artifact_type() holds the header's artifact_type
    kNotFound,      // the document is no object with a header.artifact_type string
  };

  // Walks text[0, length): the bytes of the document that follow those
  // consumed so far.  Returns how many bytes were consumed (from the front):
  // the next call must start with the rest.  Fewer than 64 may be left over
  // (a container is skipped 64 bytes at a time) unless `final` (no more text
  // follows), when every byte is consumed and the state is decided.
  size_t Consume(const char* text, size_t length, bool final);

  State state() const { return state_; }
  const std::string& artifact_type() const { return artifact_type_; }
  // artifact_type() once kFound, else nullopt.
  std::optional<std::string> found_type() const;

 private:
  enum class Step {
    kStart,        // before the document's first byte (white space allowed)
    kBeforeKey,    // after '{' or ','
    kInKey,        // inside a member's key
    kAfterKey,     // before the ':'
    kBeforeValue,  // after the ':'
    kInString,     // skipping a string value
    kInScalar,     // skipping a number or literal
    kInContainer,  // skipping an array or object value
    kInHeader,     // copying the header's object
    kAfterValue,   // before ',' or '}'
  };

  // Past white space, byte `expected` moves the walk on to `next`; any
  // other ends it (no header can follow).
  void ExpectByte(char c, char expected, Step next);
  // Ends the walk: kFound when the header copied so far names a type.
  void Decide();
  void SetNotFound() { state_ = State::kNotFound; }

  State state_ = State::kNeedMoreData;
  Step step_ = Step::kStart;
  std::string key_;           // the current key's raw (escaped) bytes, up to a cap
  bool escaped_ = false;      // the previous byte was an unpaired backslash (strings)
  bool in_string_ = false;    // kInHeader: inside a string
  int64_t header_depth_ = 0;  // kInHeader: bracket depth within the header
  std::string header_;        // kInHeader: the header's bytes
  JsonContainerScanner container_;
  std::string artifact_type_;
};

// The header.artifact_type of the JSON document read from `source` (from its
// current position to its end or until decided), or nullopt when it has
// none.  Reads no further than needed.  Throws InputError when reading fails.
std::optional<std::string> FindArtifactType(ByteSource& source);

// The same for text already in memory; `final` says whether it is the whole
// document (else an undecided prefix gives nullopt with *decided false).
std::optional<std::string> FindArtifactType(std::string_view text, bool final, bool* decided);

}  // namespace htpscope

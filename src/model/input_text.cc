#include "model/input_text.h"

#include "formats/byte_source.h"
#include "formats/expected_dag.h"
#include "formats/input_files.h"

namespace htpscope {

std::string ReadInputText(const std::string& path) {
  return ReadNamingFileOnOutOfMemory(path, [&] {
    LoadedFile file = ReadWholeFile(path);
    // A byte order mark in front of JSON already reads as spaces.
    return std::string(SkipByteOrderMark({file.bytes.data(), file.bytes.size()}));
  });
}

std::vector<std::string> TakeUnreportedInputWarnings() { return TakeInputWarnings(); }

std::vector<ExpectedEdge> LoadExpectedDag(const std::string& path) {
  return ParseExpectedDag(path, ReadInputText(path));
}

}  // namespace htpscope

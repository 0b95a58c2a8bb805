#include "model/input_text.h"

#include "formats/byte_source.h"
#include "formats/input_files.h"

namespace htpscope {

std::string ReadInputText(const std::string& path) {
  return ReadNamingFileOnOutOfMemory(path, [&] {
    LoadedFile file = ReadWholeFile(path);
    return std::string(file.bytes.data(), file.bytes.size());
  });
}

std::vector<std::string> TakeUnreportedInputWarnings() { return TakeInputWarnings(); }

}  // namespace htpscope

// Recognising what a file is from its content, never from its name.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/artifact_kinds.h"

namespace htpscope {

// The bytes read to recognise a file: text formats announce themselves in
// their first lines, and QAIRT writes the JSON header first.
inline constexpr size_t kArtifactSniffBytes = 16 * 1024;

// Classifies `path` (plain or gzip) by its content: its first bytes, and for
// JSON whose header is not among them, the header wherever it sits in the
// top-level object (formats/artifact_header.h; the file is then scanned to
// the header or the end).  When the file is JSON with a header of another
// type, `*artifact_type` receives it.  Throws InputError only when the file
// cannot be opened.
ArtifactKind DetectArtifactKind(const std::string& path, std::string* artifact_type = nullptr);

// The same for content already read: the first kArtifactSniffBytes of a file,
// or all of it when shorter.  JSON whose header is not within those bytes is
// kOtherJson.  A UTF-8 byte order mark in front is skipped.
ArtifactKind DetectArtifactKindFromPrefix(std::string_view prefix,
                                          std::string* artifact_type = nullptr);

}  // namespace htpscope

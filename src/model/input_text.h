// Small inputs that commands read whole themselves (an expected DAG, an
// attached JSON), through the capped input layer of src/formats: pipes
// read once, devices and directories refused by name, a size cap.
#pragma once

#include <string>
#include <vector>

#include "base/expected_edge.h"

namespace htpscope {

// The whole content of `path` ("-" is standard input), gzip inflated,
// without a leading UTF-8 byte order mark (in front of JSON it reads as
// three spaces, so that byte offsets stay those of the file).
// Throws InputError naming the file when it cannot be read, is not a file,
// or exceeds the in-memory cap (HTPSCOPE_MAX_IN_MEMORY_BYTES).
std::string ReadInputText(const std::string& path);

// The edges of the expected-DAG file `path` (formats/expected_dag.h: one
// "A -> B" per line), read as ReadInputText reads it.  Throws InputError
// naming the file and line of a malformed entry.
std::vector<ExpectedEdge> LoadExpectedDag(const std::string& path);

// Warnings of the input layer (gzip trailing garbage ignored, ...) about
// files whose reader did not report them, as "<path>: <warning>"; each is
// returned once.
std::vector<std::string> TakeUnreportedInputWarnings();

}  // namespace htpscope

// Test support: the paths of this checkout, of its build and of the programs
// the tests run.  Their values are compiled into one generated source,
// <build>/generated/test_paths.cc (CMakeLists.txt), instead of being passed
// as compile definitions: every other test source then compiles to the same
// command wherever the checkout sits, so a fresh clone's build hits ccache
// for them (scripts/test.sh builds one).
#pragma once

namespace htpscope::testing_support {

const char* TestSourceDir();         // the checkout; the corpus is ../shared beside it
const char* TestBinary();            // the htpscope executable of this build
const char* TestProtoc();            // protoc
const char* TestPerfettoProtoDir();  // where Perfetto's perfetto_trace.proto may be
const char* TestFlatc();             // flatc
const char* TestEtdumpSchema();      // src/formats/etdump_schema.fbs

}  // namespace htpscope::testing_support

// The names the tests use (once compile definitions).
#define HTPSCOPE_SOURCE_DIR (::htpscope::testing_support::TestSourceDir())
#define HTPSCOPE_BINARY (::htpscope::testing_support::TestBinary())
#define HTPSCOPE_PROTOC (::htpscope::testing_support::TestProtoc())
#define HTPSCOPE_PERFETTO_PROTO_DIR (::htpscope::testing_support::TestPerfettoProtoDir())
#define HTPSCOPE_FLATC (::htpscope::testing_support::TestFlatc())
#define HTPSCOPE_ETDUMP_SCHEMA (::htpscope::testing_support::TestEtdumpSchema())

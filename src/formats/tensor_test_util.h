// Test support for the tensor readers and the numerics: a scratch directory
// per test, .npy images written in memory, and the text of an InputError.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>

#include "base/errors.h"

namespace htpscope::testing_support {

// An .npy (version 1.0) with header dict {descr, fortran_order False, shape}
// followed by `data_bytes` zero bytes.
inline std::string NpyImage(std::string_view descr, std::string_view shape_tuple,
                            size_t data_bytes) {
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, shape_tuple);
  dict += std::string((64 - (10 + dict.size() + 1) % 64) % 64, ' ') + "\n";
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + std::string(data_bytes, '\0');
}

// The message of the InputError `fn` throws, or "(no error)".
inline std::string InputErrorOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

// A fixture with a fresh directory `dir_`, removed after the test.
class ScratchDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "htpscope_scratch_XXXXXX";
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `bytes` to `dir_/name` (creating directories); returns the path.
  std::string Write(const std::string& name, const std::string& bytes) {
    std::string path = dir_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  static std::string ErrorOf(const std::function<void()>& fn) { return InputErrorOf(fn); }

  std::string dir_;
};

}  // namespace htpscope::testing_support

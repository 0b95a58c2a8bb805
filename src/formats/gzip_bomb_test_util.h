// Test support: gzip inflation bombs written in milliseconds whatever they
// inflate to, so that no big file is ever committed.
//
// zlib deflates `prefix`, then one MiB of white space, each ended with a
// full flush (byte-aligned, the dictionary reset): after a full flush the
// same input deflates to the same bytes, so that block is written once per
// MiB of the bomb.  The member ends with `suffix` and a valid trailer (CRC-32
// combined with crc32_combine, length mod 2^32): the file is a well-formed
// gzip member that `gzip -t` accepts.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace htpscope::testing_support {

// Writes `path`: gzip of prefix + `blank_mib` MiB of ' ' + suffix.  Returns
// the bytes it inflates to.  ~1 KiB of file per MiB of white space.
inline uint64_t WriteWhiteSpaceGzipBomb(const std::string& path, const std::string& prefix,
                                        uint64_t blank_mib, const std::string& suffix = "") {
  constexpr size_t kBlockBytes = size_t{1} << 20;
  const std::string block(kBlockBytes, ' ');
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY), Z_OK);
  auto deflate_all = [&](const std::string& in, int flush) {
    std::string out(deflateBound(&z, in.size()) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = static_cast<uInt>(in.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, flush);
    EXPECT_TRUE(rc == Z_OK || rc == Z_STREAM_END) << rc;
    EXPECT_EQ(z.avail_in, 0u);
    out.resize(out.size() - z.avail_out);
    return out;
  };
  const std::string head = deflate_all(prefix, Z_FULL_FLUSH);
  const std::string blank = deflate_all(block, Z_FULL_FLUSH);
  EXPECT_EQ(deflate_all(block, Z_FULL_FLUSH), blank);  // the block repeats exactly
  const std::string tail = deflate_all(suffix, Z_FINISH);
  deflateEnd(&z);

  const uLong block_crc = crc32(0, reinterpret_cast<const Bytef*>(block.data()), kBlockBytes);
  uLong crc =
      crc32(0, reinterpret_cast<const Bytef*>(prefix.data()), static_cast<uInt>(prefix.size()));
  std::ofstream out(path, std::ios::binary);
  out.write("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);  // deflate, no name, Unix
  out << head;
  // After a full flush nothing refers back: the copies make one valid stream.
  if (blank_mib == 0) ADD_FAILURE() << "a bomb of at least 1 MiB";
  for (uint64_t i = 0; i < blank_mib; ++i) {
    out.write(blank.data(), static_cast<std::streamsize>(blank.size()));
    crc = crc32_combine(crc, block_crc, kBlockBytes);
  }
  out << tail;
  crc = crc32(crc, reinterpret_cast<const Bytef*>(suffix.data()), static_cast<uInt>(suffix.size()));
  const uint64_t inflated = prefix.size() + blank_mib * kBlockBytes + suffix.size();
  const unsigned char trailer[8] = {static_cast<unsigned char>(crc),
                                    static_cast<unsigned char>(crc >> 8),
                                    static_cast<unsigned char>(crc >> 16),
                                    static_cast<unsigned char>(crc >> 24),
                                    static_cast<unsigned char>(inflated),
                                    static_cast<unsigned char>(inflated >> 8),
                                    static_cast<unsigned char>(inflated >> 16),
                                    static_cast<unsigned char>(inflated >> 24)};
  out.write(reinterpret_cast<const char*>(trailer), 8);
  return inflated;
}

}  // namespace htpscope::testing_support

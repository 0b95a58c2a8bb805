#include "formats/json_structure.h"

#include <algorithm>
#include <bit>
#include <cstring>

#if defined(__AVX2__) || defined(__SSE2__) || defined(__PCLMUL__) || defined(__BMI2__) || \
    defined(__AVX512BW__)
#include <immintrin.h>
#endif

namespace htpscope {
namespace {

// Bit i of the result: the XOR of bits 0..i of `bits` (a quote opens a
// string, the next one closes it): one carry-less multiply by all ones.
inline uint64_t PrefixXor(uint64_t bits) {
#if defined(__PCLMUL__)
  const __m128i product =
      _mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<int64_t>(bits)), _mm_set1_epi8(-1), 0);
  return static_cast<uint64_t>(_mm_cvtsi128_si64(product));
#else
  bits ^= bits << 1;
  bits ^= bits << 2;
  bits ^= bits << 4;
  bits ^= bits << 8;
  bits ^= bits << 16;
  bits ^= bits << 32;
  return bits;
#endif
}

// ClassifyJsonBlock, inlined into the scan loops; the comma mask only when
// asked for (the depth scan needs it near a cut only).
template <bool kCommas = true>
[[gnu::always_inline]] inline JsonBlockMasks ClassifyBlock(const char* block) {
  JsonBlockMasks m;
#if defined(__AVX512BW__)
  // One load; each comparison gives its 64-bit mask directly.
  const __m512i bytes = _mm512_loadu_si512(block);
  const __m512i folded = _mm512_or_si512(bytes, _mm512_set1_epi8(0x20));
  m.quotes = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('"'));
  m.backslashes = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('\\'));
  if constexpr (kCommas) m.commas = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(','));
  m.opens = _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('{'));
  m.closes = _mm512_cmpeq_epi8_mask(folded, _mm512_set1_epi8('}'));
#elif defined(__AVX2__)
  // '[' | 0x20 == '{' and ']' | 0x20 == '}', and no other byte maps to either.
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32));
  const __m256i lower = _mm256_set1_epi8(0x20);
  const __m256i lo_folded = _mm256_or_si256(lo, lower), hi_folded = _mm256_or_si256(hi, lower);
  auto mask = [](__m256i low_half, __m256i high_half, char c) {
    const __m256i wanted = _mm256_set1_epi8(c);
    const auto low =
        static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low_half, wanted)));
    const auto high =
        static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high_half, wanted)));
    return (static_cast<uint64_t>(high) << 32) | low;
  };
  m.quotes = mask(lo, hi, '"');
  m.backslashes = mask(lo, hi, '\\');
  if constexpr (kCommas) m.commas = mask(lo, hi, ',');
  m.opens = mask(lo_folded, hi_folded, '{');
  m.closes = mask(lo_folded, hi_folded, '}');
#elif defined(__SSE2__)
  const __m128i lower = _mm_set1_epi8(0x20);
  for (int part = 0; part < 4; ++part) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 16 * part));
    const __m128i folded = _mm_or_si128(bytes, lower);
    auto bits = [&](__m128i v, char c) {
      return static_cast<uint64_t>(
                 static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)))))
             << (16 * part);
    };
    m.quotes |= bits(bytes, '"');
    m.backslashes |= bits(bytes, '\\');
    if constexpr (kCommas) m.commas |= bits(bytes, ',');
    m.opens |= bits(folded, '{');
    m.closes |= bits(folded, '}');
  }
#else
  for (int i = 0; i < 64; ++i) {
    const uint64_t bit = uint64_t{1} << i;
    switch (block[i]) {
      case '"':
        m.quotes |= bit;
        break;
      case '\\':
        m.backslashes |= bit;
        break;
      case ',':
        if constexpr (kCommas) m.commas |= bit;
        break;
      case '{':
      case '[':
        m.opens |= bit;
        break;
      case '}':
      case ']':
        m.closes |= bit;
        break;
      default:
        break;
    }
  }
#endif
  return m;
}

// The JSON white space (' ', '\n', '\r', '\t') and the colons among the 64
// bytes at `block`, from one load of each 32 bytes.
struct SpaceAndColonMasks {
  uint64_t spaces = 0;
  uint64_t colons = 0;
};
inline SpaceAndColonMasks WhiteSpaceAndColonMasks(const char* block) {
  SpaceAndColonMasks m;
#if defined(__AVX512BW__)
  const __m512i bytes = _mm512_loadu_si512(block);
  m.spaces = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(' ')) |
             _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('\n')) |
             _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('\r')) |
             _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8('\t'));
  m.colons = _mm512_cmpeq_epi8_mask(bytes, _mm512_set1_epi8(':'));
#elif defined(__AVX2__)
  for (int half = 0; half < 2; ++half) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 32 * half));
    const __m256i space =
        _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(' ')),
                                        _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8('\n'))),
                        _mm256_or_si256(_mm256_cmpeq_epi8(bytes, _mm256_set1_epi8('\r')),
                                        _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8('\t'))));
    const __m256i colon = _mm256_cmpeq_epi8(bytes, _mm256_set1_epi8(':'));
    m.spaces |= static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(space)))
                << (32 * half);
    m.colons |= static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(colon)))
                << (32 * half);
  }
#else
  for (int i = 0; i < 64; ++i) {
    const char c = block[i];
    m.spaces |= static_cast<uint64_t>(c == ' ' || c == '\n' || c == '\r' || c == '\t') << i;
    m.colons |= static_cast<uint64_t>(c == ':') << i;
  }
#endif
  return m;
}

}  // namespace

JsonBlockMasks ClassifyJsonBlock(const char* block) { return ClassifyBlock(block); }

uint64_t EscapedJsonBytes(uint64_t backslashes, uint64_t* carry) {
  // An escaped first byte that is a backslash escapes nothing itself.
  backslashes &= ~*carry;
  // Bytes right after a backslash (or escaped by the carry): the escaped
  // ones among them end an odd run.
  const uint64_t follows_backslash = (backslashes << 1) | *carry;
  constexpr uint64_t kEvenBits = 0x5555555555555555ULL;
  // Adding each odd-positioned run's first bit to the mask carries through
  // the run to the byte after it; runs starting on even bits stay as they
  // are.  A carry out of the block is an odd run ending the block.
  const uint64_t odd_run_starts = backslashes & ~kEvenBits & ~follows_backslash;
  uint64_t sum = 0;
  *carry = __builtin_add_overflow(odd_run_starts, backslashes, &sum) ? 1 : 0;
  // For a run starting on an even bit, the byte after it is escaped when it
  // sits on an odd bit (odd length); for one starting on an odd bit, when it
  // sits on an even bit.  Shifting `sum` marks the even-start runs (and the
  // byte after each odd-start run), which flips the parity expected.
  const uint64_t flipped = sum << 1;
  return (kEvenBits ^ flipped) & follows_backslash;
}

size_t MinifyJson(const char* text, size_t length, char* out) {
  char* const start = out;
  uint64_t in_string = 0, escape_carry = 0;
  // Bit 0: the previous block ended on a token byte; bit 1: a run of removed
  // white space that began after a token byte goes on into this block.  (One
  // word: the loop keeps every value in a register.)
  uint64_t joins = 0;
  char tail[64];
  for (size_t at = 0; at < length; at += 64) {
    const char* block = text + at;
    const size_t valid = std::min<size_t>(64, length - at);
    if (valid < 64) {
      std::memcpy(tail, block, valid);
      std::memset(tail + valid, ' ', 64 - valid);
      block = tail;
    }
    const JsonBlockMasks m = ClassifyBlock(block);
    const uint64_t escaped =
        (m.backslashes | escape_carry) == 0 ? 0 : EscapedJsonBytes(m.backslashes, &escape_carry);
    const uint64_t inside = PrefixXor(m.quotes & ~escaped) ^ in_string;
    in_string = static_cast<uint64_t>(static_cast<int64_t>(inside) >> 63);
    const SpaceAndColonMasks spaces = WhiteSpaceAndColonMasks(block);
    const uint64_t removed = spaces.spaces & ~inside;
    // Token bytes: neither removed nor structural (scalars, quotes, string
    // content).  A removed run with a token byte on each side stands between
    // two values ("1 2", "tr ue"): joined, they would read as one.  The
    // first byte of each run that follows a token byte, added to the runs,
    // carries to the byte after that run.
    const uint64_t token = ~removed & ~(m.opens | m.closes | m.commas | spaces.colons);
    const uint64_t starts = removed & ((token << 1) | (joins & 1));
    const uint64_t runs = removed + starts;
    const uint64_t sum = runs + (joins >> 1);
    if (sum & ~removed & token) [[unlikely]]
      return kMinifyRefused;
    const uint64_t carry =
        static_cast<uint64_t>(runs < removed) | static_cast<uint64_t>(sum < runs);
    joins = (token >> 63) | (carry << 1);
    uint64_t keep = ~removed;
    if (valid < 64) keep &= (uint64_t{1} << valid) - 1;
#if defined(__AVX512VBMI2__)
    // The kept bytes gathered to the low end in one step; the 64 bytes
    // stored may run past them (`out` has room for that).
    _mm512_storeu_si512(out, _mm512_maskz_compress_epi8(keep, _mm512_loadu_si512(block)));
    out += std::popcount(keep);
#elif defined(__BMI2__)
    // Eight bytes at a time: the kept ones gathered to the low end.
    for (size_t i = 0; i < 64; i += 8) {
      const uint64_t bits = (keep >> i) & 0xff;
      uint64_t word;
      std::memcpy(&word, block + i, 8);
      const uint64_t gathered = _pext_u64(word, _pdep_u64(bits, 0x0101010101010101ULL) * 0xff);
      std::memcpy(out, &gathered, 8);
      out += std::popcount(bits);
    }
#else
    for (; keep != 0; keep &= keep - 1) *out++ = block[std::countr_zero(keep)];
#endif
  }
  return static_cast<size_t>(out - start);
}

JsonContainerScanner::Found JsonContainerScanner::Scan(const char* text, size_t at, size_t length,
                                                       size_t min_offset, bool final) {
  char tail[64];
  while (at < length) {
    const char* block = text + at;
    size_t valid = 64;
    if (length - at < 64) {
      if (!final) break;
      // The last bytes, padded with spaces (neither quote nor structural).
      valid = length - at;
      std::memcpy(tail, block, valid);
      std::memset(tail + valid, ' ', 64 - valid);
      block = tail;
    }
    // Separators count from min_offset on: before it, commas need no mask.
    bytes_scanned_ += 64;
    const bool separators = at + 64 > min_offset;
    const JsonBlockMasks m = separators ? ClassifyBlock<true>(block) : ClassifyBlock<false>(block);
    // Most blocks hold no backslash at all.
    const uint64_t escaped =
        (m.backslashes | escape_carry_) == 0 ? 0 : EscapedJsonBytes(m.backslashes, &escape_carry_);
    const uint64_t inside = PrefixXor(m.quotes & ~escaped) ^ in_string_;
    in_string_ = static_cast<uint64_t>(static_cast<int64_t>(inside) >> 63);
    const uint64_t opens = m.opens & ~inside;
    const uint64_t closes = m.closes & ~inside;
    const int64_t lowest_depth = depth_ - std::popcount(closes);
    uint64_t commas = 0;
    if (separators) {
      commas = m.commas & ~inside;
      if (min_offset > at) commas &= ~uint64_t{0} << (min_offset - at);
    }
    // Depth cannot reach the container's level in this block: nothing to find.
    if (lowest_depth > 1 || (lowest_depth == 1 && commas == 0)) {
      depth_ += std::popcount(opens) - std::popcount(closes);
      at += 64;
      continue;
    }
    // Walk the block's brackets (and separator candidates) in order.
    for (uint64_t events = opens | closes | commas; events != 0; events &= events - 1) {
      const int bit_index = std::countr_zero(events);
      const uint64_t bit = uint64_t{1} << bit_index;
      if (opens & bit) {
        ++depth_;
      } else if (closes & bit) {
        if (--depth_ == 0) {
          in_string_ = escape_carry_ = 0;  // a bracket outside strings ends no escape
          return {Stop::kClose, at + static_cast<size_t>(bit_index)};
        }
      } else if (depth_ == 1) {
        in_string_ = escape_carry_ = 0;
        return {Stop::kSeparator, at + static_cast<size_t>(bit_index)};
      }
    }
    at += 64;
  }
  return {Stop::kNeedMoreData, at < length ? at : length};
}

bool IsArrayOfClosedElements(const char* text, size_t length) {
  if (length < 2 || text[0] != '[' || text[length - 1] != ']') return false;
  JsonContainerScanner scanner;
  const auto found = scanner.Scan(text, 1, length - 1, SIZE_MAX, /*final=*/true);
  return scanner.EndedBetweenElements(found);
}

}  // namespace htpscope

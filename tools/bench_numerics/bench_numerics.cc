// Writes a reference .npy (NCHW float32) and a device raw dump (NHWC uint8,
// per-channel quantized) of N×C×H×W elements, then times CompareTensorSets
// with 1 and 2 threads and reports peak resident memory.
//
//   bench_numerics [DIR] [ELEMENTS_MILLIONS]   (default: a temp dir, 100)
#include <fmt/format.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "analysis/numerics.h"

namespace {

namespace fs = std::filesystem;
using htpscope::NumericsOptions;

constexpr int64_t kChannels = 64;

// Stored device value of channel c at pixel p (0..255); the reference is its
// dequantized value, off by 0.25 steps in one channel so metrics are non-trivial.
uint8_t Stored(int64_t c, int64_t p) { return static_cast<uint8_t>((c * 7 + p * 13) % 256); }
double Scale(int64_t c) { return 0.01 * static_cast<double>(c + 1); }
double Offset(int64_t c) { return static_cast<double>(c % 5) * 10; }
float Real(int64_t c, int64_t p) {
  double v = (Stored(c, p) - Offset(c)) * Scale(c);
  return static_cast<float>(c == 3 ? v + 0.25 * Scale(c) : v);
}

// User + system CPU seconds of the whole process (all threads).
double CpuSeconds() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

long PeakRssMb() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : "";
  if (dir.empty()) {
    std::string pattern = (fs::temp_directory_path() / "bench_numerics_XXXXXX").string();
    if (!mkdtemp(pattern.data())) return 2;
    dir = pattern;
  }
  double millions = argc > 2 ? std::atof(argv[2]) : 100;
  int64_t pixels = static_cast<int64_t>(std::ceil(millions * 1e6 / kChannels));
  int64_t side = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(pixels))));
  int64_t H = side, W = side, P = H * W;
  uint64_t elements = static_cast<uint64_t>(kChannels * P);
  fs::create_directories(dir + "/ref");
  fs::create_directories(dir + "/dev");

  auto start = std::chrono::steady_clock::now();
  {
    std::string dict = fmt::format(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': (1, {}, {}, {}), }}", kChannels, H, W);
    dict += std::string((64 - (10 + dict.size() + 1) % 64) % 64, ' ') + "\n";
    std::ofstream ref(dir + "/ref/act__debugID_1.npy", std::ios::binary);
    ref << "\x93NUMPY\x01" << '\0' << static_cast<char>(dict.size() & 0xff)
        << static_cast<char>(dict.size() >> 8) << dict;
    std::vector<float> row(static_cast<size_t>(P));
    for (int64_t c = 0; c < kChannels; ++c) {
      for (int64_t p = 0; p < P; ++p) row[p] = Real(c, p);
      ref.write(reinterpret_cast<const char*>(row.data()), P * sizeof(float));
    }
    std::ofstream dev(dir + "/dev/act.raw", std::ios::binary);
    std::vector<char> pixel(kChannels);
    for (int64_t p = 0; p < P; ++p) {
      for (int64_t c = 0; c < kChannels; ++c) pixel[c] = static_cast<char>(Stored(c, p));
      dev.write(pixel.data(), kChannels);
    }
    std::string scales, offsets;
    for (int64_t c = 0; c < kChannels; ++c) {
      scales += fmt::format("{}{}", c ? ", " : "", Scale(c));
      offsets += fmt::format("{}{}", c ? ", " : "", Offset(c));
    }
    std::ofstream(dir + "/dev/manifest.json") << fmt::format(
        R"({{"tensors": [{{"name": "act__debugID_1", "file": "act.raw", "dtype": "uint8",
        "shape": [1, {}, {}, {}], "layout": "NHWC",
        "quantization": {{"axis": 3, "scale": [{}], "offset": [{}]}}}}]}})",
        H, W, kChannels, scales, offsets);
  }
  double write_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("{} elements (1x{}x{}x{}), files written in {:.1f} s to {}\n", elements, kChannels, H,
             W, write_s, dir);

  auto reference = htpscope::LoadTensorSet(dir + "/ref");
  auto device = htpscope::LoadTensorSet(dir + "/dev");
  for (int threads : {1, 2}) {
    NumericsOptions options;
    options.threads = threads;
    options.reference_layout = htpscope::TensorLayout::kChannelsFirst;
    auto t0 = std::chrono::steady_clock::now();
    double cpu0 = CpuSeconds();
    auto result = htpscope::CompareTensorSets(reference, device, options);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = CpuSeconds() - cpu0;
    const auto& m = result.rows.at(0).metrics;
    // CPU time shows the cost per element even on a busy machine, where wall time does not.
    fmt::print(
        "threads {}: {:.2f} s wall ({:.0f} M elements/s), {:.2f} s CPU ({:.1f} ns/element), "
        "mse {:.6g}, cosine {:.9f}, peak RSS {} MB\n",
        threads, s, static_cast<double>(elements) / s / 1e6, cpu,
        cpu * 1e9 / static_cast<double>(elements), *m.mse, *m.cosine, PeakRssMb());
  }
  if (argc <= 1) fs::remove_all(dir);
  return 0;
}

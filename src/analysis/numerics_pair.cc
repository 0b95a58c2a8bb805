// The threaded core of the numerics comparison: one reference/device pair
// read in blocks (or, across a layout conversion, in tiles), its element
// range split across threads, the partial sums merged in range order.
#include <algorithm>
#include <cmath>
#include <exception>
#include <system_error>
#include <thread>

#include "analysis/numerics.h"
#include "analysis/numerics_layout.h"

namespace htpscope {
namespace {

// Work for one pair: readers, dequantizers and geometry.
struct PairPlan {
  const TensorReader* ref = nullptr;
  const TensorReader* dev = nullptr;
  Dequantizer ref_q, dev_q;
  PairGeometry g;
  size_t block = 1 << 16;
  uint64_t tile_a = 1, tile_b = 1, tiles_a = 1, tiles_b = 1;

  uint64_t WorkUnits() const { return g.transposed ? g.n * tiles_a * tiles_b : g.elements; }
};

// Picks a tile of about `block` elements whose contiguous runs on both sides
// stay long: a run on the reference side is tile_b values, on the device
// side tile_a values; short runs mean many small reads.
void ChooseTiles(PairPlan& p) {
  uint64_t block = std::max<uint64_t>(p.block, 1);
  uint64_t min_run = std::max<uint64_t>(
      1, std::min<uint64_t>(256, static_cast<uint64_t>(std::sqrt(static_cast<double>(block)))));
  uint64_t a = p.g.a, b = p.g.b;
  if (a <= block / b) {
    p.tile_a = a;
    p.tile_b = b;
  } else if (a <= block / min_run) {
    p.tile_a = a;
    p.tile_b = std::max<uint64_t>(1, block / a);
  } else if (b <= block / min_run) {
    p.tile_b = b;
    p.tile_a = std::max<uint64_t>(1, block / b);
  } else {
    p.tile_a = p.tile_b = min_run;
  }
  p.tiles_a = (a + p.tile_a - 1) / p.tile_a;
  p.tiles_b = (b + p.tile_b - 1) / p.tile_b;
}

void RunContiguous(const PairPlan& p, uint64_t begin, uint64_t end, ErrorSums& sums) {
  size_t block = std::max<size_t>(p.block, 1);
  std::vector<double> ref(std::min<uint64_t>(block, end - begin));
  std::vector<double> dev(ref.size());
  std::vector<char> scratch;
  for (uint64_t i = begin; i < end;) {
    size_t count = static_cast<size_t>(std::min<uint64_t>(block, end - i));
    ReadDequantized(*p.ref, p.ref_q, i, count, ref.data(), scratch);
    ReadDequantized(*p.dev, p.dev_q, i, count, dev.data(), scratch);
    sums.Add(ref.data(), dev.data(), count);
    i += count;
  }
}

void RunTiles(const PairPlan& p, uint64_t tile_begin, uint64_t tile_end, ErrorSums& sums) {
  const uint64_t A = p.g.a, B = p.g.b;
  std::vector<double> ref(p.tile_a * p.tile_b), dev(ref.size()), staged(ref.size());
  std::vector<char> scratch;
  for (uint64_t t = tile_begin; t < tile_end; ++t) {
    uint64_t n = t / (p.tiles_a * p.tiles_b);
    uint64_t rest = t % (p.tiles_a * p.tiles_b);
    uint64_t a0 = (rest / p.tiles_b) * p.tile_a, b0 = (rest % p.tiles_b) * p.tile_b;
    size_t ta = static_cast<size_t>(std::min(A - a0, p.tile_a));
    size_t tb = static_cast<size_t>(std::min(B - b0, p.tile_b));
    // Reference rows ref[n][a][b0, b0 + tb): one read when they are whole rows.
    if (tb == B) {
      ReadDequantized(*p.ref, p.ref_q, (n * A + a0) * B, ta * tb, ref.data(), scratch);
    } else {
      for (size_t i = 0; i < ta; ++i)
        ReadDequantized(*p.ref, p.ref_q, (n * A + a0 + i) * B + b0, tb, ref.data() + i * tb,
                        scratch);
    }
    // Device rows dev[n][b][a0, a0 + ta), staged as [b][a].
    if (ta == A) {
      ReadDequantized(*p.dev, p.dev_q, (n * B + b0) * A, ta * tb, staged.data(), scratch);
    } else {
      for (size_t j = 0; j < tb; ++j)
        ReadDequantized(*p.dev, p.dev_q, (n * B + b0 + j) * A + a0, ta, staged.data() + j * ta,
                        scratch);
    }
    for (size_t j = 0; j < tb; ++j)
      for (size_t i = 0; i < ta; ++i) dev[i * tb + j] = staged[j * ta + i];
    sums.Add(ref.data(), dev.data(), ta * tb);
  }
}

// Splits the work units into one contiguous range per thread and merges the
// partial sums in range order.
ErrorSums RunPlan(const PairPlan& p, const NumericsOptions& options) {
  uint64_t units = p.WorkUnits();
  uint64_t per_thread = std::max<uint64_t>(options.min_elements_per_thread, 1);
  uint64_t threads = std::max(1, options.threads);
  threads = std::min(threads, std::max<uint64_t>(1, p.g.elements / per_thread));
  threads = std::max<uint64_t>(1, std::min(threads, units));
  std::vector<ErrorSums> partial(threads);
  std::vector<std::exception_ptr> errors(threads);
  auto work = [&](uint64_t k) {
    try {
      uint64_t base = units / threads, extra = units % threads;
      uint64_t begin = k * base + std::min(k, extra);
      uint64_t end = begin + base + (k < extra ? 1 : 0);
      if (p.g.transposed) {
        RunTiles(p, begin, end, partial[k]);
      } else {
        RunContiguous(p, begin, end, partial[k]);
      }
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (uint64_t k = 1; k < threads; ++k) {
    try {
      pool.emplace_back(work, k);
    } catch (const std::system_error&) {
      work(k);  // no thread to be had: this one does the share
    }
  }
  work(0);
  for (auto& thread : pool) thread.join();
  for (auto& error : errors)
    if (error) std::rethrow_exception(error);
  ErrorSums total;
  for (const auto& part : partial) total.Merge(part);
  return total;
}

// The device's first values in reference order.
std::vector<double> DevicePreview(const PairPlan& p, size_t count) {
  if (!p.g.transposed) return Preview(*p.dev, p.dev_q, count);
  std::vector<double> out(static_cast<size_t>(std::min<uint64_t>(count, p.g.elements)));
  std::vector<char> scratch;
  for (size_t i = 0; i < out.size(); ++i) {
    uint64_t n = i / (p.g.a * p.g.b), a = (i / p.g.b) % p.g.a, b = i % p.g.b;
    ReadDequantized(*p.dev, p.dev_q, (n * p.g.b + b) * p.g.a + a, 1, &out[i], scratch);
  }
  return out;
}

}  // namespace

void CompareTensorPair(const TensorEntry& reference, const TensorEntry& device,
                       const NumericsOptions& options, HandleRow& row) {
  row.reference_tensor = reference.name;
  row.device_tensor = device.name;
  row.reference_file = reference.data.path;
  row.device_file = device.data.path;
  PairPlan plan;
  plan.g = ResolveGeometry(reference, device, options, row);
  TensorReader ref_reader(reference);
  TensorReader dev_reader(device);
  plan.ref = &ref_reader;
  plan.dev = &dev_reader;
  plan.ref_q = DequantizerFor(reference);
  plan.dev_q = DequantizerFor(device);
  plan.block = options.block_elements;
  if (plan.g.transposed) ChooseTiles(plan);
  row.shape = reference.data.shape;
  row.layout_converted = plan.g.layout_converted;
  row.dequantized = plan.dev_q.active();
  row.sums = RunPlan(plan, options);
  row.metrics = FinishMetrics(row.sums);
  row.reference_preview = Preview(ref_reader, plan.ref_q, options.preview_values);
  row.device_preview = DevicePreview(plan, options.preview_values);
}

}  // namespace htpscope

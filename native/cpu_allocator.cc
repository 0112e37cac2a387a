// libtorch's CPU tensor buffers from plain malloc (DESIGN.md §3; with glibc's malloc tuning,
// runtime.cc). c10's default CPU allocator takes every buffer from posix_memalign (64-byte
// alignment), and glibc before 2.38 does not reuse a freed chunk for a memalign request of the
// same size (glibc bug 14581: memalign asks _int_malloc for size + alignment + MINSIZE, which
// the freed chunk of `size` no longer holds). Once the tuning keeps buffers up to 32 MiB in the
// heap instead of mmap, a loop that allocates and frees the same sizes every step moves the
// heap's top up by its whole working set each step: the samplers' oracle test grew 12 MB a
// step, to 3.4 GB in one 256-step run and 10-19 GB over the file, where its tensors held under
// 10 MB. A plain malloc of the same request is served from the chunk the last step freed.
// The buffer is malloc(n + 64) rounded up to 64 bytes, with the malloc'd pointer stored just
// below it, so one pointer frees it and the allocator keeps c10's raw_allocate contract
// (data == context).
// Buffers of kBigBuffer bytes or more are above glibc's largest mmap threshold (32 MiB on 64-bit
// builds), so malloc maps them afresh and free unmaps them: every step that forms one faults it
// in page by page again. On this project's 2-core VM that costs more than the work on it (a fresh
// float32 [64, 784, 256] exp: 204 ms, into a buffer already faulted in: 51 ms). Freed buffers that
// large are kept, up to kBigBufferCache bytes or an eighth of the machine's memory, whichever is
// less (SJD_BIG_BUFFER_CACHE_MB to change, 0: none), and a
// request takes the smallest kept one that holds it with at most an eighth to spare; the oldest
// go back to the system first when the cap is reached.
#include <c10/core/CPUAllocator.h>
#include <c10/core/alignment.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "common.h"

namespace sjd {

static constexpr std::size_t kAlign = c10::gAlignment;  // 64 (16 on mobile builds)
static_assert(kAlign >= 2 * sizeof(void*) && sizeof(std::size_t) == sizeof(void*) && (kAlign & (kAlign - 1)) == 0);

static constexpr std::size_t kBigBuffer = std::size_t{32} << 20;
static constexpr std::size_t kBigBufferCache = std::size_t{1} << 30;

// The kept big buffers, oldest first, and their bytes; cap fixed at install.
struct BigBuffer {
  void* raw;
  std::size_t size;  // the bytes asked of malloc
};
static std::mutex gBigMutex;
static std::vector<BigBuffer> gKept;
static std::size_t gKeptBytes = 0;
static std::size_t gKeepCap = kBigBufferCache;

// The header below data: the malloc'd pointer at [-1], the bytes asked of malloc at [-2] (data
// is at least 16 bytes above the pointer: malloc aligns to 16, data to 64).
static void* Raw(void* data) { return static_cast<void**>(data)[-1]; }
static std::size_t Size(void* data) { return reinterpret_cast<std::size_t*>(data)[-2]; }

static void FreeAligned(void* data) {
  if (data == nullptr) return;
  const std::size_t size = Size(data);
  if (size >= kBigBuffer && size <= gKeepCap) {
    std::vector<void*> release;
    {
      std::lock_guard<std::mutex> lock(gBigMutex);
      gKept.push_back({Raw(data), size});
      gKeptBytes += size;
      std::size_t drop = 0;
      while (gKeptBytes > gKeepCap) {
        release.push_back(gKept[drop].raw);
        gKeptBytes -= gKept[drop++].size;
      }
      gKept.erase(gKept.begin(), gKept.begin() + static_cast<std::ptrdiff_t>(drop));
    }
    for (void* raw : release) std::free(raw);
    return;
  }
  std::free(Raw(data));
}

// A kept buffer of size in [need, need + need / 8], the smallest; nullptr if none.
static BigBuffer TakeKept(std::size_t need) {
  std::lock_guard<std::mutex> lock(gBigMutex);
  auto best = gKept.end();
  for (auto it = gKept.begin(); it != gKept.end(); ++it)
    if (it->size >= need && it->size - need <= need / 8 && (best == gKept.end() || it->size < best->size))
      best = it;
  if (best == gKept.end()) return {nullptr, 0};
  const BigBuffer b = *best;
  gKept.erase(best);
  gKeptBytes -= b.size;
  return b;
}

struct MallocCpuAllocator final : c10::Allocator {
  static c10::DataPtr Make(std::size_t n) {
    if (n == 0) return {nullptr, nullptr, &FreeAligned, c10::Device(c10::DeviceType::CPU)};
    BigBuffer b{nullptr, n + kAlign};
    if (b.size >= kBigBuffer) b = TakeKept(n + kAlign);
    if (b.raw == nullptr) b = {std::malloc(n + kAlign), n + kAlign};  // malloc aligns to 16
    TORCH_CHECK(b.raw != nullptr, "sjd: not enough memory: tried to allocate ", n, " bytes");
    const auto at = (reinterpret_cast<std::uintptr_t>(b.raw) + kAlign) & ~(kAlign - 1);
    void* data = reinterpret_cast<void*>(at);
    static_cast<void**>(data)[-1] = b.raw;
    reinterpret_cast<std::size_t*>(data)[-2] = b.size;
    return {data, data, &FreeAligned, c10::Device(c10::DeviceType::CPU)};
  }
  // libtorch 1.x declares allocate const and 2.3+ not: whichever is the base's overrides it,
  // the other is an unused overload. copy_data is pure in 2.2+ and unused before.
  c10::DataPtr allocate(std::size_t n) const { return Make(n); }
  c10::DataPtr allocate(std::size_t n) { return Make(n); }
  void copy_data(void* dest, const void* src, std::size_t count) const {
    std::memcpy(dest, src, count);
  }
  c10::DeleterFnPtr raw_deleter() const override { return &FreeAligned; }
};

void InstallCpuAllocator() {
  static MallocCpuAllocator allocator;
  // src/torch/native.ts refuses a value that is not a whole number of MiB before the addon loads
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    gKeepCap = std::min(kBigBufferCache, static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 8);
  const char* cap = std::getenv("SJD_BIG_BUFFER_CACHE_MB");
  if (cap != nullptr) gKeepCap = static_cast<std::size_t>(std::strtoull(cap, nullptr, 10)) << 20;
  c10::SetCPUAllocator(&allocator);
}

BigBufferStats KeptBigBuffers() {
  std::lock_guard<std::mutex> lock(gBigMutex);
  return {gKeepCap, gKeptBytes};
}

}  // namespace sjd

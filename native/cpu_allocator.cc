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
#include <c10/core/CPUAllocator.h>
#include <c10/core/alignment.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "common.h"

namespace sjd {

static constexpr std::size_t kAlign = c10::gAlignment;  // 64 (16 on mobile builds)
static_assert(kAlign >= 2 * sizeof(void*) && (kAlign & (kAlign - 1)) == 0);

static void FreeAligned(void* data) {
  if (data != nullptr) std::free(static_cast<void**>(data)[-1]);
}

struct MallocCpuAllocator final : c10::Allocator {
  static c10::DataPtr Make(std::size_t n) {
    if (n == 0) return {nullptr, nullptr, &FreeAligned, c10::Device(c10::DeviceType::CPU)};
    void* raw = std::malloc(n + kAlign);  // malloc's 16-byte alignment: >= 16 bytes below data
    TORCH_CHECK(raw != nullptr, "sjd: not enough memory: tried to allocate ", n, " bytes");
    const auto at = (reinterpret_cast<std::uintptr_t>(raw) + kAlign) & ~(kAlign - 1);
    void* data = reinterpret_cast<void*>(at);
    static_cast<void**>(data)[-1] = raw;
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
  c10::SetCPUAllocator(&allocator);
}

}  // namespace sjd

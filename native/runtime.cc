// Process-wide settings of the sjd libtorch addon (DESIGN.md §3): libtorch's and OpenBLAS's
// thread counts, TensorFloat-32, autocast, glibc's malloc tuning, and the version report that
// names them.
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/autocast_mode.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <malloc.h>

#include <cstdlib>
#include <string>

#include "common.h"

namespace sjd {

// OpenBLAS (Debian's BLAS for libtorch with libopenblas0-pthread) keeps a pool of its own
// worker threads that at::set_num_threads does not reach: with 2 cores, a 1-thread job still
// splits its matrix products in two, and the idle worker spins in sched_yield between them,
// taking about a third of a core from whatever else runs. Its count follows ours. Found by
// name in the already-loaded library (RTLD_NOLOAD): another BLAS is left alone.
static void* OpenBlasSymbol(const char* name) {
  static void* lib = dlopen("libopenblas.so.0", RTLD_LAZY | RTLD_NOLOAD);
  return lib == nullptr ? nullptr : dlsym(lib, name);
}

static Napi::Value SetNumThreads(const Napi::CallbackInfo& info) {
  int64_t n = ArgInt(info, 0, "threads");
  if (n < 1 || n > 1024) throw Napi::RangeError::New(info.Env(), "threads: must be between 1 and 1024");
  at::set_num_threads(static_cast<int>(n));
  if (auto set = reinterpret_cast<void (*)(int)>(OpenBlasSymbol("openblas_set_num_threads"))) set(static_cast<int>(n));
  return info.Env().Undefined();
}

// The thread count of this thread's next OpenMP parallel regions (libtorch's element-wise and
// reduction kernels under an OpenMP build) and of OpenBLAS's matrix products, and nothing else:
// no worker pool is rebuilt, where setNumThreads rebuilds libtorch's (about 0.7 ms). For small
// work between large ones: a small product that OpenBLAS splits must first wake workers that
// went to sleep after the large ones (about 0.25 ms here, against 35 us for the product alone).
// Returns the OpenMP count before, or 0 where libtorch's threads are not OpenMP's (then nothing
// changes).
static Napi::Value SetParallelThreads(const Napi::CallbackInfo& info) {
  int64_t n = ArgInt(info, 0, "threads");
  if (n < 1 || n > 1024) throw Napi::RangeError::New(info.Env(), "threads: must be between 1 and 1024");
  static auto set = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  static auto get = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (set == nullptr || get == nullptr) return Napi::Number::New(info.Env(), 0);
  int before = get();
  set(static_cast<int>(n));
  if (auto blas = reinterpret_cast<void (*)(int)>(OpenBlasSymbol("openblas_set_num_threads"))) blas(static_cast<int>(n));
  return Napi::Number::New(info.Env(), before);
}

static Napi::Value GetNumThreads(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), at::get_num_threads());
}

// OpenBLAS's thread count, or 0 when the BLAS in use is not OpenBLAS.
static Napi::Value GetBlasThreads(const Napi::CallbackInfo& info) {
  auto get = reinterpret_cast<int (*)()>(OpenBlasSymbol("openblas_get_num_threads"));
  return Napi::Number::New(info.Env(), get == nullptr ? 0 : get());
}

// TensorFloat-32 for float32 matrix products and convolutions on NVIDIA GPUs (Ampere and
// later): PyTorch's torch.backends.{cuda.matmul,cudnn}.allow_tf32. No effect on the CPU.
static Napi::Value SetAllowTF32(const Napi::CallbackInfo& info) {
  if (info.Length() < 1 || !info[0].IsBoolean()) throw Napi::TypeError::New(info.Env(), "allowTF32: expected a boolean");
  bool on = info[0].As<Napi::Boolean>().Value();
  at::globalContext().setAllowTF32CuBLAS(on);
  at::globalContext().setAllowTF32CuDNN(on);
  return info.Env().Undefined();
}

static Napi::Value GetAllowTF32(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), at::globalContext().allowTF32CuBLAS());
}

// Autocast (PyTorch's torch.autocast) on this thread, CPU and CUDA alike: matrix products and
// convolutions run in the lower-precision dtype, float64 tensors are left alone (ATen's rule),
// the rest as they are. setAutocast(dtype) turns it on, setAutocast(null) off, returning what
// was on before, so that a scope can restore it. Casts of weights are cached while it is on;
// the cache is cleared whenever it goes off, or the next step would read weights from before
// the optimiser's update.
static Napi::Value AutocastState(Napi::Env env) {
  if (!at::autocast::is_cpu_enabled()) return env.Null();
  return Napi::String::New(env, DtypeName(at::autocast::get_autocast_cpu_dtype()));
}

static Napi::Value SetAutocast(const Napi::CallbackInfo& info) {
  Napi::Value before = AutocastState(info.Env());
  if (info.Length() < 1 || info[0].IsNull() || info[0].IsUndefined()) {
    at::autocast::set_cpu_enabled(false);
    at::autocast::set_enabled(false);
    at::autocast::clear_cache();
    return before;
  }
  if (!info[0].IsString()) throw Napi::TypeError::New(info.Env(), "autocast: expected a dtype name or null");
  const at::ScalarType dt = ParseDtype(info[0].As<Napi::String>().Utf8Value());
  if (dt != at::kBFloat16 && dt != at::kHalf)
    throw Napi::RangeError::New(info.Env(), "autocast: the dtype must be bfloat16 or float16");
  at::autocast::set_autocast_cpu_dtype(dt);
  at::autocast::set_autocast_gpu_dtype(dt);
  at::autocast::set_cpu_enabled(true);
  at::autocast::set_enabled(at::hasCUDA());
  return before;
}

// glibc's defaults hand every large tensor buffer back to the kernel on free and fault it in
// again on the next step (measured: training steps ~20% slower than PyTorch's). Keep freed
// buffers in the heap instead, and take tensor buffers from plain malloc (cpu_allocator.cc: glibc's
// memalign does not reuse them); SJD_MALLOC_TUNING=0 leaves glibc's defaults and c10's allocator.
// version() reports the settings, so that a reference run (bench/reference.ts) can be given the
// same ones.
// Each malloc arena keeps up to the trim threshold of freed memory, and every thread that
// allocates gets an arena of its own up to glibc's cap (8 a core): the eta = 0.5 oracle test
// under node --test reached 3.1-4.2 GB resident on a 1 GB working set, 1.4 GB with two arenas
// (no slower). Threads that allocated before this runs (OpenBLAS's pool starts when it loads)
// keep theirs: src/torch/native.ts starts the pools at the thread count libtorch is given.
constexpr long kMmapThreshold = 32L << 20;
constexpr long kTrimThreshold = 512L << 20;
constexpr long kTopPad = 64L << 20;
constexpr int kArenaMax = 2;
static bool gMallocTuned = false;

void TuneMalloc() {
  const char* env = std::getenv("SJD_MALLOC_TUNING");
  if (env != nullptr && std::string(env) == "0") return;
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThreshold));
  mallopt(M_TOP_PAD, static_cast<int>(kTopPad));
  mallopt(M_ARENA_MAX, kArenaMax);
  InstallCpuAllocator();  // cpu_allocator.cc: without it the heap grows every step
  gMallocTuned = true;
}

static Napi::Value Version(const Napi::CallbackInfo& info) {
  auto o = Napi::Object::New(info.Env());
  o.Set("torch", TORCH_VERSION);
  o.Set("cuda", at::hasCUDA());
  o.Set("cudaDevices", at::hasCUDA() ? static_cast<double>(at::getNumGPUs()) : 0.0);
  // bfloat16 products in the GPU's hardware: cuDNN 8's bfloat16 convolutions need compute
  // capability 8.0 or later (PyTorch's torch.cuda.is_bf16_supported reads the same)
  o.Set("cudaBf16",
        at::hasCUDA() && at::detail::getCUDAHooks().supportsBFloat16ConvolutionWithCuDNNv8());
  o.Set("config", at::show_config());
  if (gMallocTuned) {
    auto m = Napi::Object::New(info.Env());
    m.Set("mmapThreshold", static_cast<double>(kMmapThreshold));
    m.Set("trimThreshold", static_cast<double>(kTrimThreshold));
    m.Set("topPad", static_cast<double>(kTopPad));
    m.Set("arenaMax", static_cast<double>(kArenaMax));
    m.Set("allocator", "malloc");
    m.Set("bigBufferCache", static_cast<double>(KeptBigBuffers().cap));
    o.Set("malloc", m);
  } else {
    o.Set("malloc", info.Env().Null());
  }
  return o;
}


void RegisterRuntime(std::vector<Export>& out) {
  out.insert(out.end(), {{"setNumThreads", SetNumThreads},
                         {"setParallelThreads", SetParallelThreads},
                         {"getNumThreads", GetNumThreads},
                         {"getBlasThreads", GetBlasThreads},
                         {"version", Version},
                         {"setAllowTF32", SetAllowTF32},
                         {"getAllowTF32", GetAllowTF32},
                         {"setAutocast", SetAutocast}});
}

}  // namespace sjd

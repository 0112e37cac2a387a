// Module entry of the sjd libtorch addon (DESIGN.md §3): handle wrapping with V8 memory
// accounting, argument decoding, the libtorch-error guard, threads, and the export table.
#include <ATen/Parallel.h>
#include <ATen/autocast_mode.h>
#include <ATen/Version.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <malloc.h>

#include <cmath>
#include <cstdlib>

#include "common.h"

namespace sjd {

namespace {
// Type tags make a handle of the wrong kind (or a foreign External) an error, not a crash.
const napi_type_tag kTensorTag = {0x736a64746e736f72ULL, 0x2d68616e646c6531ULL};

Napi::Value Trampoline(const Napi::CallbackInfo& info) {
  return Guard(info, reinterpret_cast<Fn>(info.Data()));
}
}  // namespace

Napi::Value Guard(const Napi::CallbackInfo& info, Fn fn) {
  try {
    return fn(info);
  } catch (const Napi::Error&) {
    throw;
  } catch (const c10::Error& e) {
    throw Napi::Error::New(info.Env(), e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw Napi::Error::New(info.Env(), e.what());
  }
}

// ---- handles ----

static int64_t NativeBytes(const at::Tensor& t) {
  if (!t.defined() || !t.device().is_cpu()) return 0;
  return static_cast<int64_t>(t.numel()) * static_cast<int64_t>(t.element_size());
}

static int64_t gLiveTensors = 0;     // handles holding a tensor
static int64_t gAccountedBytes = 0;  // native bytes held by live handles
static int64_t gReportedBytes = 0;   // what V8 has been told (napi_adjust_external_memory)

// V8 starts a (concurrent) collection whenever the external memory it was told about grows past
// its last level by a margin. A training step allocates and disposes (tidy) hundreds of MB, so
// reporting every tensor both ways made V8 collect every step, its marking threads competing
// with ATen's for the cores (-20% on the image U-Net's step). V8 is told the live bytes' high-
// water mark instead: raised at once when they grow past it (so tensors left to the GC still
// bring a collection), lowered only after a large drop, which a steady loop does not make.
static constexpr int64_t kReportSlack = int64_t{1} << 30;  // 1 GiB

static void Account(Napi::Env env, int64_t delta) {
  gAccountedBytes += delta;
  const int64_t change = gAccountedBytes > gReportedBytes ? gAccountedBytes - gReportedBytes
                         : gReportedBytes - gAccountedBytes > kReportSlack
                             ? gAccountedBytes - gReportedBytes
                             : 0;
  if (change == 0) return;
  gReportedBytes += change;
  Napi::MemoryManagement::AdjustExternalMemory(env, change);
}

void Release(Napi::Env env, TensorBox* box) {
  if (box->t.defined()) --gLiveTensors;
  if (box->accounted != 0) {
    Account(env, -box->accounted);
    box->accounted = 0;
  }
  box->t = at::Tensor();
}

Napi::Value Wrap(Napi::Env env, at::Tensor t) {
  if (!t.defined()) return env.Null();
  auto* box = new TensorBox{std::move(t), 0};
  box->accounted = NativeBytes(box->t);
  ++gLiveTensors;
  if (box->accounted != 0) Account(env, box->accounted);
  auto ext = Napi::External<TensorBox>::New(env, box, [](Napi::Env e, TensorBox* b) {
    Release(e, b);
    delete b;
  });
  ext.TypeTag(&kTensorTag);
  return ext;
}

bool IsTensor(const Napi::Value& v) {
  return v.IsExternal() && v.As<Napi::External<TensorBox>>().CheckTypeTag(&kTensorTag);
}

const at::Tensor& Unwrap(const Napi::Value& v, const char* what) {
  if (!IsTensor(v)) {
    throw Napi::TypeError::New(v.Env(), std::string(what) + ": expected a tensor");
  }
  const auto* box = v.As<Napi::External<TensorBox>>().Data();
  if (!box->t.defined()) {
    throw Napi::Error::New(v.Env(), std::string(what) + ": tensor was disposed");
  }
  return box->t;
}

Napi::Value WrapList(Napi::Env env, const std::vector<at::Tensor>& ts) {
  auto arr = Napi::Array::New(env, ts.size());
  for (size_t i = 0; i < ts.size(); ++i) arr.Set(i, Wrap(env, ts[i]));
  return arr;
}

std::vector<at::Tensor> UnwrapList(const Napi::Value& v, const char* what) {
  if (!v.IsArray()) throw Napi::TypeError::New(v.Env(), std::string(what) + ": expected an array of tensors");
  auto arr = v.As<Napi::Array>();
  std::vector<at::Tensor> out;
  out.reserve(arr.Length());
  for (uint32_t i = 0; i < arr.Length(); ++i) out.push_back(Unwrap(arr.Get(i), what));
  return out;
}

// ---- argument decoding ----

static Napi::Value At(const Napi::CallbackInfo& info, size_t i) {
  return i < info.Length() ? info[i] : info.Env().Undefined();
}
static bool Missing(const Napi::Value& v) { return v.IsUndefined() || v.IsNull(); }
static Napi::TypeError Bad(const Napi::CallbackInfo& info, const char* name, const char* want) {
  return Napi::TypeError::New(info.Env(), std::string(name) + ": expected " + want);
}

const at::Tensor& ArgT(const Napi::CallbackInfo& info, size_t i, const char* name) {
  return Unwrap(At(info, i), name);
}

c10::optional<at::Tensor> ArgOptT(const Napi::CallbackInfo& info, size_t i) {
  auto v = At(info, i);
  if (Missing(v)) return c10::nullopt;
  return Unwrap(v, "optional tensor");
}

int64_t ArgInt(const Napi::CallbackInfo& info, size_t i, const char* name) {
  auto v = At(info, i);
  if (v.IsBigInt()) {
    bool lossless = true;
    return v.As<Napi::BigInt>().Int64Value(&lossless);
  }
  if (!v.IsNumber()) throw Bad(info, name, "an integer");
  double d = v.As<Napi::Number>().DoubleValue();
  if (d != static_cast<double>(static_cast<int64_t>(d))) throw Bad(info, name, "an integer");
  return static_cast<int64_t>(d);
}

c10::optional<int64_t> ArgOptInt(const Napi::CallbackInfo& info, size_t i) {
  if (Missing(At(info, i))) return c10::nullopt;
  return ArgInt(info, i, "optional integer");
}

double ArgNum(const Napi::CallbackInfo& info, size_t i, const char* name) {
  auto v = At(info, i);
  if (!v.IsNumber()) throw Bad(info, name, "a number");
  return v.As<Napi::Number>().DoubleValue();
}

c10::optional<double> ArgOptNum(const Napi::CallbackInfo& info, size_t i) {
  if (Missing(At(info, i))) return c10::nullopt;
  return ArgNum(info, i, "optional number");
}

bool ArgBool(const Napi::CallbackInfo& info, size_t i, bool dflt) {
  auto v = At(info, i);
  if (Missing(v)) return dflt;
  if (!v.IsBoolean()) throw Bad(info, "flag", "a boolean");
  return v.As<Napi::Boolean>().Value();
}

std::string ArgStr(const Napi::CallbackInfo& info, size_t i, const char* name) {
  auto v = At(info, i);
  if (!v.IsString()) throw Bad(info, name, "a string");
  return v.As<Napi::String>().Utf8Value();
}

std::vector<int64_t> ArgInts(const Napi::CallbackInfo& info, size_t i, const char* name) {
  auto v = At(info, i);
  if (v.IsNumber()) return {ArgInt(info, i, name)};
  if (!v.IsArray()) throw Bad(info, name, "an array of integers");
  auto arr = v.As<Napi::Array>();
  std::vector<int64_t> out(arr.Length());
  for (uint32_t k = 0; k < arr.Length(); ++k) {
    Napi::Value e = arr.Get(k);
    if (!e.IsNumber()) throw Bad(info, name, "an array of integers");
    double d = e.As<Napi::Number>().DoubleValue();
    if (d != static_cast<double>(static_cast<int64_t>(d))) throw Bad(info, name, "an array of integers");
    out[k] = static_cast<int64_t>(d);
  }
  return out;
}

c10::optional<std::vector<int64_t>> ArgOptInts(const Napi::CallbackInfo& info, size_t i) {
  if (Missing(At(info, i))) return c10::nullopt;
  return ArgInts(info, i, "dims");
}

at::Scalar ArgScalar(const Napi::CallbackInfo& info, size_t i, const char* name) {
  auto v = At(info, i);
  if (v.IsBoolean()) return at::Scalar(v.As<Napi::Boolean>().Value());
  if (v.IsBigInt()) {
    bool lossless = true;
    return at::Scalar(static_cast<int64_t>(v.As<Napi::BigInt>().Int64Value(&lossless)));
  }
  if (!v.IsNumber()) throw Bad(info, name, "a number");
  double d = v.As<Napi::Number>().DoubleValue();
  // Integral JS numbers stay integral so that int64 tensors keep their dtype.
  if (std::isfinite(d) && std::abs(d) < 9.0e15 && d == std::floor(d)) {
    return at::Scalar(static_cast<int64_t>(d));
  }
  return at::Scalar(d);
}

at::ScalarType ParseDtype(const std::string& s) {
  if (s == "float32") return at::kFloat;
  if (s == "float64") return at::kDouble;
  if (s == "int64") return at::kLong;
  if (s == "int32") return at::kInt;
  if (s == "bool") return at::kBool;
  if (s == "uint8") return at::kByte;
  if (s == "float16") return at::kHalf;
  if (s == "bfloat16") return at::kBFloat16;
  throw std::invalid_argument("unknown dtype '" + s +
                              "' (expected float32, float64, int64, int32, bool, uint8, float16, bfloat16)");
}

const char* DtypeName(at::ScalarType st) {
  switch (st) {
    case at::kFloat: return "float32";
    case at::kDouble: return "float64";
    case at::kLong: return "int64";
    case at::kInt: return "int32";
    case at::kBool: return "bool";
    case at::kByte: return "uint8";
    case at::kHalf: return "float16";
    case at::kBFloat16: return "bfloat16";
    default: return "other";
  }
}

at::ScalarType ArgDtype(const Napi::CallbackInfo& info, size_t i, at::ScalarType dflt) {
  auto v = At(info, i);
  if (Missing(v)) return dflt;
  return ParseDtype(ArgStr(info, i, "dtype"));
}

// The device of new tensors when a call names none (PyTorch's set_default_device): CPU unless
// `sjd ... --device cuda` chose another (issue 17).
static at::Device gDefaultDevice(at::kCPU);

const at::Device& DefaultDevice() { return gDefaultDevice; }

// A device string checked against this libtorch: "cpu", "cuda" or "cuda:N".
static at::Device CheckedDevice(const std::string& name) {
  if (name != "cpu" && name.rfind("cuda", 0) != 0) {
    throw std::invalid_argument("device '" + name + "': use cpu, cuda or cuda:N");
  }
  at::Device d(name);
  if (d.is_cuda()) {
    if (!at::hasCUDA()) {
      throw std::invalid_argument("device '" + name + "': this libtorch (" TORCH_VERSION
                                  ") has no CUDA; build the addon against a CUDA libtorch (LIBTORCH=...)");
    }
    if (d.has_index() && d.index() >= at::getNumGPUs()) {
      throw std::invalid_argument("device '" + name + "': only " + std::to_string(at::getNumGPUs()) + " CUDA devices");
    }
  }
  return d;
}

at::Device ArgDevice(const Napi::CallbackInfo& info, size_t i) {
  auto v = At(info, i);
  if (Missing(v)) return gDefaultDevice;
  return CheckedDevice(ArgStr(info, i, "device"));
}

static Napi::Value SetDefaultDevice(const Napi::CallbackInfo& info) {
  gDefaultDevice = CheckedDevice(ArgStr(info, 0, "device"));
  return info.Env().Undefined();
}

static Napi::Value GetDefaultDevice(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), gDefaultDevice.str());
}

// ---- runtime ----

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
// buffers in the heap instead; SJD_MALLOC_TUNING=0 leaves glibc's defaults. version() reports
// the settings, so that a reference run (bench/reference.ts) can be given the same ones.
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

static void TuneMalloc() {
  const char* env = std::getenv("SJD_MALLOC_TUNING");
  if (env != nullptr && std::string(env) == "0") return;
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold));
  mallopt(M_TRIM_THRESHOLD, static_cast<int>(kTrimThreshold));
  mallopt(M_TOP_PAD, static_cast<int>(kTopPad));
  mallopt(M_ARENA_MAX, kArenaMax);
  gMallocTuned = true;
}

static Napi::Value MemoryStats(const Napi::CallbackInfo& info) {
  auto o = Napi::Object::New(info.Env());
  o.Set("liveTensors", static_cast<double>(gLiveTensors));
  o.Set("tensorBytes", static_cast<double>(gAccountedBytes));
  return o;
}

static Napi::Value Version(const Napi::CallbackInfo& info) {
  auto o = Napi::Object::New(info.Env());
  o.Set("torch", TORCH_VERSION);
  o.Set("cuda", at::hasCUDA());
  o.Set("cudaDevices", at::hasCUDA() ? static_cast<double>(at::getNumGPUs()) : 0.0);
  o.Set("config", at::show_config());
  if (gMallocTuned) {
    auto m = Napi::Object::New(info.Env());
    m.Set("mmapThreshold", static_cast<double>(kMmapThreshold));
    m.Set("trimThreshold", static_cast<double>(kTrimThreshold));
    m.Set("topPad", static_cast<double>(kTopPad));
    m.Set("arenaMax", static_cast<double>(kArenaMax));
    o.Set("malloc", m);
  } else {
    o.Set("malloc", info.Env().Null());
  }
  return o;
}


Napi::Object Init(Napi::Env env, Napi::Object exports) {
  TuneMalloc();
  std::vector<Export> table = {
      {"setNumThreads", SetNumThreads}, {"getNumThreads", GetNumThreads}, {"getBlasThreads", GetBlasThreads}, {"version", Version}, {"memoryStats", MemoryStats},
      {"setDefaultDevice", SetDefaultDevice}, {"getDefaultDevice", GetDefaultDevice},
      {"setAllowTF32", SetAllowTF32}, {"getAllowTF32", GetAllowTF32}, {"setAutocast", SetAutocast}};
  RegisterTensorIo(table);
  RegisterOps(table);
  RegisterAutograd(table);
  RegisterOptim(table);
  RegisterDistributed(table);
  for (const auto& e : table) {
    exports.Set(e.name, Napi::Function::New(env, Trampoline, e.name, reinterpret_cast<void*>(e.fn)));
  }
  return exports;
}

}  // namespace sjd

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return sjd::Init(env, exports); }

NODE_API_MODULE(sjd_torch, InitAddon)

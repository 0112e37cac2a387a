// Module entry of the sjd libtorch addon (DESIGN.md §3): handle wrapping with V8 memory
// accounting, argument decoding, the libtorch-error guard, the default device, and the export
// table (the process-wide settings are runtime.cc's).
#include <torch/version.h>

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
    int64_t n = v.As<Napi::BigInt>().Int64Value(&lossless);
    if (!lossless) throw Bad(info, name, "an integer within int64");
    return n;
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
    int64_t n = v.As<Napi::BigInt>().Int64Value(&lossless);
    if (!lossless) throw Bad(info, name, "an integer within int64");
    return at::Scalar(n);
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

static Napi::Value MemoryStats(const Napi::CallbackInfo& info) {
  auto o = Napi::Object::New(info.Env());
  o.Set("liveTensors", static_cast<double>(gLiveTensors));
  o.Set("tensorBytes", static_cast<double>(gAccountedBytes));
  o.Set("keptBigBuffers", static_cast<double>(KeptBigBuffers().kept));
  return o;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  TuneMalloc();
  std::vector<Export> table = {
      {"memoryStats", MemoryStats}, {"setDefaultDevice", SetDefaultDevice},
      {"getDefaultDevice", GetDefaultDevice}};
  RegisterRuntime(table);
  RegisterTensorIo(table);
  RegisterRandom(table);
  RegisterOps(table);
  RegisterAutograd(table);
  RegisterOptim(table);
  RegisterDistributed(table);
  RegisterProfiler(table);
  for (const auto& e : table) {
    exports.Set(e.name, Napi::Function::New(env, Trampoline, e.name, reinterpret_cast<void*>(e.fn)));
  }
  return exports;
}

}  // namespace sjd

static Napi::Object InitAddon(Napi::Env env, Napi::Object exports) { return sjd::Init(env, exports); }

NODE_API_MODULE(sjd_torch, InitAddon)

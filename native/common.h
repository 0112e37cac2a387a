// Shared plumbing of the sjd libtorch addon (DESIGN.md §3): opaque tensor handles, argument
// decoding and the error guard. The addon is a thin layer over ATen: no math of our own.
//
// A tensor crosses into JavaScript as a Napi::External<TensorBox>. The box owns one
// at::Tensor; `dispose` releases it early, the GC finaliser releases it otherwise, and V8 is
// told the native byte size both ways (napi_adjust_external_memory).
#pragma once

#include <ATen/ATen.h>
#include <napi.h>

#include <c10/util/Optional.h>
#include <string>
#include <vector>

namespace sjd {

struct TensorBox {
  at::Tensor t;
  int64_t accounted = 0;  // bytes reported to V8 for this handle
};

// Every exported function runs inside this guard: libtorch errors (c10::Error) become a
// JavaScript Error with libtorch's message (without its C++ backtrace).
Napi::Value Guard(const Napi::CallbackInfo& info, Napi::Value (*fn)(const Napi::CallbackInfo&));

// Registration table: each translation unit contributes its exports.
using Fn = Napi::Value (*)(const Napi::CallbackInfo&);
struct Export {
  const char* name;
  Fn fn;
};
void RegisterRuntime(std::vector<Export>& out);  // runtime.cc
void TuneMalloc();  // runtime.cc: glibc's malloc settings, once at load
void InstallCpuAllocator();  // cpu_allocator.cc: CPU tensor buffers from plain malloc
struct BigBufferStats {
  std::size_t cap;   // the most bytes of freed big buffers kept
  std::size_t kept;  // the bytes kept now
};
BigBufferStats KeptBigBuffers();  // cpu_allocator.cc
// categorical_draw.cc: at::multinomial(probs, 1, false, gen)'s draws for float64 CPU probs [N?, K]
bool CanDrawCategorical(const at::Tensor& probs);
at::Tensor DrawCategorical(const at::Tensor& probs, at::Generator& gen);
void RegisterTensorIo(std::vector<Export>& out);
void RegisterRandom(std::vector<Export>& out);  // random.cc
void RegisterOps(std::vector<Export>& out);
void RegisterAutograd(std::vector<Export>& out);
void RegisterOptim(std::vector<Export>& out);
void RegisterDistributed(std::vector<Export>& out);
void RegisterProfiler(std::vector<Export>& out);  // profiler.cc

// ---- handles ----
Napi::Value Wrap(Napi::Env env, at::Tensor t);  // undefined tensor -> null
const at::Tensor& Unwrap(const Napi::Value& v, const char* what = "tensor");
bool IsTensor(const Napi::Value& v);
void Release(Napi::Env env, TensorBox* box);
Napi::Value WrapList(Napi::Env env, const std::vector<at::Tensor>& ts);
std::vector<at::Tensor> UnwrapList(const Napi::Value& v, const char* what = "tensors");

// ---- argument decoding (throw Napi::TypeError naming the argument) ----
const at::Tensor& ArgT(const Napi::CallbackInfo& info, size_t i, const char* name);
c10::optional<at::Tensor> ArgOptT(const Napi::CallbackInfo& info, size_t i);
int64_t ArgInt(const Napi::CallbackInfo& info, size_t i, const char* name);
c10::optional<int64_t> ArgOptInt(const Napi::CallbackInfo& info, size_t i);
double ArgNum(const Napi::CallbackInfo& info, size_t i, const char* name);
c10::optional<double> ArgOptNum(const Napi::CallbackInfo& info, size_t i);
bool ArgBool(const Napi::CallbackInfo& info, size_t i, bool dflt);
std::string ArgStr(const Napi::CallbackInfo& info, size_t i, const char* name);
std::vector<int64_t> ArgInts(const Napi::CallbackInfo& info, size_t i, const char* name);
c10::optional<std::vector<int64_t>> ArgOptInts(const Napi::CallbackInfo& info, size_t i);
at::Scalar ArgScalar(const Napi::CallbackInfo& info, size_t i, const char* name);
at::ScalarType ArgDtype(const Napi::CallbackInfo& info, size_t i, at::ScalarType dflt);
at::Device ArgDevice(const Napi::CallbackInfo& info, size_t i);  // missing -> DefaultDevice()
const at::Device& DefaultDevice();
at::ScalarType ParseDtype(const std::string& s);
const char* DtypeName(at::ScalarType st);

}  // namespace sjd

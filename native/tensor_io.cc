// Tensors in and out of JavaScript (DESIGN.md §3): typed arrays and raw bytes, shape/dtype/
// device queries, printing, factories and devices (random.cc has the seeded draws).
#include <cstring>
#include <sstream>

#include "common.h"

namespace sjd {

namespace {

at::ScalarType TypedArrayDtype(napi_typedarray_type t) {
  switch (t) {
    case napi_float32_array: return at::kFloat;
    case napi_float64_array: return at::kDouble;
    case napi_bigint64_array: return at::kLong;
    case napi_int32_array: return at::kInt;
    case napi_uint8_array: return at::kByte;
    default: throw std::invalid_argument("unsupported typed array (use Float32Array, Float64Array, BigInt64Array, Int32Array or Uint8Array)");
  }
}

int64_t Numel(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (auto d : shape) {
    if (d < 0) throw std::invalid_argument("shape: negative dimension");
    n *= d;
  }
  return n;
}

// fromTyped(typedArray, shape, dtype?) -> tensor (copied: JS memory stays JS-owned)
Napi::Value FromTyped(const Napi::CallbackInfo& info) {
  if (!info[0].IsTypedArray()) throw Napi::TypeError::New(info.Env(), "data: expected a typed array");
  auto ta = info[0].As<Napi::TypedArray>();
  auto src = TypedArrayDtype(ta.TypedArrayType());
  auto shape = ArgInts(info, 1, "shape");
  if (Numel(shape) != static_cast<int64_t>(ta.ElementLength())) {
    throw std::invalid_argument("shape does not match data: " + std::to_string(Numel(shape)) +
                                " elements for " + std::to_string(ta.ElementLength()) + " values");
  }
  auto dst = ArgDtype(info, 2, src);
  if (dst == at::kBool && src == at::kByte) src = at::kBool;
  auto t = at::empty(shape, at::TensorOptions().dtype(src));
  const auto* base = static_cast<const uint8_t*>(ta.ArrayBuffer().Data()) + ta.ByteOffset();
  if (ta.ByteLength() > 0) std::memcpy(t.data_ptr(), base, ta.ByteLength());
  return Wrap(info.Env(), t.to(DefaultDevice(), dst));
}

// fromBytes(uint8Array, dtype, shape) -> tensor; raw little-endian bytes of any dtype
Napi::Value FromBytes(const Napi::CallbackInfo& info) {
  if (!info[0].IsTypedArray()) throw Napi::TypeError::New(info.Env(), "bytes: expected a Uint8Array");
  auto ta = info[0].As<Napi::TypedArray>();
  auto dtype = ParseDtype(ArgStr(info, 1, "dtype"));
  auto shape = ArgInts(info, 2, "shape");
  auto t = at::empty(shape, at::TensorOptions().dtype(dtype));
  if (static_cast<size_t>(t.nbytes()) != ta.ByteLength()) {
    throw std::invalid_argument("bytes: " + std::to_string(ta.ByteLength()) + " bytes for a tensor of " +
                                std::to_string(t.nbytes()));
  }
  const auto* base = static_cast<const uint8_t*>(ta.ArrayBuffer().Data()) + ta.ByteOffset();
  if (ta.ByteLength() > 0) std::memcpy(t.data_ptr(), base, ta.ByteLength());
  return Wrap(info.Env(), t.to(DefaultDevice()));
}

// A zero-copy view of a contiguous CPU tensor's memory; the ArrayBuffer keeps the storage alive.
Napi::ArrayBuffer ExternalBuffer(Napi::Env env, const at::Tensor& src) {
  auto* keep = new at::Tensor(src.device().is_cpu() ? src.contiguous() : src.to(at::kCPU).contiguous());
  if (keep->nbytes() == 0) {
    delete keep;
    return Napi::ArrayBuffer::New(env, 0);
  }
  return Napi::ArrayBuffer::New(env, keep->data_ptr(), keep->nbytes(),
                                [](Napi::Env, void*, at::Tensor* t) { delete t; }, keep);
}

// view(t) -> typed array aliasing the tensor (copied first if not contiguous or not on CPU)
Napi::Value View(const Napi::CallbackInfo& info) {
  const auto& t = ArgT(info, 0, "tensor");
  auto env = info.Env();
  auto buf = ExternalBuffer(env, t.detach());
  size_t n = static_cast<size_t>(t.numel());
  switch (t.scalar_type()) {
    case at::kFloat: return Napi::Float32Array::New(env, n, buf, 0);
    case at::kDouble: return Napi::Float64Array::New(env, n, buf, 0);
    case at::kLong: return Napi::TypedArrayOf<int64_t>::New(env, n, buf, 0, napi_bigint64_array);
    case at::kInt: return Napi::Int32Array::New(env, n, buf, 0);
    case at::kBool:
    case at::kByte: return Napi::Uint8Array::New(env, n, buf, 0);
    case at::kHalf:
    case at::kBFloat16: return Napi::Uint16Array::New(env, n, buf, 0);
    default: throw std::invalid_argument("view: unsupported dtype");
  }
}

// bytes(t) -> Uint8Array of the raw little-endian bytes (zero-copy when contiguous on CPU)
Napi::Value Bytes(const Napi::CallbackInfo& info) {
  const auto& t = ArgT(info, 0, "tensor");
  auto buf = ExternalBuffer(info.Env(), t.detach());
  return Napi::Uint8Array::New(info.Env(), buf.ByteLength(), buf, 0);
}

Napi::Value Item(const Napi::CallbackInfo& info) {
  const auto& t = ArgT(info, 0, "tensor");
  if (t.numel() != 1) {
    throw std::invalid_argument("item: tensor has " + std::to_string(t.numel()) + " elements, expected 1");
  }
  if (t.scalar_type() == at::kBool) return Napi::Boolean::New(info.Env(), t.item<bool>());
  return Napi::Number::New(info.Env(), t.item<double>());
}

Napi::Value Info(const Napi::CallbackInfo& info) {
  const auto& t = ArgT(info, 0, "tensor");
  auto env = info.Env();
  auto o = Napi::Object::New(env);
  auto shape = Napi::Array::New(env, t.dim());
  for (int64_t i = 0; i < t.dim(); ++i) shape.Set(static_cast<uint32_t>(i), static_cast<double>(t.size(i)));
  o.Set("shape", shape);
  o.Set("dtype", DtypeName(t.scalar_type()));
  o.Set("device", t.device().str());
  o.Set("requiresGrad", t.requires_grad());
  return o;
}

Napi::Value Shape(const Napi::CallbackInfo& info) {
  const auto& t = ArgT(info, 0, "tensor");
  auto shape = Napi::Array::New(info.Env(), t.dim());
  for (int64_t i = 0; i < t.dim(); ++i) shape.Set(static_cast<uint32_t>(i), static_cast<double>(t.size(i)));
  return shape;
}

Napi::Value Dtype(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), DtypeName(ArgT(info, 0, "tensor").scalar_type()));
}

Napi::Value DeviceOf(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), ArgT(info, 0, "tensor").device().str());
}

Napi::Value ToString(const Napi::CallbackInfo& info) {
  std::ostringstream os;
  os << ArgT(info, 0, "tensor");
  return Napi::String::New(info.Env(), os.str());
}

Napi::Value Dispose(const Napi::CallbackInfo& info) {
  auto v = info[0];
  if (!IsTensor(v)) throw Napi::TypeError::New(info.Env(), "dispose: expected a tensor");
  Release(info.Env(), v.As<Napi::External<TensorBox>>().Data());
  return info.Env().Undefined();
}

Napi::Value IsDisposed(const Napi::CallbackInfo& info) {
  auto v = info[0];
  if (!IsTensor(v)) throw Napi::TypeError::New(info.Env(), "isDisposed: expected a tensor");
  return Napi::Boolean::New(info.Env(), !v.As<Napi::External<TensorBox>>().Data()->t.defined());
}

at::TensorOptions Opts(const Napi::CallbackInfo& info, size_t dtypeAt, at::ScalarType dflt) {
  return at::TensorOptions().dtype(ArgDtype(info, dtypeAt, dflt)).device(ArgDevice(info, dtypeAt + 1));
}

// zeros/ones/empty(shape, dtype?, device?)
Napi::Value Zeros(const Napi::CallbackInfo& info) {
  return Wrap(info.Env(), at::zeros(ArgInts(info, 0, "shape"), Opts(info, 1, at::kFloat)));
}
Napi::Value Ones(const Napi::CallbackInfo& info) {
  return Wrap(info.Env(), at::ones(ArgInts(info, 0, "shape"), Opts(info, 1, at::kFloat)));
}
// full(shape, value, dtype?, device?)
Napi::Value Full(const Napi::CallbackInfo& info) {
  return Wrap(info.Env(), at::full(ArgInts(info, 0, "shape"), ArgScalar(info, 1, "value"), Opts(info, 2, at::kFloat)));
}
// arange(start, end, step, dtype?, device?)
Napi::Value Arange(const Napi::CallbackInfo& info) {
  return Wrap(info.Env(), at::arange(ArgScalar(info, 0, "start"), ArgScalar(info, 1, "end"), ArgScalar(info, 2, "step"),
                                     Opts(info, 3, at::kLong)));
}
// linspace(start, end, steps, dtype?, device?)
Napi::Value Linspace(const Napi::CallbackInfo& info) {
  return Wrap(info.Env(), at::linspace(ArgScalar(info, 0, "start"), ArgScalar(info, 1, "end"), ArgInt(info, 2, "steps"),
                                       Opts(info, 3, at::kFloat)));
}
// eye(n, dtype?, device?)
Napi::Value Eye(const Napi::CallbackInfo& info) {
  return Wrap(info.Env(), at::eye(ArgInt(info, 0, "n"), Opts(info, 1, at::kFloat)));
}

// to(t, dtype?, device?)
Napi::Value To(const Napi::CallbackInfo& info) {
  const auto& t = ArgT(info, 0, "tensor");
  auto dtype = ArgDtype(info, 1, t.scalar_type());
  auto device = info.Length() > 2 && !info[2].IsUndefined() ? ArgDevice(info, 2) : t.device();
  return Wrap(info.Env(), t.to(device, dtype));
}

}  // namespace

void RegisterTensorIo(std::vector<Export>& out) {
  out.insert(out.end(), {
                            {"fromTyped", FromTyped},     {"fromBytes", FromBytes},   {"toTyped", View},
                            {"bytes", Bytes},             {"item", Item},             {"info", Info},
                            {"shape", Shape},             {"dtype", Dtype},           {"device", DeviceOf},
                            {"format", ToString},       {"dispose", Dispose},       {"isDisposed", IsDisposed},
                            {"zeros", Zeros},             {"ones", Ones},             {"full", Full},
                            {"arange", Arange},           {"linspace", Linspace},     {"eye", Eye},
                            {"to", To},
                        });
}

}  // namespace sjd

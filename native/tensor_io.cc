// Tensors in and out of JavaScript (DESIGN.md §3): typed arrays and raw bytes, shape/dtype/
// device queries, printing, factories, devices, and seeded random draws. Random draws run on
// an explicit CPU generator (one per run, DESIGN.md §4) and move to the requested device, so a
// seed gives the same numbers on every machine.
#include <ATen/CPUGeneratorImpl.h>

#include <cstring>
#include <sstream>

#include "common.h"

namespace sjd {

namespace {
const napi_type_tag kGenTag = {0x736a6467656e6572ULL, 0x61746f7268616e64ULL};

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

// ---- generators ----

// MT19937 seeded from a key of 32-bit words by the reference init_by_array (Matsumoto and
// Nishimura, 2002; Python's random.seed of a big integer), so that every bit of the key counts:
// libtorch's own seeding keeps a seed's low 32 bits only.
at::mt19937 EngineFromKey(const std::vector<uint32_t>& key, uint64_t seed) {
  constexpr int N = 624;
  at::mt19937 engine(19650218);  // init_genrand(19650218)
  auto d = engine.data();
  uint32_t* mt = d.state_.data();
  const int n = static_cast<int>(key.size());
  int i = 1, j = 0;
  for (int k = N > n ? N : n; k; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + j;
    if (++i >= N) { mt[0] = mt[N - 1]; i = 1; }
    if (++j >= n) j = 0;
  }
  for (int k = N - 1; k; k--) {
    mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - i;
    if (++i >= N) { mt[0] = mt[N - 1]; i = 1; }
  }
  mt[0] = 0x80000000U;
  d.seed_ = seed;
  d.seeded_ = true;
  d.left_ = 1;
  d.next_ = 0;
  engine.set_data(d);
  return engine;
}

// newGenerator(seed): a number or an int64 bigint seeds as torch.manual_seed does (its low 32
// bits); a bigint of 2^32 or more is a key whose every 32-bit word seeds the engine (EngineFromKey).
Napi::Value NewGenerator(const Napi::CallbackInfo& info) {
  std::vector<uint32_t> key;
  if (info.Length() > 0 && info[0].IsBigInt()) {
    auto big = info[0].As<Napi::BigInt>();
    size_t count = big.WordCount();  // 0 for 0n, whose words V8 refuses to give
    std::vector<uint64_t> words(count);
    int negative = 0;
    if (count > 0) big.ToWords(&negative, &count, words.data());
    if (!negative && count > 0 && (count > 1 || words[0] > 0xffffffffULL)) {
      for (size_t w = 0; w < count; w++) {
        key.push_back(static_cast<uint32_t>(words[w]));
        key.push_back(static_cast<uint32_t>(words[w] >> 32));
      }
      while (key.back() == 0) key.pop_back();
      if (key.size() > 624) throw Napi::RangeError::New(info.Env(), "seed: a key of at most 624 32-bit words");
    }
  }
  auto seed = key.empty() ? static_cast<uint64_t>(ArgInt(info, 0, "seed")) : (uint64_t{key[1]} << 32 | key[0]);
  auto* g = new at::Generator(at::make_generator<at::CPUGeneratorImpl>(seed));
  if (!key.empty()) g->get<at::CPUGeneratorImpl>()->set_engine(EngineFromKey(key, seed));
  auto ext = Napi::External<at::Generator>::New(info.Env(), g, [](Napi::Env, at::Generator* p) { delete p; });
  ext.TypeTag(&kGenTag);
  return ext;
}

at::Generator& UnwrapGen(const Napi::Value& v) {
  if (!v.IsExternal() || !v.As<Napi::External<at::Generator>>().CheckTypeTag(&kGenTag)) {
    throw Napi::TypeError::New(v.Env(), "generator: expected a generator");
  }
  return *v.As<Napi::External<at::Generator>>().Data();
}

Napi::Value GenGetState(const Napi::CallbackInfo& info) {
  auto& g = UnwrapGen(info[0]);
  std::lock_guard<std::mutex> lock(g.mutex());
  return Wrap(info.Env(), g.get_state());
}

Napi::Value GenSetState(const Napi::CallbackInfo& info) {
  auto& g = UnwrapGen(info[0]);
  const auto& state = ArgT(info, 1, "state");
  auto cpu = state.to(at::kCPU);  // checkpoints may load onto another device
  std::lock_guard<std::mutex> lock(g.mutex());
  g.set_state(cpu);
  return info.Env().Undefined();
}

at::Tensor OnDevice(const at::Tensor& t, const at::Device& d) { return d.is_cpu() ? t : t.to(d); }

// rand/randn(shape, gen, dtype?, device?)
Napi::Value Rand(const Napi::CallbackInfo& info) {
  auto& g = UnwrapGen(info[1]);
  auto t = at::rand(ArgInts(info, 0, "shape"), g, at::TensorOptions().dtype(ArgDtype(info, 2, at::kFloat)));
  return Wrap(info.Env(), OnDevice(t, ArgDevice(info, 3)));
}
Napi::Value Randn(const Napi::CallbackInfo& info) {
  auto& g = UnwrapGen(info[1]);
  auto t = at::randn(ArgInts(info, 0, "shape"), g, at::TensorOptions().dtype(ArgDtype(info, 2, at::kFloat)));
  return Wrap(info.Env(), OnDevice(t, ArgDevice(info, 3)));
}
// randnRows(gens, counts, tail, dtype?) -> [sum counts, ...tail] on the default device: row r's
// counts[r] draws from gens[r], each the numbers randn([counts[r], ...tail], gens[r]) gives, in row
// order; one call for a batch whose rows each draw from a generator of their own
// (sampling/step-random.ts), where a call a row cost about 15 us each.
Napi::Value RandnRows(const Napi::CallbackInfo& info) {
  if (!info[0].IsArray()) throw Napi::TypeError::New(info.Env(), "randnRows: gens must be an array");
  auto gens = info[0].As<Napi::Array>();
  auto counts = ArgInts(info, 1, "counts");
  auto tail = ArgInts(info, 2, "tail");
  if (counts.size() != gens.Length())
    throw Napi::RangeError::New(info.Env(), "randnRows: one count a generator");
  auto opts = at::TensorOptions().dtype(ArgDtype(info, 3, at::kFloat));
  std::vector<at::Tensor> parts;
  for (uint32_t r = 0; r < gens.Length(); r++) {
    if (counts[r] < 0) throw Napi::RangeError::New(info.Env(), "randnRows: counts must be >= 0");
    if (counts[r] == 0) continue;  // draws nothing, as randn of no elements
    std::vector<int64_t> shape{counts[r]};
    shape.insert(shape.end(), tail.begin(), tail.end());
    parts.push_back(at::randn(shape, UnwrapGen(gens.Get(r)), opts));
  }
  std::vector<int64_t> none{0};
  none.insert(none.end(), tail.begin(), tail.end());
  auto out = parts.empty() ? at::empty(none, opts) : parts.size() == 1 ? parts[0] : at::cat(parts);
  return Wrap(info.Env(), OnDevice(out, ArgDevice(info, 4)));
}
// randint(low, high, shape, gen, device?) -> int64
Napi::Value Randint(const Napi::CallbackInfo& info) {
  auto& g = UnwrapGen(info[3]);
  auto t = at::randint(ArgInt(info, 0, "low"), ArgInt(info, 1, "high"), ArgInts(info, 2, "shape"), g,
                       at::TensorOptions().dtype(at::kLong));
  return Wrap(info.Env(), OnDevice(t, ArgDevice(info, 4)));
}
// randperm(n, gen, device?)
Napi::Value Randperm(const Napi::CallbackInfo& info) {
  auto& g = UnwrapGen(info[1]);
  auto t = at::randperm(ArgInt(info, 0, "n"), g, at::TensorOptions().dtype(at::kLong));
  return Wrap(info.Env(), OnDevice(t, ArgDevice(info, 2)));
}
// bernoulli(p, gen) -> same dtype as p, 0/1
Napi::Value Bernoulli(const Napi::CallbackInfo& info) {
  const auto& p = ArgT(info, 0, "p");
  auto& g = UnwrapGen(info[1]);
  return Wrap(info.Env(), OnDevice(at::bernoulli(p.to(at::kCPU), g), p.device()));
}
// multinomial(probs [N?, K], n, replacement, gen) -> int64 [N?, n]; one draw a row without
// replacement from float64 probabilities goes through DrawCategorical (categorical_draw.cc):
// libtorch's draws, faster
Napi::Value Multinomial(const Napi::CallbackInfo& info) {
  const auto& p = ArgT(info, 0, "probs");
  auto& g = UnwrapGen(info[3]);
  const auto n = ArgInt(info, 1, "n");
  const auto replacement = ArgBool(info, 2, false);
  const auto cpu = p.to(at::kCPU);
  auto t = n == 1 && !replacement && CanDrawCategorical(cpu) ? DrawCategorical(cpu, g)
                                                              : at::multinomial(cpu, n, replacement, g);
  return Wrap(info.Env(), OnDevice(t, p.device()));
}
// dropout(x, p, train, gen): inverted dropout, x * bernoulli(1-p) / (1-p), as libtorch does
Napi::Value Dropout(const Napi::CallbackInfo& info) {
  const auto& x = ArgT(info, 0, "x");
  double p = ArgNum(info, 1, "p");
  bool train = ArgBool(info, 2, true);
  if (p < 0 || p > 1) throw Napi::RangeError::New(info.Env(), "dropout: p must be in [0, 1]");
  if (!train || p == 0) return Wrap(info.Env(), x);
  if (p == 1) return Wrap(info.Env(), x * at::zeros_like(x));
  auto& g = UnwrapGen(info[3]);
  auto keep = at::empty(x.sizes(), x.options().device(at::kCPU).requires_grad(false)).bernoulli_(1 - p, g);
  return Wrap(info.Env(), x * OnDevice(keep, x.device()).div_(1 - p));
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
                            {"to", To},                   {"newGenerator", NewGenerator},
                            {"generatorGetState", GenGetState},                       {"generatorSetState", GenSetState},
                            {"rand", Rand},               {"randn", Randn},           {"randnRows", RandnRows},           {"randint", Randint},
                            {"randperm", Randperm},       {"bernoulli", Bernoulli},   {"multinomial", Multinomial},
                            {"dropout", Dropout},
                        });
}

}  // namespace sjd

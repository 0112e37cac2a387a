// Seeded random draws (DESIGN.md §4): CPU generators, seeded as torch.manual_seed does or, for a
// key of 2^32 or more, from every word of the key (EngineFromKey); their state, and the draws
// (rand, randn, randint, randperm, bernoulli, multinomial, dropout) on an explicit generator, made
// on the CPU and moved to the requested device, so a seed gives the same numbers on every machine.
#include <ATen/CPUGeneratorImpl.h>

#include <mutex>

#include "common.h"

namespace sjd {

namespace {
const napi_type_tag kGenTag = {0x736a6467656e6572ULL, 0x61746f7268616e64ULL};

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

void RegisterRandom(std::vector<Export>& out) {
  out.insert(out.end(), {
                            {"newGenerator", NewGenerator},       {"generatorGetState", GenGetState},
                            {"generatorSetState", GenSetState},   {"rand", Rand},
                            {"randn", Randn},                     {"randnRows", RandnRows},
                            {"randint", Randint},                 {"randperm", Randperm},
                            {"bernoulli", Bernoulli},             {"multinomial", Multinomial},
                            {"dropout", Dropout},
                        });
}

}  // namespace sjd

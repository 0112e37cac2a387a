// The op table of the sjd libtorch addon (DESIGN.md §3): each entry is one ATen call, no math
// of our own. Tables (X-macros) generate the uniform families (unary, binary, comparison);
// the rest are one line each. A JavaScript number next to a tensor becomes a wrapped scalar,
// so type promotion is PyTorch's (`int64 + 1` stays int64, `int64 + 0.5` is float32).
#include <ATen/ScalarOps.h>

#include "common.h"

namespace sjd {

namespace {

using Info = Napi::CallbackInfo;

// A tensor, or a number/boolean promoted like a Python scalar.
at::Tensor ArgTS(const Info& info, size_t i, const char* name) {
  if (i < info.Length() && IsTensor(info[i])) return Unwrap(info[i], name);
  return at::native::wrapped_scalar_tensor(ArgScalar(info, i, name));
}

Napi::Value W(const Info& info, const at::Tensor& t) { return Wrap(info.Env(), t); }

at::OptionalIntArrayRef OptDims(const c10::optional<std::vector<int64_t>>& d) {
  return d ? at::OptionalIntArrayRef(*d) : at::OptionalIntArrayRef(c10::nullopt);
}

// ---- elementwise families ----
#define UNARY_FN(X) \
  X(neg) X(abs) X(exp) X(log) X(log1p) X(expm1) X(sqrt) X(rsqrt) X(tanh) X(sigmoid) X(erf) X(erfinv) \
  X(relu) X(silu) X(sin) X(cos) X(floor) X(ceil) X(round) X(trunc) X(sign) X(reciprocal) X(square) \
  X(lgamma) X(logical_not) X(isnan) X(isinf) X(isfinite) X(log2) X(exp2)
#define DEF_UNARY(name) \
  Napi::Value name##_(const Info& info) { return W(info, at::name(ArgT(info, 0, #name))); }
UNARY_FN(DEF_UNARY)

#define BINARY_FN(X)                                                                                   \
  X(add) X(sub) X(mul) X(div) X(pow) X(maximum) X(minimum) X(eq) X(ne) X(lt) X(le) X(gt) X(ge)          \
  X(logical_and) X(logical_or) X(logical_xor) X(remainder) X(fmod) X(atan2) X(floor_divide) X(xlogy)    \
  X(bitwise_and) X(bitwise_or)
#define DEF_BINARY(name)                                          \
  Napi::Value name##_(const Info& info) {                         \
    return W(info, at::name(ArgTS(info, 0, #name), ArgTS(info, 1, #name))); \
  }
BINARY_FN(DEF_BINARY)

// contiguous(t, format?) in libtorch's default layout, or 'channels_last' (a 4-D tensor's [N, C, H, W]
// stored as [N, H, W, C]: oneDNN's convolutions on a CPU take it directly)
Napi::Value contiguous_(const Info& info) {
  const auto t = ArgT(info, 0, "contiguous");
  if (info.Length() < 2 || info[1].IsUndefined()) return W(info, t.contiguous());
  const auto format = ArgStr(info, 1, "memory format");
  if (format != "channels_last")
    throw Napi::RangeError::New(info.Env(), "contiguous: the memory format must be 'channels_last', got '" + format + "'");
  if (t.dim() != 4)
    throw Napi::RangeError::New(info.Env(), "contiguous: channels_last needs a 4-D tensor, got " + std::to_string(t.dim()) + "-D");
  return W(info, t.contiguous(at::MemoryFormat::ChannelsLast));
}
Napi::Value clone_(const Info& info) { return W(info, ArgT(info, 0, "clone").clone()); }
Napi::Value detach_(const Info& info) { return W(info, ArgT(info, 0, "detach").detach()); }
Napi::Value gelu_(const Info& info) {
  auto approx = info.Length() > 1 && info[1].IsString() ? ArgStr(info, 1, "approximate") : std::string("none");
  return W(info, at::gelu(ArgT(info, 0, "gelu"), approx));
}
// clamp(t, min?, max?) with numbers or tensors as bounds
Napi::Value clamp_(const Info& info) {
  const auto& t = ArgT(info, 0, "clamp");
  bool tensorBounds = (info.Length() > 1 && IsTensor(info[1])) || (info.Length() > 2 && IsTensor(info[2]));
  if (tensorBounds) {
    c10::optional<at::Tensor> lo, hi;
    if (info.Length() > 1 && !info[1].IsNull() && !info[1].IsUndefined()) lo = ArgTS(info, 1, "min");
    if (info.Length() > 2 && !info[2].IsNull() && !info[2].IsUndefined()) hi = ArgTS(info, 2, "max");
    return W(info, at::clamp(t, lo, hi));
  }
  // Integral bounds keep integer tensors integral (PyTorch's scalar rules).
  auto bound = [&](size_t i) -> c10::optional<at::Scalar> {
    if (i >= info.Length() || info[i].IsNull() || info[i].IsUndefined()) return c10::nullopt;
    return ArgScalar(info, i, i == 1 ? "min" : "max");
  };
  auto lo = bound(1);
  auto hi = bound(2);
  if (!lo && !hi) throw std::invalid_argument("clamp: give min, max or both");
  return W(info, at::clamp(t, lo, hi));
}
// where(cond, a, b): a, b tensors or numbers
// (numbers go in as Scalars, not CPU tensors, so the branches may live on any device)
Napi::Value where_(const Info& info) {
  const auto& c = ArgT(info, 0, "condition");
  bool ta = IsTensor(info[1]), tb = IsTensor(info[2]);
  if (ta && tb) return W(info, at::where(c, Unwrap(info[1], "a"), Unwrap(info[2], "b")));
  if (ta) return W(info, at::where(c, Unwrap(info[1], "a"), ArgScalar(info, 2, "b")));
  if (tb) return W(info, at::where(c, ArgScalar(info, 1, "a"), Unwrap(info[2], "b")));
  return W(info, at::where(c, ArgScalar(info, 1, "a"), ArgScalar(info, 2, "b")));
}

// ---- reductions: (t, dims?, keepdim?) ----
Napi::Value sum_(const Info& info) {
  const auto& t = ArgT(info, 0, "sum");
  auto dims = ArgOptInts(info, 1);
  return W(info, dims ? at::sum(t, *dims, ArgBool(info, 2, false)) : at::sum(t));
}
Napi::Value mean_(const Info& info) {
  const auto& t = ArgT(info, 0, "mean");
  auto dims = ArgOptInts(info, 1);
  return W(info, dims ? at::mean(t, *dims, ArgBool(info, 2, false)) : at::mean(t));
}
Napi::Value amax_(const Info& info) {
  const auto& t = ArgT(info, 0, "amax");
  auto dims = ArgOptInts(info, 1);
  return W(info, at::amax(t, dims ? *dims : std::vector<int64_t>{}, ArgBool(info, 2, false)));
}
Napi::Value amin_(const Info& info) {
  const auto& t = ArgT(info, 0, "amin");
  auto dims = ArgOptInts(info, 1);
  return W(info, at::amin(t, dims ? *dims : std::vector<int64_t>{}, ArgBool(info, 2, false)));
}
Napi::Value logsumexp_(const Info& info) {
  return W(info, at::logsumexp(ArgT(info, 0, "logsumexp"), ArgInts(info, 1, "dims"), ArgBool(info, 2, false)));
}
// var/std(t, dims?, unbiased?, keepdim?)
Napi::Value var_(const Info& info) {
  auto dims = ArgOptInts(info, 1);
  return W(info, at::var(ArgT(info, 0, "var"), OptDims(dims), ArgBool(info, 2, true), ArgBool(info, 3, false)));
}
Napi::Value std_(const Info& info) {
  auto dims = ArgOptInts(info, 1);
  return W(info, at::std(ArgT(info, 0, "std"), OptDims(dims), ArgBool(info, 2, true), ArgBool(info, 3, false)));
}
// norm(t, p, dims?, keepdim?)
Napi::Value norm_(const Info& info) {
  auto dims = ArgOptInts(info, 2);
  return W(info, at::linalg_vector_norm(ArgT(info, 0, "norm"), ArgNum(info, 1, "p"), OptDims(dims),
                                        ArgBool(info, 3, false)));
}
// argmax/argmin(t, dim?, keepdim?)
Napi::Value argmax_(const Info& info) {
  return W(info, at::argmax(ArgT(info, 0, "argmax"), ArgOptInt(info, 1), ArgBool(info, 2, false)));
}
Napi::Value argmin_(const Info& info) {
  return W(info, at::argmin(ArgT(info, 0, "argmin"), ArgOptInt(info, 1), ArgBool(info, 2, false)));
}
// maxDim/minDim(t, dim, keepdim?) -> [values, indices]
Napi::Value maxDim_(const Info& info) {
  auto r = at::max(ArgT(info, 0, "max"), ArgInt(info, 1, "dim"), ArgBool(info, 2, false));
  return WrapList(info.Env(), {std::get<0>(r), std::get<1>(r)});
}
Napi::Value minDim_(const Info& info) {
  auto r = at::min(ArgT(info, 0, "min"), ArgInt(info, 1, "dim"), ArgBool(info, 2, false));
  return WrapList(info.Env(), {std::get<0>(r), std::get<1>(r)});
}
// all/any(t, dim?, keepdim?)
Napi::Value all_(const Info& info) {
  const auto& t = ArgT(info, 0, "all");
  auto d = ArgOptInt(info, 1);
  return W(info, d ? at::all(t, *d, ArgBool(info, 2, false)) : at::all(t));
}
Napi::Value any_(const Info& info) {
  const auto& t = ArgT(info, 0, "any");
  auto d = ArgOptInt(info, 1);
  return W(info, d ? at::any(t, *d, ArgBool(info, 2, false)) : at::any(t));
}
Napi::Value cumsum_(const Info& info) { return W(info, at::cumsum(ArgT(info, 0, "cumsum"), ArgInt(info, 1, "dim"))); }
Napi::Value softmax_(const Info& info) { return W(info, at::softmax(ArgT(info, 0, "softmax"), ArgInt(info, 1, "dim"))); }
Napi::Value log_softmax_(const Info& info) {
  return W(info, at::log_softmax(ArgT(info, 0, "log_softmax"), ArgInt(info, 1, "dim")));
}
// sort(t, dim, descending?) / topk(t, k, dim, largest?, sorted?) -> [values, indices]
Napi::Value sort_(const Info& info) {
  auto r = at::sort(ArgT(info, 0, "sort"), ArgInt(info, 1, "dim"), ArgBool(info, 2, false));
  return WrapList(info.Env(), {std::get<0>(r), std::get<1>(r)});
}
Napi::Value topk_(const Info& info) {
  auto r = at::topk(ArgT(info, 0, "topk"), ArgInt(info, 1, "k"), ArgInt(info, 2, "dim"), ArgBool(info, 3, true),
                    ArgBool(info, 4, true));
  return WrapList(info.Env(), {std::get<0>(r), std::get<1>(r)});
}

// ---- shapes ----
Napi::Value reshape_(const Info& info) { return W(info, ArgT(info, 0, "reshape").reshape(ArgInts(info, 1, "shape"))); }
Napi::Value view_(const Info& info) { return W(info, ArgT(info, 0, "view").view(ArgInts(info, 1, "shape"))); }
Napi::Value permute_(const Info& info) { return W(info, ArgT(info, 0, "permute").permute(ArgInts(info, 1, "dims"))); }
Napi::Value transpose_(const Info& info) {
  return W(info, ArgT(info, 0, "transpose").transpose(ArgInt(info, 1, "dim0"), ArgInt(info, 2, "dim1")));
}
Napi::Value squeeze_(const Info& info) {
  const auto& t = ArgT(info, 0, "squeeze");
  auto d = ArgOptInt(info, 1);
  return W(info, d ? t.squeeze(*d) : t.squeeze());
}
Napi::Value unsqueeze_(const Info& info) { return W(info, ArgT(info, 0, "unsqueeze").unsqueeze(ArgInt(info, 1, "dim"))); }
Napi::Value expand_(const Info& info) { return W(info, ArgT(info, 0, "expand").expand(ArgInts(info, 1, "shape"))); }
Napi::Value flatten_(const Info& info) {
  return W(info, ArgT(info, 0, "flatten").flatten(ArgOptInt(info, 1).value_or(0), ArgOptInt(info, 2).value_or(-1)));
}
Napi::Value repeat_(const Info& info) { return W(info, ArgT(info, 0, "repeat").repeat(ArgInts(info, 1, "repeats"))); }
Napi::Value flip_(const Info& info) { return W(info, at::flip(ArgT(info, 0, "flip"), ArgInts(info, 1, "dims"))); }
Napi::Value narrow_(const Info& info) {
  return W(info, ArgT(info, 0, "narrow").narrow(ArgInt(info, 1, "dim"), ArgInt(info, 2, "start"), ArgInt(info, 3, "length")));
}
Napi::Value select_(const Info& info) {
  return W(info, ArgT(info, 0, "select").select(ArgInt(info, 1, "dim"), ArgInt(info, 2, "index")));
}
Napi::Value cat_(const Info& info) { return W(info, at::cat(UnwrapList(info[0], "cat"), ArgInt(info, 1, "dim"))); }
Napi::Value stack_(const Info& info) { return W(info, at::stack(UnwrapList(info[0], "stack"), ArgInt(info, 1, "dim"))); }
// split(t, size | sizes[], dim) -> tensors
Napi::Value split_(const Info& info) {
  const auto& t = ArgT(info, 0, "split");
  int64_t dim = ArgInt(info, 2, "dim");
  if (info[1].IsArray()) return WrapList(info.Env(), t.split_with_sizes(ArgInts(info, 1, "sizes"), dim));
  return WrapList(info.Env(), t.split(ArgInt(info, 1, "size"), dim));
}
Napi::Value chunk_(const Info& info) {
  return WrapList(info.Env(), ArgT(info, 0, "chunk").chunk(ArgInt(info, 1, "chunks"), ArgInt(info, 2, "dim")));
}

// ---- indexing ----
Napi::Value index_select_(const Info& info) {
  return W(info, at::index_select(ArgT(info, 0, "index_select"), ArgInt(info, 1, "dim"), ArgT(info, 2, "index")));
}
Napi::Value gather_(const Info& info) {
  return W(info, at::gather(ArgT(info, 0, "gather"), ArgInt(info, 1, "dim"), ArgT(info, 2, "index")));
}
// scatter(t, dim, index, src | value)
Napi::Value scatter_(const Info& info) {
  const auto& t = ArgT(info, 0, "scatter");
  int64_t dim = ArgInt(info, 1, "dim");
  const auto& idx = ArgT(info, 2, "index");
  if (IsTensor(info[3])) return W(info, at::scatter(t, dim, idx, Unwrap(info[3], "src")));
  return W(info, at::scatter(t, dim, idx, ArgScalar(info, 3, "value")));
}
Napi::Value scatter_add_(const Info& info) {
  return W(info, at::scatter_add(ArgT(info, 0, "scatter_add"), ArgInt(info, 1, "dim"), ArgT(info, 2, "index"),
                                 ArgT(info, 3, "src")));
}
// masked_fill(t, mask, value: number | 0-dim tensor)
Napi::Value masked_fill_(const Info& info) {
  const auto& t = ArgT(info, 0, "masked_fill");
  const auto& mask = ArgT(info, 1, "mask");
  if (IsTensor(info[2])) return W(info, at::masked_fill(t, mask, Unwrap(info[2], "value")));
  return W(info, at::masked_fill(t, mask, ArgScalar(info, 2, "value")));
}
// index(t, indices[]) : advanced indexing t[i0, i1, ...] with int64 or bool tensors
Napi::Value index_(const Info& info) {
  auto list = UnwrapList(info[1], "indices");
  c10::List<c10::optional<at::Tensor>> idx;
  for (auto& i : list) idx.push_back(i);
  return W(info, at::index(ArgT(info, 0, "index"), idx));
}
Napi::Value nonzero_(const Info& info) { return W(info, at::nonzero(ArgT(info, 0, "nonzero"))); }
Napi::Value one_hot_(const Info& info) {
  return W(info, at::one_hot(ArgT(info, 0, "one_hot"), ArgOptInt(info, 1).value_or(-1)));
}

// ---- linear algebra ----
Napi::Value matmul_(const Info& info) { return W(info, at::matmul(ArgT(info, 0, "matmul a"), ArgT(info, 1, "matmul b"))); }
Napi::Value mm_(const Info& info) { return W(info, at::mm(ArgT(info, 0, "mm a"), ArgT(info, 1, "mm b"))); }
Napi::Value bmm_(const Info& info) { return W(info, at::bmm(ArgT(info, 0, "bmm a"), ArgT(info, 1, "bmm b"))); }
// linear(x, weight [out, in], bias?)
Napi::Value linear_(const Info& info) {
  return W(info, at::linear(ArgT(info, 0, "linear input"), ArgT(info, 1, "linear weight"), ArgOptT(info, 2)));
}
Napi::Value einsum_(const Info& info) { return W(info, at::einsum(ArgStr(info, 0, "equation"), UnwrapList(info[1], "einsum"))); }

// ---- network ops ----
// embedding(weight [K, d], indices int64)
Napi::Value embedding_(const Info& info) {
  return W(info, at::embedding(ArgT(info, 0, "embedding weight"), ArgT(info, 1, "embedding indices")));
}
// layer_norm(x, normalizedShape, weight?, bias?, eps)
Napi::Value layer_norm_(const Info& info) {
  return W(info, at::layer_norm(ArgT(info, 0, "layer_norm"), ArgInts(info, 1, "normalizedShape"), ArgOptT(info, 2),
                                ArgOptT(info, 3), ArgOptNum(info, 4).value_or(1e-5)));
}
// ---- image ops (the U-Net of app:cifar10-imagenet) ----
// conv2d(x [N, C, H, W], weight [O, C/groups, kh, kw], bias? [O], stride [2], padding [2], groups)
Napi::Value conv2d_(const Info& info) {
  return W(info, at::conv2d(ArgT(info, 0, "conv2d x"), ArgT(info, 1, "conv2d weight"), ArgOptT(info, 2),
                            ArgInts(info, 3, "stride"), ArgInts(info, 4, "padding"), {1, 1},
                            ArgOptInt(info, 5).value_or(1)));
}
// group_norm(x [N, C, ...], groups, weight? [C], bias? [C], eps)
Napi::Value group_norm_(const Info& info) {
  return W(info, at::group_norm(ArgT(info, 0, "group_norm"), ArgInt(info, 1, "groups"), ArgOptT(info, 2),
                                ArgOptT(info, 3), ArgOptNum(info, 4).value_or(1e-5)));
}
// upsample_nearest2d(x [N, C, H, W], outputSize [H', W'])
Napi::Value upsample_nearest2d_(const Info& info) {
  return W(info, at::upsample_nearest2d(ArgT(info, 0, "upsample_nearest2d"), ArgInts(info, 1, "outputSize")));
}
// avg_pool2d(x [N, C, H, W], kernel [2], stride [2])
Napi::Value avg_pool2d_(const Info& info) {
  return W(info, at::avg_pool2d(ArgT(info, 0, "avg_pool2d"), ArgInts(info, 1, "kernel"), ArgInts(info, 2, "stride")));
}
// linalg_eigh(A [..., n, n] symmetric) -> [eigenvalues [..., n] ascending, eigenvectors [..., n, n] as columns]
Napi::Value linalg_eigh_(const Info& info) {
  auto r = at::linalg_eigh(ArgT(info, 0, "linalg_eigh"), "L");
  return WrapList(info.Env(), {std::get<0>(r), std::get<1>(r)});
}

// cross_entropy(logits [N, K, ...], target [N, ...], weight?, reduction 'none'|'mean'|'sum', ignoreIndex, smoothing)
Napi::Value cross_entropy_(const Info& info) {
  auto red = info.Length() > 3 && info[3].IsString() ? ArgStr(info, 3, "reduction") : std::string("mean");
  int64_t r;
  if (red == "none") r = at::Reduction::None;
  else if (red == "mean") r = at::Reduction::Mean;
  else if (red == "sum") r = at::Reduction::Sum;
  else throw std::invalid_argument("cross_entropy: reduction must be none, mean or sum");
  return W(info, at::cross_entropy_loss(ArgT(info, 0, "cross_entropy logits"), ArgT(info, 1, "cross_entropy target"),
                                        ArgOptT(info, 2), r, ArgOptInt(info, 4).value_or(-100),
                                        ArgOptNum(info, 5).value_or(0.0)));
}

// ---- in place (return nothing; the JavaScript handle stays the same tensor) ----
Napi::Value add_inplace(const Info& info) {
  ArgT(info, 0, "add_").add_(ArgTS(info, 1, "other"), ArgOptNum(info, 2).value_or(1.0));
  return info.Env().Undefined();
}
Napi::Value mul_inplace(const Info& info) {
  ArgT(info, 0, "mul_").mul_(ArgTS(info, 1, "other"));
  return info.Env().Undefined();
}
Napi::Value copy_inplace(const Info& info) {
  ArgT(info, 0, "copy_").copy_(ArgT(info, 1, "src"));
  return info.Env().Undefined();
}
Napi::Value zero_inplace(const Info& info) {
  ArgT(info, 0, "zero_").zero_();
  return info.Env().Undefined();
}
Napi::Value fill_inplace(const Info& info) {
  ArgT(info, 0, "fill_").fill_(ArgScalar(info, 1, "value"));
  return info.Env().Undefined();
}
Napi::Value lerp_inplace(const Info& info) {
  ArgT(info, 0, "lerp_").lerp_(ArgT(info, 1, "end"), ArgScalar(info, 2, "weight"));
  return info.Env().Undefined();
}
Napi::Value masked_fill_inplace(const Info& info) {
  ArgT(info, 0, "masked_fill_").masked_fill_(ArgT(info, 1, "mask"), ArgScalar(info, 2, "value"));
  return info.Env().Undefined();
}
// equal(a, b) -> boolean: same shape and elements
Napi::Value equal_(const Info& info) {
  return Napi::Boolean::New(info.Env(), at::equal(ArgT(info, 0, "equal a"), ArgT(info, 1, "equal b")));
}

}  // namespace

void RegisterOps(std::vector<Export>& out) {
#define REG(name) out.push_back({#name, name##_});
  UNARY_FN(REG)
  BINARY_FN(REG)
  for (auto e : std::vector<Export>{
           {"contiguous", contiguous_}, {"clone", clone_}, {"detach", detach_}, {"gelu", gelu_},
           {"clamp", clamp_}, {"where", where_}, {"sum", sum_}, {"mean", mean_}, {"amax", amax_},
           {"amin", amin_}, {"logsumexp", logsumexp_}, {"var", var_}, {"std", std_}, {"norm", norm_},
           {"argmax", argmax_}, {"argmin", argmin_}, {"maxDim", maxDim_}, {"minDim", minDim_},
           {"all", all_}, {"any", any_}, {"cumsum", cumsum_}, {"softmax", softmax_},
           {"log_softmax", log_softmax_}, {"sort", sort_}, {"topk", topk_}, {"reshape", reshape_},
           {"view", view_}, {"permute", permute_}, {"transpose", transpose_}, {"squeeze", squeeze_},
           {"unsqueeze", unsqueeze_}, {"expand", expand_}, {"flatten", flatten_}, {"repeat", repeat_},
           {"flip", flip_}, {"narrow", narrow_}, {"select", select_}, {"cat", cat_}, {"stack", stack_},
           {"split", split_}, {"chunk", chunk_}, {"index_select", index_select_}, {"gather", gather_},
           {"scatter", scatter_}, {"scatter_add", scatter_add_}, {"masked_fill", masked_fill_},
           {"index", index_}, {"nonzero", nonzero_}, {"one_hot", one_hot_}, {"matmul", matmul_},
           {"mm", mm_}, {"bmm", bmm_}, {"linear", linear_}, {"einsum", einsum_}, {"embedding", embedding_},
           {"layer_norm", layer_norm_}, {"cross_entropy", cross_entropy_}, {"conv2d", conv2d_},
           {"group_norm", group_norm_}, {"upsample_nearest2d", upsample_nearest2d_}, {"avg_pool2d", avg_pool2d_},
           {"linalg_eigh", linalg_eigh_}, {"add_", add_inplace},
           {"mul_", mul_inplace}, {"copy_", copy_inplace}, {"zero_", zero_inplace}, {"fill_", fill_inplace},
           {"lerp_", lerp_inplace}, {"masked_fill_", masked_fill_inplace}, {"equal", equal_}}) {
    out.push_back(e);
  }
#undef REG
}

}  // namespace sjd

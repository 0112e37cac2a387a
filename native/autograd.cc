// Autograd through libtorch (DESIGN.md §3): requires_grad, backward, grad, grad mode (no_grad),
// and global-norm gradient clipping (torch::nn::utils::clip_grad_norm_). No math of our own.
#include <torch/types.h>
#include <torch/nn/utils/clip_grad.h>

#include "common.h"

namespace sjd {

namespace {

using Info = Napi::CallbackInfo;

Napi::Value SetRequiresGrad(const Info& info) {
  auto t = ArgT(info, 0, "tensor");
  t.requires_grad_(ArgBool(info, 1, true));
  return info.Env().Undefined();
}

// backward(t, grad?, retainGraph?)
Napi::Value Backward(const Info& info) {
  const auto& t = ArgT(info, 0, "tensor");
  auto g = ArgOptT(info, 1);
  t.backward(g ? *g : at::Tensor(), ArgBool(info, 2, false));
  return info.Env().Undefined();
}

// grad(t) -> tensor | null
Napi::Value Grad(const Info& info) { return Wrap(info.Env(), ArgT(info, 0, "tensor").grad()); }

// clearGrad(t): drop the accumulated gradient (set to none)
Napi::Value ClearGrad(const Info& info) {
  auto t = ArgT(info, 0, "tensor");
  t.mutable_grad() = at::Tensor();
  return info.Env().Undefined();
}

Napi::Value SetGradEnabled(const Info& info) {
  at::GradMode::set_enabled(ArgBool(info, 0, true));
  return info.Env().Undefined();
}

Napi::Value IsGradEnabled(const Info& info) { return Napi::Boolean::New(info.Env(), at::GradMode::is_enabled()); }

// clipGradNorm(params[], maxNorm) -> total norm before clipping
Napi::Value ClipGradNorm(const Info& info) {
  auto params = UnwrapList(info[0], "parameters");
  double maxNorm = ArgNum(info, 1, "maxNorm");
  if (!(maxNorm > 0)) throw Napi::RangeError::New(info.Env(), "clipGradNorm: maxNorm must be > 0");
  return Napi::Number::New(info.Env(), torch::nn::utils::clip_grad_norm_(params, maxNorm));
}

}  // namespace

void RegisterAutograd(std::vector<Export>& out) {
  out.insert(out.end(), {{"setRequiresGrad", SetRequiresGrad},
                         {"backward", Backward},
                         {"grad", Grad},
                         {"clearGrad", ClearGrad},
                         {"setGradEnabled", SetGradEnabled},
                         {"isGradEnabled", IsGradEnabled},
                         {"clipGradNorm", ClipGradNorm}});
}

}  // namespace sjd

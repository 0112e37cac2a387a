// Autograd through libtorch (DESIGN.md §3): requires_grad, backward, grad, grad mode (no_grad),
// and global-norm gradient clipping (torch::nn::utils::clip_grad_norm_'s steps, the norm kept
// on the device). No math of our own.
#include <torch/types.h>

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

// clipGradNorm(params[], maxNorm) -> the total norm before clipping, a 0-dim tensor.
// libtorch's clip_grad_norm_ (norm of the per-gradient 2-norms, coefficient clamped at 1), less
// its last step, the read of the norm into a double: on a GPU that read waits for the device.
Napi::Value ClipGradNorm(const Info& info) {
  auto params = UnwrapList(info[0], "parameters");
  double maxNorm = ArgNum(info, 1, "maxNorm");
  if (!(maxNorm > 0)) throw Napi::RangeError::New(info.Env(), "clipGradNorm: maxNorm must be > 0");
  std::vector<at::Tensor> norms;
  for (const auto& p : params) {
    if (p.grad().defined()) norms.push_back(p.grad().data().norm(2));
  }
  if (norms.empty()) return Wrap(info.Env(), at::zeros({}, at::kDouble));
  auto total = norms.size() == 1 ? norms[0] : at::stack(norms).norm(2);
  auto coef = at::clamp(maxNorm / (total + 1e-6), c10::nullopt, 1.0);
  for (const auto& p : params) {
    if (p.grad().defined()) p.grad().data().mul_(coef);
  }
  return Wrap(info.Env(), total);
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

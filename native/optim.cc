// Optimisers from libtorch (DESIGN.md §3): torch::optim::AdamW and SGD over parameter groups
// (each with its own weight decay), a per-step learning rate, and their per-parameter state
// out and back in, so a checkpoint resumes exactly. No update rule of our own: on CUDA with a
// libtorch that has it (2.x, SJD_FUSED_ADAMW=1), AdamW runs PyTorch's fused kernel
// (at::_fused_adamw_, what torch.optim.AdamW(fused=True) runs: one launch a group, not ~8 a
// parameter) on the same per-parameter state; everywhere else libtorch's AdamW::step.
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

#include <sstream>
#include <type_traits>
#include <utility>

#include "common.h"

namespace sjd {

namespace {

using Info = Napi::CallbackInfo;
using torch::optim::Optimizer;
const napi_type_tag kOptTag = {0x736a646f7074696dULL, 0x697a657268616e64ULL};

struct OptBox {
  std::unique_ptr<Optimizer> opt;
  std::string kind;
};

OptBox& UnwrapOpt(const Napi::Value& v) {
  if (!v.IsExternal() || !v.As<Napi::External<OptBox>>().CheckTypeTag(&kOptTag)) {
    throw Napi::TypeError::New(v.Env(), "optimizer: expected an optimizer");
  }
  return *v.As<Napi::External<OptBox>>().Data();
}

double Field(const Napi::Object& o, const char* key, double dflt) {
  if (!o.Has(key) || o.Get(key).IsUndefined()) return dflt;
  auto v = o.Get(key);
  if (!v.IsNumber()) throw Napi::TypeError::New(o.Env(), std::string("optimizer option ") + key + ": expected a number");
  return v.As<Napi::Number>().DoubleValue();
}

// newOptimizer('adamw' | 'sgd', groups: [{params: tensor[], weightDecay?}], options)
Napi::Value NewOptimizer(const Info& info) {
  auto kind = ArgStr(info, 0, "kind");
  if (!info[1].IsArray()) throw Napi::TypeError::New(info.Env(), "groups: expected an array");
  if (!info[2].IsObject()) throw Napi::TypeError::New(info.Env(), "options: expected an object");
  auto o = info[2].As<Napi::Object>();
  auto groupsJs = info[1].As<Napi::Array>();
  double lr = Field(o, "lr", 1e-3);
  double wd = Field(o, "weightDecay", kind == "adamw" ? 1e-2 : 0.0);
  std::vector<torch::optim::OptimizerParamGroup> groups;
  for (uint32_t i = 0; i < groupsJs.Length(); ++i) {
    Napi::Value gv = groupsJs.Get(i);
    if (!gv.IsObject()) throw Napi::TypeError::New(info.Env(), "groups: expected objects {params, weightDecay?}");
    auto g = gv.As<Napi::Object>();
    auto params = UnwrapList(g.Get("params"), "group params");
    double gwd = Field(g, "weightDecay", wd);
    if (kind == "adamw") {
      auto opts = std::make_unique<torch::optim::AdamWOptions>(lr);
      opts->betas({Field(o, "beta1", 0.9), Field(o, "beta2", 0.999)}).eps(Field(o, "eps", 1e-8)).weight_decay(gwd);
      groups.emplace_back(params, std::move(opts));
    } else if (kind == "sgd") {
      auto opts = std::make_unique<torch::optim::SGDOptions>(lr);
      opts->momentum(Field(o, "momentum", 0)).dampening(Field(o, "dampening", 0)).weight_decay(gwd);
      opts->nesterov(o.Has("nesterov") && o.Get("nesterov").ToBoolean().Value());
      groups.emplace_back(params, std::move(opts));
    } else {
      throw std::invalid_argument("optimizer kind must be 'adamw' or 'sgd', got '" + kind + "'");
    }
  }
  auto* box = new OptBox{nullptr, kind};
  if (kind == "adamw") {
    box->opt = std::make_unique<torch::optim::AdamW>(groups, torch::optim::AdamWOptions(lr).weight_decay(wd));
  } else {
    box->opt = std::make_unique<torch::optim::SGD>(groups, torch::optim::SGDOptions(lr).weight_decay(wd));
  }
  auto ext = Napi::External<OptBox>::New(info.Env(), box, [](Napi::Env, OptBox* b) { delete b; });
  ext.TypeTag(&kOptTag);
  return ext;
}

// The optimiser's state key for a parameter: its TensorImpl's address, printed in libtorch 1.x
// (std::string keys), the pointer itself in 2.x (void* keys). One source serves both.
using StateKey = std::decay_t<decltype(std::declval<torch::optim::Optimizer&>().state())>::key_type;
template <typename K>
K KeyOf(const at::Tensor& p) {
  if constexpr (std::is_same_v<K, std::string>) {
    std::ostringstream s;
    s << p.unsafeGetTensorImpl();
    return s.str();
  } else {
    return p.unsafeGetTensorImpl();
  }
}
StateKey Key(const at::Tensor& p) { return KeyOf<StateKey>(p); }

#if SJD_FUSED_ADAMW
// The fused AdamW update of every group whose parameters all live on CUDA in float32; false
// (nothing touched) when any does not, and then libtorch's step runs instead.
bool FusedAdamWStep(torch::optim::AdamW& opt) {
  using torch::optim::AdamWOptions;
  using torch::optim::AdamWParamState;
  for (auto& group : opt.param_groups()) {
    if (static_cast<AdamWOptions&>(group.options()).amsgrad()) return false;
    for (auto& p : group.params()) {
      if (p.grad().defined() && (!p.is_cuda() || p.scalar_type() != at::kFloat)) return false;
    }
  }
  auto& state = opt.state();
  for (auto& group : opt.param_groups()) {
    auto& o = static_cast<AdamWOptions&>(group.options());
    std::vector<at::Tensor> params, grads, expAvgs, expAvgSqs;
    std::vector<float> steps;
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      auto key = Key(p);
      if (state.find(key) == state.end()) {
        auto st = std::make_unique<AdamWParamState>();
        st->exp_avg(at::zeros_like(p, at::MemoryFormat::Preserve));
        st->exp_avg_sq(at::zeros_like(p, at::MemoryFormat::Preserve));
        state[key] = std::move(st);
      }
      auto& st = static_cast<AdamWParamState&>(*state[key]);
      st.step(st.step() + 1);
      params.push_back(p);
      grads.push_back(p.grad());
      expAvgs.push_back(st.exp_avg());
      expAvgSqs.push_back(st.exp_avg_sq());
      steps.push_back(static_cast<float>(st.step()));
    }
    if (params.empty()) continue;
    // the step counts as float32 scalars on the device: one copy a group
    auto stepList = at::tensor(steps, at::kFloat).to(params[0].device()).unbind(0);
    at::_fused_adamw_(params, grads, expAvgs, expAvgSqs, {}, stepList, o.lr(), std::get<0>(o.betas()),
                      std::get<1>(o.betas()), o.weight_decay(), o.eps(), /*amsgrad=*/false, /*maximize=*/false);
  }
  return true;
}
#endif

// optimStep(opt, lr?): set every group's learning rate, then one update
Napi::Value OptimStep(const Info& info) {
  auto& box = UnwrapOpt(info[0]);
  auto lr = ArgOptNum(info, 1);
  if (lr) {
    for (auto& g : box.opt->param_groups()) g.options().set_lr(*lr);
  }
  at::NoGradGuard guard;
#if SJD_FUSED_ADAMW
  if (box.kind == "adamw" && FusedAdamWStep(static_cast<torch::optim::AdamW&>(*box.opt))) {
    return info.Env().Undefined();
  }
#endif
  box.opt->step();
  return info.Env().Undefined();
}

Napi::Value OptimZeroGrad(const Info& info) {
  UnwrapOpt(info[0]).opt->zero_grad();
  return info.Env().Undefined();
}

// optimGetState(opt) -> per parameter (in group order): null or {step, <buffer>: tensor...}
Napi::Value OptimGetState(const Info& info) {
  auto& box = UnwrapOpt(info[0]);
  auto env = info.Env();
  auto out = Napi::Array::New(env);
  uint32_t k = 0;
  auto& state = box.opt->state();
  for (auto& g : box.opt->param_groups()) {
    for (auto& p : g.params()) {
      auto it = state.find(Key(p));
      if (it == state.end()) {
        out.Set(k++, env.Null());
        continue;
      }
      auto o = Napi::Object::New(env);
      if (box.kind == "adamw") {
        auto& s = static_cast<torch::optim::AdamWParamState&>(*it->second);
        o.Set("step", static_cast<double>(s.step()));
        o.Set("exp_avg", Wrap(env, s.exp_avg().clone()));
        o.Set("exp_avg_sq", Wrap(env, s.exp_avg_sq().clone()));
      } else {
        auto& s = static_cast<torch::optim::SGDParamState&>(*it->second);
        o.Set("momentum_buffer", Wrap(env, s.momentum_buffer().defined() ? s.momentum_buffer().clone() : at::Tensor()));
      }
      out.Set(k++, o);
    }
  }
  return out;
}

// optimSetState(opt, states) : the inverse of optimGetState
Napi::Value OptimSetState(const Info& info) {
  auto& box = UnwrapOpt(info[0]);
  if (!info[1].IsArray()) throw Napi::TypeError::New(info.Env(), "states: expected an array");
  auto arr = info[1].As<Napi::Array>();
  auto& state = box.opt->state();
  uint32_t k = 0;
  for (auto& g : box.opt->param_groups()) {
    for (auto& p : g.params()) {
      if (k >= arr.Length()) throw std::invalid_argument("optimizer state: fewer entries than parameters");
      Napi::Value v = arr.Get(k++);
      if (v.IsNull() || v.IsUndefined()) {
        state.erase(Key(p));
        continue;
      }
      auto o = v.As<Napi::Object>();
      auto buf = [&](const char* name) {
        const auto& t = Unwrap(o.Get(name), name);
        if (!t.sizes().equals(p.sizes())) throw std::invalid_argument(std::string("optimizer state ") + name + ": shape mismatch");
        return t.to(p.device(), p.scalar_type()).clone();
      };
      if (box.kind == "adamw") {
        auto s = std::make_unique<torch::optim::AdamWParamState>();
        s->step(static_cast<int64_t>(o.Get("step").As<Napi::Number>().DoubleValue()));
        s->exp_avg(buf("exp_avg"));
        s->exp_avg_sq(buf("exp_avg_sq"));
        state[Key(p)] = std::move(s);
      } else {
        auto s = std::make_unique<torch::optim::SGDParamState>();
        if (!o.Get("momentum_buffer").IsNull()) s->momentum_buffer(buf("momentum_buffer"));
        state[Key(p)] = std::move(s);
      }
    }
  }
  if (k != arr.Length()) throw std::invalid_argument("optimizer state: more entries than parameters");
  return info.Env().Undefined();
}

}  // namespace

void RegisterOptim(std::vector<Export>& out) {
  out.insert(out.end(), {{"newOptimizer", NewOptimizer},
                         {"optimStep", OptimStep},
                         {"optimZeroGrad", OptimZeroGrad},
                         {"optimGetState", OptimGetState},
                         {"optimSetState", OptimSetState}});
}

}  // namespace sjd

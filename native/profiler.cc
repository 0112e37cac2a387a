// libtorch's autograd profiler (the legacy one: PyTorch's
// torch.autograd.profiler.profile(use_kineto=False)) for bench/profile.ts: every aten op run
// between profileStart and profileStop, forward, backward and the optimiser's alike, by name with
// its calls and its total and self CPU time (self: less the ops it called), so that a training
// step of sjd and of PyTorch, both on this libtorch, are compared op by op.
#include <torch/csrc/autograd/profiler_legacy.h>

#include <map>
#include <string>
#include <vector>

#include "common.h"

namespace sjd {

namespace {
namespace prof = torch::autograd::profiler;

struct OpTimes {
  double calls = 0, totalUs = 0, selfUs = 0;
};

Napi::Value ProfileStart(const Napi::CallbackInfo& info) {
  if (prof::profilerEnabled()) throw std::runtime_error("profileStart: the profiler is on already");
  prof::enableProfilerLegacy(
      torch::profiler::impl::ProfilerConfig(torch::profiler::impl::ProfilerState::CPU));
  return info.Env().Undefined();
}

// Each thread's ranges paired (push, pop) on a stack; a range's self time is its span less its
// children's spans.
Napi::Value ProfileStop(const Napi::CallbackInfo& info) {
  if (!prof::profilerEnabled()) throw std::runtime_error("profileStop: the profiler is not on");
  const prof::thread_event_lists lists = prof::disableProfilerLegacy();
  std::map<std::string, OpTimes> ops;
  struct Open {
    const prof::LegacyEvent* push;
    double childUs;
  };
  for (const auto& list : lists) {
    std::vector<Open> stack;
    for (const auto& e : list) {
      if (e.kind() == prof::EventKind::PushRange) {
        stack.push_back({&e, 0});
      } else if (e.kind() == prof::EventKind::PopRange && !stack.empty()) {
        const Open open = stack.back();
        stack.pop_back();
        const double span = open.push->cpuElapsedUs(e);
        OpTimes& t = ops[open.push->name()];
        t.calls += 1;
        t.totalUs += span;
        t.selfUs += span - open.childUs;
        if (!stack.empty()) stack.back().childUs += span;
      }
    }
  }
  Napi::Env env = info.Env();
  auto out = Napi::Array::New(env, ops.size());
  uint32_t i = 0;
  for (const auto& [name, t] : ops) {
    auto o = Napi::Object::New(env);
    o.Set("name", name);
    o.Set("calls", t.calls);
    o.Set("totalUs", t.totalUs);
    o.Set("selfUs", t.selfUs);
    out.Set(i++, o);
  }
  return out;
}
}  // namespace

void RegisterProfiler(std::vector<Export>& out) {
  out.insert(out.end(), {{"profileStart", ProfileStart}, {"profileStop", ProfileStop}});
}

}  // namespace sjd

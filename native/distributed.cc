// torch.distributed for the addon (issue #16, DESIGN.md §5b): PyTorch's own c10d from libtorch.
// A process group is a rendezvous store (TCPStore, hosted by rank 0, or FileStore) and a
// ProcessGroupGloo on one Gloo device (an interface, or a hostname; loopback by default).
// Collectives (allreduce, broadcast, allgather, barrier) run on Gloo's worker threads and are
// waited for here with the group's timeout, so the calling thread blocks at most that long.
// Any failure (a dead peer, a timeout, a bad tensor) becomes one line naming the operation and
// this rank: "distributed allreduce failed on rank 1 of 3: <Gloo's or libtorch's reason>".
// No reduction of our own: sum, product, min and max are Gloo's; avg is Gloo's sum divided
// in place by the world size (Gloo has no AVG), truncating for integer tensors.
// Built when the libtorch found has c10d's and Gloo's headers (SJD_DISTRIBUTED=1, see
// find-libtorch.mjs); otherwise the same functions throw one line saying so (issue 17).
#include "common.h"

#if SJD_DISTRIBUTED
#define USE_C10D_GLOO 1  // Debian's libtorch is built with Gloo: expose ProcessGroupGloo
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cmath>

namespace sjd {

namespace {

using Info = Napi::CallbackInfo;
using Ms = std::chrono::milliseconds;
const napi_type_tag kGroupTag = {0x736a647069726f63ULL, 0x65737367726f7570ULL};

// Who is calling: named in every failure.
struct Member {
  int rank;
  int size;
  Ms timeout;
};

struct GroupBox {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> pg;  // null once destroyed
  Member who;
};

// The first line of a libtorch or Gloo message (c10::Error adds context lines below it).
std::string FirstLine(const std::string& s) {
  auto start = s.find_first_not_of(" \n");
  if (start == std::string::npos) return "unknown error";
  auto end = s.find('\n', start);
  return s.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::runtime_error Failure(const char* op, const Member& who, const std::string& why) {
  return std::runtime_error("distributed " + std::string(op) + " failed on rank " + std::to_string(who.rank) + " of " +
                            std::to_string(who.size) + " (timeout " + std::to_string(who.timeout.count()) +
                            " ms): " + FirstLine(why));
}

// Runs `body` (which may throw libtorch's, Gloo's or the standard library's exceptions) and
// rethrows any failure as one line naming the operation and the rank.
template <typename F>
void Named(const char* op, const Member& who, F body) {
  try {
    body();
  } catch (const Napi::Error&) {
    throw;
  } catch (const c10::Error& e) {
    throw Failure(op, who, e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw Failure(op, who, e.what());
  }
}

GroupBox& UnwrapGroup(const Napi::Value& v) {
  if (!v.IsExternal() || !v.As<Napi::External<GroupBox>>().CheckTypeTag(&kGroupTag)) {
    throw Napi::TypeError::New(v.Env(), "group: expected a process group");
  }
  auto& box = *v.As<Napi::External<GroupBox>>().Data();
  if (!box.pg) throw Napi::Error::New(v.Env(), "group: the process group was destroyed");
  return box;
}

// Option fields, checked; `label` names the field in errors (e.g. "store.port").
Napi::Value Field(const Napi::Object& o, const char* key) {
  return o.Has(key) ? o.Get(key) : o.Env().Undefined();
}
Napi::TypeError BadOption(const Napi::Object& o, const std::string& label, const std::string& want) {
  return Napi::TypeError::New(o.Env(), "process group option " + label + ": " + want);
}
std::string StrField(const Napi::Object& o, const char* key, const std::string& label) {
  auto v = Field(o, key);
  if (!v.IsString() || v.As<Napi::String>().Utf8Value().empty()) throw BadOption(o, label, "expected a non-empty string");
  return v.As<Napi::String>().Utf8Value();
}
int64_t IntField(const Napi::Object& o, const char* key, const std::string& label, int64_t lo, int64_t hi) {
  auto v = Field(o, key);
  double d = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : std::nan("");
  if (!(d >= static_cast<double>(lo) && d <= static_cast<double>(hi)) || d != std::floor(d)) {
    throw BadOption(o, label, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  return static_cast<int64_t>(d);
}

// The rendezvous: {kind: 'tcp', host, port, isMaster} or {kind: 'file', path}.
c10::intrusive_ptr<c10d::Store> MakeStore(const Napi::Object& s, int size, Ms timeout) {
  auto kind = StrField(s, "kind", "store.kind");
  if (kind == "file") {
    auto store = c10::make_intrusive<c10d::FileStore>(StrField(s, "path", "store.path"), size);
    store->setTimeout(timeout);
    return store;
  }
  if (kind != "tcp") throw BadOption(s, "store.kind", "expected 'tcp' or 'file', got '" + kind + "'");
  c10d::TCPStoreOptions opts;
  opts.port = static_cast<uint16_t>(IntField(s, "port", "store.port", 1, 65535));
  opts.isServer = Field(s, "isMaster").ToBoolean().Value();
  opts.numWorkers = static_cast<size_t>(size);
  opts.waitWorkers = true;  // as torch.distributed's tcp:// rendezvous
  opts.timeout = timeout;
  return c10::make_intrusive<c10d::TCPStore>(StrField(s, "host", "store.host"), opts);
}

// newProcessGroup({backend, store, rank, worldSize, timeoutMs, rendezvousMs?, interface?, hostname?}):
// the rendezvous (the store's connection and the ranks' first exchange) waits at most
// rendezvousMs (default: timeoutMs), every later store access and collective timeoutMs.
Napi::Value NewProcessGroup(const Info& info) {
  if (!info[0].IsObject() || info[0].IsArray()) throw Napi::TypeError::New(info.Env(), "options: expected an object");
  auto o = info[0].As<Napi::Object>();
  auto backend = StrField(o, "backend", "backend");
  if (backend == "nccl") {
    throw std::invalid_argument(at::hasCUDA() ? "backend 'nccl' is not bound by this addon yet (use 'gloo')"
                                              : "backend 'nccl' needs libtorch with CUDA; this libtorch has none (use 'gloo')");
  }
  if (backend != "gloo") throw BadOption(o, "backend", "expected 'gloo' or 'nccl', got '" + backend + "'");
  Member who{};
  who.size = static_cast<int>(IntField(o, "worldSize", "worldSize", 1, 1 << 20));
  who.rank = static_cast<int>(IntField(o, "rank", "rank", 0, who.size - 1));
  who.timeout = Ms(IntField(o, "timeoutMs", "timeoutMs", 1, int64_t{1} << 40));
  Ms rendezvous = Field(o, "rendezvousMs").IsUndefined()
                      ? who.timeout
                      : Ms(IntField(o, "rendezvousMs", "rendezvousMs", 1, int64_t{1} << 40));
  if (!Field(o, "store").IsObject()) throw BadOption(o, "store", "expected {kind: 'tcp', ...} or {kind: 'file', path}");
  auto storeJs = Field(o, "store").As<Napi::Object>();
  bool byInterface = !Field(o, "interface").IsUndefined();
  bool byHost = !Field(o, "hostname").IsUndefined();
  if (byInterface && byHost) throw BadOption(o, "interface", "give an interface or a hostname, not both");
  std::string where = byInterface ? StrField(o, "interface", "interface")
                      : byHost    ? StrField(o, "hostname", "hostname")
                                  : "127.0.0.1";

  auto box = std::make_unique<GroupBox>(GroupBox{{}, {}, who});
  Named("init", who, [&] {
    box->store = MakeStore(storeJs, who.size, rendezvous);
    auto opts = c10d::ProcessGroupGloo::Options::create(rendezvous);
    opts->devices.push_back(byInterface ? c10d::ProcessGroupGloo::createDeviceForInterface(where)
                                        : c10d::ProcessGroupGloo::createDeviceForHostname(where));
    opts->threads = 2;  // as torch.distributed: two worker threads per device
    box->pg = c10::make_intrusive<c10d::ProcessGroupGloo>(box->store, who.rank, who.size, opts);
    box->store->setTimeout(who.timeout);  // the rendezvous is over
  });
  auto ext = Napi::External<GroupBox>::New(info.Env(), box.release(), [](Napi::Env, GroupBox* b) { delete b; });
  ext.TypeTag(&kGroupTag);
  return ext;
}

// Starts a collective and waits for it (at most the group's timeout).
template <typename F>
void Run(GroupBox& g, const char* op, F start) {
  Named(op, g.who, [&] {
    c10::intrusive_ptr<c10d::Work> work = start(*g.pg);
    work->wait(g.who.timeout);
  });
}

c10d::ReduceOp::RedOpType ParseReduceOp(const std::string& op) {
  if (op == "sum" || op == "avg") return c10d::ReduceOp::SUM;
  if (op == "product") return c10d::ReduceOp::PRODUCT;
  if (op == "min") return c10d::ReduceOp::MIN;
  if (op == "max") return c10d::ReduceOp::MAX;
  throw std::invalid_argument("reduce op must be 'sum', 'avg', 'product', 'min' or 'max', got '" + op + "'");
}

// pgAllReduce(group, tensors, op): in place; one contiguous tensor goes as it is, several (one
// dtype) or a strided one as a coalesced all-reduce (flattened and copied back by libtorch).
Napi::Value PgAllReduce(const Info& info) {
  auto& g = UnwrapGroup(info[0]);
  auto tensors = UnwrapList(info[1]);
  auto opName = ArgStr(info, 2, "op");
  c10d::AllreduceOptions opts;
  opts.reduceOp = ParseReduceOp(opName);
  opts.timeout = g.who.timeout;
  if (tensors.empty()) return info.Env().Undefined();
  Run(g, "allreduce", [&](c10d::ProcessGroupGloo& pg) {
    if (tensors.size() == 1 && tensors[0].is_contiguous()) return pg.allreduce(tensors, opts);
    c10d::AllreduceCoalescedOptions copts;
    copts.reduceOp = opts.reduceOp;
    copts.timeout = opts.timeout;
    return pg.allreduce_coalesced(tensors, copts);
  });
  if (opName == "avg") {
    at::NoGradGuard noGrad;
    for (auto& t : tensors) {
      if (at::isFloatingType(t.scalar_type())) {
        t.div_(g.who.size);
      } else {
        t.div_(g.who.size, "trunc");
      }
    }
  }
  return info.Env().Undefined();
}

// pgBroadcast(group, tensor, src): in place, from rank src to all
Napi::Value PgBroadcast(const Info& info) {
  auto& g = UnwrapGroup(info[0]);
  std::vector<at::Tensor> tensors{ArgT(info, 1, "tensor")};
  int64_t src = ArgInt(info, 2, "src");
  if (src < 0 || src >= g.who.size) {
    throw Napi::RangeError::New(info.Env(), "src: expected a rank from 0 to " + std::to_string(g.who.size - 1));
  }
  c10d::BroadcastOptions opts;
  opts.rootRank = src;
  opts.timeout = g.who.timeout;
  Run(g, "broadcast", [&](c10d::ProcessGroupGloo& pg) { return pg.broadcast(tensors, opts); });
  return info.Env().Undefined();
}

// pgAllGather(group, tensor) -> one tensor per rank (same shape and dtype on every rank)
Napi::Value PgAllGather(const Info& info) {
  auto& g = UnwrapGroup(info[0]);
  std::vector<at::Tensor> inputs{ArgT(info, 1, "tensor").contiguous()};
  std::vector<std::vector<at::Tensor>> outputs(1);
  for (int r = 0; r < g.who.size; ++r) outputs[0].push_back(at::empty_like(inputs[0]));
  c10d::AllgatherOptions opts;
  opts.timeout = g.who.timeout;
  Run(g, "allgather", [&](c10d::ProcessGroupGloo& pg) { return pg.allgather(outputs, inputs, opts); });
  return WrapList(info.Env(), outputs[0]);
}

Napi::Value PgBarrier(const Info& info) {
  auto& g = UnwrapGroup(info[0]);
  c10d::BarrierOptions opts;
  opts.timeout = g.who.timeout;
  Run(g, "barrier", [&](c10d::ProcessGroupGloo& pg) { return pg.barrier(opts); });
  return info.Env().Undefined();
}

Napi::Value PgInfo(const Info& info) {
  auto& g = UnwrapGroup(info[0]);
  auto o = Napi::Object::New(info.Env());
  o.Set("rank", g.who.rank);
  o.Set("worldSize", g.who.size);
  o.Set("backend", g.pg->getBackendName());
  o.Set("timeoutMs", static_cast<double>(g.who.timeout.count()));
  return o;
}

// pgDestroy(group): joins Gloo's threads and closes the store; later calls on it throw
Napi::Value PgDestroy(const Info& info) {
  auto& g = UnwrapGroup(info[0]);
  Named("destroy", g.who, [&] {
    g.pg.reset();
    g.store.reset();
  });
  return info.Env().Undefined();
}

}  // namespace

void RegisterDistributed(std::vector<Export>& out) {
  out.insert(out.end(), {{"newProcessGroup", NewProcessGroup},
                         {"pgAllReduce", PgAllReduce},
                         {"pgBroadcast", PgBroadcast},
                         {"pgAllGather", PgAllGather},
                         {"pgBarrier", PgBarrier},
                         {"pgInfo", PgInfo},
                         {"pgDestroy", PgDestroy}});
}

}  // namespace sjd

#else  // no c10d/Gloo in this libtorch: every distributed call says so

namespace sjd {
namespace {
Napi::Value Unavailable(const Napi::CallbackInfo&) {
  throw std::invalid_argument(
      "distributed training needs libtorch's c10d and Gloo headers; this addon was built without them "
      "(SJD_DISTRIBUTED=0)");
}
}  // namespace

void RegisterDistributed(std::vector<Export>& out) {
  for (const char* name : {"newProcessGroup", "pgAllReduce", "pgBroadcast", "pgAllGather", "pgBarrier", "pgInfo",
                           "pgDestroy"}) {
    out.push_back({name, Unavailable});
  }
}
}  // namespace sjd

#endif

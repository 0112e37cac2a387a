#!/usr/bin/env python3
"""The reference for sjd's tensor benchmarks and cross-checks: the same token transformer as
src/model/token-classifier.ts + backbone.ts, in Debian's PyTorch (python3-torch).

  torch_ref.py step  --config JSON --steps N --warmup W --threads T   -> JSON per-step seconds
  torch_ref.py serve --config JSON --threads T   for each "steps N" line on stdin, N steps and
                     one JSON line {"times": [s...]} on stdout (benchmarks alternate in blocks);
                     config.model "token" (default) or "dit" (the text denoiser, adaLN-zero)
  torch_ref.py profile --config JSON --steps N --warmup W --threads T   the aten ops of N training
                     steps under the legacy autograd profiler -> JSON {"ops": [{name, calls,
                     totalUs, selfUs}...]} (bench/profile.ts)
  torch_ref.py forward --weights W.safetensors --tokens T.safetensors --out O.safetensors
                     (config.model "unet": the image U-Net, inputs y, t, on_anchor)
  torch_ref.py gemm --n 1024 --reps R --threads T                       -> JSON seconds
  torch_ref.py flops --config JSON   the forward pass's floating-point operations per example
                     (a multiply-add counts 2: convolutions, linear layers and attention's two
                     products; norms and activations left out) and the parameter count -> JSON
  torch_ref.py allreduce --rank R --world W --port P --sizes B,.. --reps N,.. --threads T
                     one rank of bench/distributed.ts: gloo over tcp://127.0.0.1:P on interface
                     lo, per size B (bytes) N timed all_reduce calls of float32 zeros after 2
                     warm-up calls and a barrier -> JSON {"times": {B: [s...]}}
Safetensors are read and written by the format's spec (json header + raw bytes), since the
`safetensors` Python package is not packaged by Debian.
"""
import argparse, datetime, json, math, os, struct, sys, time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

DT = {"F32": torch.float32, "F64": torch.float64, "I64": torch.int64, "I32": torch.int32,
      "BOOL": torch.bool, "U8": torch.uint8, "F16": torch.float16, "BF16": torch.bfloat16}


def read_safetensors(path):
    with open(path, "rb") as f:
        buf = f.read()
    (n,) = struct.unpack("<Q", buf[:8])
    header = json.loads(buf[8:8 + n])
    data = buf[8 + n:]
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        a, b = e["data_offsets"]
        t = torch.frombuffer(bytearray(data[a:b]), dtype=DT[e["dtype"]]) if b > a else torch.empty(0, dtype=DT[e["dtype"]])
        out[name] = t.reshape(e["shape"])
    return out


def write_safetensors(path, tensors):
    inv = {v: k for k, v in DT.items()}
    header, chunks, off = {}, [], 0
    for name in sorted(tensors):
        t = tensors[name].contiguous()
        raw = t.numpy().tobytes() if t.dtype not in (torch.bfloat16,) else t.view(torch.int16).numpy().tobytes()
        header[name] = {"dtype": inv[t.dtype], "shape": list(t.shape), "data_offsets": [off, off + len(raw)]}
        chunks.append(raw)
        off += len(raw)
    js = json.dumps(header).encode()
    js += b" " * ((8 - len(js) % 8) % 8)
    with open(path + ".tmp", "wb") as f:
        f.write(struct.pack("<Q", len(js)) + js + b"".join(chunks))
    os.replace(path + ".tmp", path)


class Rotary(nn.Module):
    """src/torch/nn/rotary.ts: rotate-half rotary embedding of queries and keys."""

    def __init__(self, length, dh, base=10000.0):
        super().__init__()
        freqs = torch.exp(torch.arange(dh // 2, dtype=torch.float32) * (-2 * math.log(base) / dh))
        angles = torch.arange(length, dtype=torch.float32).unsqueeze(1) * freqs
        both = torch.cat([angles, angles], -1)
        self.register_buffer("cos", both.cos(), persistent=False)
        self.register_buffer("sin", both.sin(), persistent=False)

    def forward(self, x):
        x1, x2 = x.chunk(2, -1)
        return x * self.cos + torch.cat([-x2, x1], -1) * self.sin


class Attention(nn.Module):
    def __init__(self, d, h, rotary=None):
        super().__init__()
        self.h, self.dh = h, d // h
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.rotary = rotary

    def forward(self, x):
        B, L, d = x.shape
        q, k, v = self.qkv(x).view(B, L, 3, self.h, self.dh).permute(2, 0, 3, 1, 4).unbind(0)
        if self.rotary is not None:
            q, k = self.rotary(q), self.rotary(k)
        att = (q @ k.transpose(-2, -1)).mul(1 / math.sqrt(self.dh)).softmax(-1)
        return self.proj((att @ v).transpose(1, 2).reshape(B, L, d))


class MLP(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.fc = nn.Linear(d, hidden)
        self.proj = nn.Linear(hidden, d)

    def forward(self, x):
        return self.proj(F.gelu(self.fc(x)))


class Block(nn.Module):
    def __init__(self, d, h, hidden):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d), Attention(d, h)
        self.ln2, self.mlp = nn.LayerNorm(d), MLP(d, hidden)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Backbone(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.pos = nn.Embedding(c["length"], c["dim"])
        self.blocks = nn.ModuleList([Block(c["dim"], c["heads"], c["mlpHidden"]) for _ in range(c["depth"])])
        self.ln_f = nn.LayerNorm(c["dim"])
        self.head = nn.Linear(c["dim"], c["classes"])
        self.register_buffer("positions", torch.arange(c["length"]), persistent=False)

    def forward(self, h):
        x = h + self.pos(self.positions)
        for b in self.blocks:
            x = b(x)
        return self.head(self.ln_f(x))


class TokenClassifier(nn.Module):
    def __init__(self, vocab, c):
        super().__init__()
        self.embed = nn.Embedding(vocab, c["dim"])
        self.backbone = Backbone(c)

    def forward(self, tokens):
        return self.backbone(self.embed(tokens))


def modulate(x, shift, scale):
    return x * (1 + scale) + shift


class DiTBlock(nn.Module):
    """src/model/dit-block.ts: adaLN-zero block, LayerNorms without affine parameters."""

    def __init__(self, d, h, hidden, rotary=None):
        super().__init__()
        self.ln1, self.attn = nn.LayerNorm(d, eps=1e-6, elementwise_affine=False), Attention(d, h, rotary)
        self.ln2, self.mlp = nn.LayerNorm(d, eps=1e-6, elementwise_affine=False), MLP(d, hidden)
        self.ada = nn.Linear(d, 6 * d)
        nn.init.zeros_(self.ada.weight)
        nn.init.zeros_(self.ada.bias)

    def forward(self, x, c):
        s1, sc1, g1, s2, sc2, g2 = self.ada(F.silu(c)).unsqueeze(1).chunk(6, -1)
        x = x + g1 * self.attn(modulate(self.ln1(x), s1, sc1))
        return x + g2 * self.mlp(modulate(self.ln2(x), s2, sc2))


class DiTDenoiser(nn.Module):
    """src/model/denoiser.ts with conditioning 'adaln': y [B, L, d], t [B] -> logits [B, L, K]."""

    def __init__(self, c):
        super().__init__()
        w = c["dim"]
        self.in_proj = nn.Linear(c["anchorDim"], w)
        self.fc, self.tproj = nn.Linear(w, 4 * w), nn.Linear(4 * w, w)
        self.anchor_flag = nn.Parameter(torch.randn(w) * 0.02)
        rotary = Rotary(c["length"], w // c["heads"]) if c.get("rotary") else None
        self.pos = None if rotary is not None else nn.Embedding(c["length"], w)
        self.blocks = nn.ModuleList([DiTBlock(w, c["heads"], c["mlpHidden"], rotary) for _ in range(c["depth"])])
        self.ln = nn.LayerNorm(w, eps=1e-6, elementwise_affine=False)
        self.ada = nn.Linear(w, 2 * w)
        nn.init.zeros_(self.ada.weight)
        nn.init.zeros_(self.ada.bias)
        self.head = nn.Linear(w, c["classes"])
        self.register_buffer("positions", torch.arange(c["length"]), persistent=False)
        half = w // 2
        self.register_buffer("freqs", torch.exp(torch.arange(half, dtype=torch.float32) * (-math.log(10000) / half)), persistent=False)

    def forward(self, y, t, on_anchor):
        args = (t * 1000).unsqueeze(1) * self.freqs
        c = self.tproj(F.gelu(self.fc(torch.cat([args.sin(), args.cos()], 1))))
        x = self.in_proj(y) + on_anchor.unsqueeze(-1).float() * self.anchor_flag
        if self.pos is not None:
            x = x + self.pos(self.positions)
        for b in self.blocks:
            x = b(x, c)
        shift, scale = self.ada(F.silu(c)).unsqueeze(1).chunk(2, -1)
        return self.head(modulate(self.ln(x), shift, scale))


def groups_for(ch):
    return next((g for g in range(min(32, ch), 1, -1) if ch % g == 0), 1)


class ResBlock(nn.Module):
    """src/model/unet-blocks.ts ResBlock."""

    def __init__(self, cin, cout, emb):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(groups_for(cin), cin), nn.Conv2d(cin, cout, 3, padding=1)
        self.emb = nn.Linear(emb, cout)
        self.norm2, self.conv2 = nn.GroupNorm(groups_for(cout), cout), nn.Conv2d(cout, cout, 3, padding=1)
        nn.init.zeros_(self.conv2.weight)
        nn.init.zeros_(self.conv2.bias)
        self.skip = nn.Conv2d(cin, cout, 1) if cin != cout else None

    def forward(self, x, e):
        h = self.conv1(F.silu(self.norm1(x))) + self.emb(e)[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return (self.skip(x) if self.skip is not None else x) + h


class AttnBlock(nn.Module):
    """src/model/unet-blocks.ts AttentionBlock (the token transformer's Attention over pixels)."""

    def __init__(self, ch, heads):
        super().__init__()
        self.norm, self.attn = nn.GroupNorm(groups_for(ch), ch), Attention(ch, heads)

    def forward(self, x):
        B, C, H, W = x.shape
        seq = self.norm(x).reshape(B, C, H * W).transpose(1, 2)
        return x + self.attn(seq).transpose(1, 2).reshape(B, C, H, W)


class Down(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, stride=2, padding=1)

    def forward(self, x):
        return self.conv(x)


class Up(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x, size):
        return self.conv(F.interpolate(x, size=size, mode="nearest"))


class UNet(nn.Module):
    """src/model/unet.ts UNetDenoiser: y [B, L, d], t [B], on_anchor [B, L] -> logits [B, L, K]."""

    def __init__(self, c):
        super().__init__()
        self.c = c
        base, mults, blocks, heads = c["base"], c["mults"], c["blocks"], c["heads"]
        emb = 4 * base
        self.time = nn.Module()
        self.time.fc, self.time.proj = nn.Linear(emb, 4 * emb), nn.Linear(4 * emb, emb)
        self.in_conv = nn.Conv2d(c["channels"] * (c["anchorDim"] + 1), base, 3, padding=1)
        last, skips, ch = len(mults) - 1, [base], base
        # the levels with attention, by downsampling factor (default: the lowest level only)
        attends = lambda level: 2**level in c.get("attention", [2**last])  # noqa: E731
        self.down = nn.ModuleList()
        for level, m in enumerate(mults):
            stage = nn.ModuleList()
            for _ in range(blocks):
                stage.append(ResBlock(ch, base * m, emb))
                ch = base * m
                if attends(level):
                    stage.append(AttnBlock(ch, heads))
                skips.append(ch)
            if level < last:
                stage.append(Down(ch))
                skips.append(ch)
            self.down.append(stage)
        self.mid = nn.ModuleList([ResBlock(ch, ch, emb), AttnBlock(ch, heads), ResBlock(ch, ch, emb)])
        self.up = nn.ModuleDict()
        for level in reversed(range(len(mults))):
            stage = nn.ModuleList()
            for _ in range(blocks + 1):
                stage.append(ResBlock(ch + skips.pop(), base * mults[level], emb))
                ch = base * mults[level]
                if attends(level):
                    stage.append(AttnBlock(ch, heads))
            if level > 0:
                stage.append(Up(ch))
            self.up[str(level)] = stage
        self.out_norm = nn.GroupNorm(groups_for(ch), ch)
        self.out_conv = nn.Conv2d(ch, c["channels"] * c["classes"], 3, padding=1)
        nn.init.zeros_(self.out_conv.weight)
        nn.init.zeros_(self.out_conv.bias)
        half = emb // 2
        self.register_buffer("freqs", torch.exp(torch.arange(half, dtype=torch.float32) * (-math.log(10000) / half)), persistent=False)

    def forward(self, y, t, on_anchor):
        H, W, C, K, d = self.c["height"], self.c["width"], self.c["channels"], self.c["classes"], self.c["anchorDim"]
        B = y.shape[0]
        state = y.reshape(B, H, W, C * d).permute(0, 3, 1, 2)
        flags = on_anchor.float().reshape(B, H, W, C).permute(0, 3, 1, 2)
        args = (t.float() * 1000).unsqueeze(1) * self.freqs
        e = F.silu(self.time.proj(F.gelu(self.time.fc(torch.cat([args.sin(), args.cos()], 1)))))
        h = self.in_conv(torch.cat([state.float(), flags], 1).contiguous())
        skips = [h]
        for stage in self.down:
            for k, mod in enumerate(stage):
                h = mod(h, e) if isinstance(mod, ResBlock) else mod(h)
                if not (k + 1 < len(stage) and isinstance(stage[k + 1], AttnBlock)):
                    skips.append(h)
        h = self.mid[2](self.mid[1](self.mid[0](h, e)), e)
        for stage in self.up.values():
            for mod in stage:
                if isinstance(mod, ResBlock):
                    h = mod(torch.cat([h, skips.pop()], 1), e)
                elif isinstance(mod, Up):
                    h = mod(h, skips[-1].shape[2:])
                else:
                    h = mod(h)
        out = self.out_conv(F.silu(self.out_norm(h)))
        return out.reshape(B, C, K, H, W).permute(0, 3, 4, 1, 2).reshape(B, H * W * C, K)


def make_model(c, device="cpu"):
    """The model of config c on device, seeded, with a batch of random inputs and targets."""
    torch.manual_seed(0)
    B, L, K = c["batch"], c["length"], c["classes"]
    y = torch.randint(0, K, (B, L))
    if c.get("model", "token") in ("dit", "unet"):
        model = DiTDenoiser(c) if c.get("model", "token") == "dit" else UNet(c)
        inputs = (torch.randn(B, L, c["anchorDim"]), torch.rand(B), torch.rand(B, L) < 0.5)
    else:
        model = TokenClassifier(c["vocab"], c)
        inputs = (torch.randint(0, c["vocab"], (B, L)),)
    return model.to(device), tuple(x.to(device) for x in inputs), y.to(device)


def make_step(c, device="cpu"):
    """The model of config c on device and a closure doing one training step (forward, CE, backward, clip, AdamW)."""
    K = c["classes"]
    model, inputs, y = make_model(c, device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def step():
        logits = model(*inputs)
        loss = F.cross_entropy(logits.reshape(-1, K), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return loss.item()

    return model, step


def cmd_serve(a):
    torch.set_num_threads(a.threads)
    _, step = make_step(json.loads(a.config), a.device)
    print(json.dumps({"ready": True, "torch": torch.__version__}), flush=True)
    for line in sys.stdin:
        words = line.split()
        if len(words) != 2 or words[0] != "steps":
            break
        times = []
        for _ in range(int(words[1])):
            t0 = time.perf_counter()
            step()
            times.append(time.perf_counter() - t0)
        print(json.dumps({"times": times}), flush=True)


def cmd_step(a):
    torch.set_num_threads(a.threads)
    model, step = make_step(json.loads(a.config), a.device)
    times = []
    for i in range(a.warmup + a.steps):
        t0 = time.perf_counter()
        step()
        if i >= a.warmup:
            times.append(time.perf_counter() - t0)
    print(json.dumps({"times": times, "threads": torch.get_num_threads(), "params": sum(p.numel() for p in model.parameters())}))


def cmd_profile(a):
    """The aten ops of `steps` training steps (after `warmup`) under the legacy autograd profiler,
    as sjd's native/profiler.cc reads libtorch's: per op name, calls and total and self CPU time."""
    torch.set_num_threads(a.threads)
    _, step = make_step(json.loads(a.config), "cpu")
    for _ in range(a.warmup):
        step()
    with torch.autograd.profiler.profile(use_kineto=False) as prof:
        for _ in range(a.steps):
            step()
    ops = [{"name": e.key, "calls": e.count, "totalUs": e.cpu_time_total, "selfUs": e.self_cpu_time_total}
           for e in prof.key_averages()]
    print(json.dumps({"ops": ops, "steps": a.steps}))


def cmd_forward(a):
    w = read_safetensors(a.weights)
    meta = json.loads(a.config)
    inputs = read_safetensors(a.tokens)
    if meta.get("model") == "unet":
        model = UNet(meta)
        model.load_state_dict({k: v for k, v in w.items() if not k.startswith("anchors.")}, strict=True)
        with torch.no_grad():
            logits = model(inputs["y"], inputs["t"], inputs["on_anchor"])
        write_safetensors(a.out, {"logits": logits})
        return
    model = TokenClassifier(meta["vocab"], meta)
    model.load_state_dict(w, strict=True)
    tokens = inputs["tokens"]
    with torch.no_grad():
        logits = model.double()(tokens) if meta.get("float64") else model(tokens)
    write_safetensors(a.out, {"logits": logits})


def cmd_flops(a):
    """Forward FLOPs of one example of config.model, counted by hooks on the layers that carry them."""
    model, inputs, _ = make_model(dict(json.loads(a.config), batch=1))
    total = [0]

    def conv(mod, _, out):
        total[0] += 2 * out.numel() * (mod.in_channels // mod.groups) * math.prod(mod.kernel_size)

    def linear(mod, _, out):
        total[0] += 2 * out.numel() * mod.in_features

    def attention(_, inputs, __):
        B, L, d = inputs[0].shape
        total[0] += 2 * 2 * B * L * L * d  # q k^T and att v

    for mod in model.modules():
        hook = {nn.Conv2d: conv, nn.Linear: linear, Attention: attention}.get(type(mod))
        if hook is not None:
            mod.register_forward_hook(hook)
    with torch.no_grad():
        model(*inputs)
    print(json.dumps({"forward_flops": total[0], "params": sum(p.numel() for p in model.parameters())}))


def cmd_gemm(a):
    torch.set_num_threads(a.threads)
    g = torch.Generator().manual_seed(0)
    A = torch.randn(a.n, a.n, generator=g)
    B = torch.randn(a.n, a.n, generator=g)
    A @ B
    times = []
    for _ in range(a.reps):
        t0 = time.perf_counter()
        A @ B
        times.append(time.perf_counter() - t0)
    print(json.dumps({"times": times}))


def cmd_allreduce(a):
    import torch.distributed as dist
    torch.set_num_threads(a.threads)
    os.environ["GLOO_SOCKET_IFNAME"] = "lo"  # as sjd's worker: Gloo on loopback
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{a.port}", rank=a.rank,
                            world_size=a.world, timeout=datetime.timedelta(seconds=120))
    times = {}
    for nbytes, reps in zip(map(int, a.sizes.split(",")), map(int, a.reps.split(","))):
        t = torch.zeros(nbytes // 4)
        dist.all_reduce(t)
        dist.all_reduce(t)
        dist.barrier()
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            dist.all_reduce(t)
            ts.append(time.perf_counter() - t0)
        times[nbytes] = ts
    dist.destroy_process_group()
    print(json.dumps({"times": times}))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("serve")
    v.add_argument("--config", required=True)
    v.add_argument("--threads", type=int, default=2)
    v.add_argument("--device", default="cpu")
    s = sub.add_parser("step")
    s.add_argument("--config", required=True)
    s.add_argument("--steps", type=int, default=5)
    s.add_argument("--warmup", type=int, default=2)
    s.add_argument("--threads", type=int, default=2)
    s.add_argument("--device", default="cpu")
    q = sub.add_parser("profile")
    q.add_argument("--config", required=True)
    q.add_argument("--steps", type=int, default=3)
    q.add_argument("--warmup", type=int, default=2)
    q.add_argument("--threads", type=int, default=2)
    f = sub.add_parser("forward")
    f.add_argument("--weights", required=True)
    f.add_argument("--tokens", required=True)
    f.add_argument("--config", required=True)
    f.add_argument("--out", required=True)
    o = sub.add_parser("flops")
    o.add_argument("--config", required=True)
    g = sub.add_parser("gemm")
    g.add_argument("--n", type=int, default=1024)
    g.add_argument("--reps", type=int, default=10)
    g.add_argument("--threads", type=int, default=2)
    r = sub.add_parser("allreduce")
    r.add_argument("--rank", type=int, required=True)
    r.add_argument("--world", type=int, default=2)
    r.add_argument("--port", type=int, required=True)
    r.add_argument("--sizes", required=True)
    r.add_argument("--reps", required=True)
    r.add_argument("--threads", type=int, default=1)
    a = p.parse_args()
    {"step": cmd_step, "serve": cmd_serve, "profile": cmd_profile, "forward": cmd_forward, "gemm": cmd_gemm,
     "flops": cmd_flops, "allreduce": cmd_allreduce}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())

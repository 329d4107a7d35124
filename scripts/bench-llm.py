#!/usr/bin/env python3
"""rooftop llm's bounds beside a real run of the same model on this machine.

A Llama-architecture decoder written in plain PyTorch (random weights; the dimensions of a
real config.json, fewer layers allowed; RMS norms, rotary embeddings, grouped-query
attention as batched matrix products with a causal mask, a SiLU-gated MLP, the LM head on
the last token) runs a prefill of --prompt tokens and --generate decode steps under
`rooftop profile --torch`. `rooftop llm --unfused --trace` bounds the same model and
workload on the same ceilings file and joins the run's operators to its own. Per operator
class and phase, the script prints PyTorch's own FLOPs beside the predicted, the measured self time beside the bound, and the attained
fraction (bound / measured). Exit status 1 where a GEMM's FLOPs differ from PyTorch's own
count (attention's too where its softmax is not counted by PyTorch: it is shown, not
checked), 3 where an operator ran faster than its bound (a bug in the model or the
ceilings).

    scripts/bench-llm.py --rooftop build/app/rooftop --ceilings C.h5 \\
        --config tests/fixtures/llm/llama-3-8b.json [--layers 2] [--prompt 128] \\
        [--generate 16] [--python /usr/bin/python3]

Threads: OMP_NUM_THREADS as set. Not a timed test: a benchmark, its figures in
BENCHMARKS.md.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

# The decoder: plain PyTorch, run by `rooftop profile --torch` as an unmodified program.
DECODER = r'''
import json, sys, torch
import torch.nn.functional as F
cfg = json.load(open(sys.argv[1]))
layers, P, G = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
h, H = cfg["hidden_size"], cfg["num_attention_heads"]
KV = cfg.get("num_key_value_heads") or H
d = cfg.get("head_dim") or h // H
I, V = cfg["intermediate_size"], cfg["vocab_size"]
eps, theta = cfg.get("rms_norm_eps", 1e-5), cfg.get("rope_theta", 10000.0)
torch.manual_seed(0)
def w(*shape): return torch.randn(*shape) * 0.02
embed, head, final = w(V, h), w(V, h), torch.ones(h)
L = [dict(n1=torch.ones(h), q=w(H * d, h), k=w(KV * d, h), v=w(KV * d, h), o=w(h, H * d),
          n2=torch.ones(h), g=w(I, h), u=w(I, h), dn=w(h, I)) for _ in range(layers)]
T = P + G
angles = torch.outer(torch.arange(T).float(),
                     1.0 / theta ** (torch.arange(0, d, 2).float() / d))
cos, sin = angles.cos(), angles.sin()
kc = [torch.zeros(1, KV, T, d) for _ in range(layers)]
vc = [torch.zeros(1, KV, T, d) for _ in range(layers)]
def rms(x, g): return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * g
def rope(x, pos):
    a, b = x[..., : d // 2], x[..., d // 2:]
    c, s = cos[pos], sin[pos]
    return torch.cat([a * c - b * s, a * s + b * c], -1)
def step(ids, start):
    n = ids.shape[1]
    x = F.embedding(ids, embed)
    pos = torch.arange(start, start + n)
    mask = torch.full((n, start + n), float("-inf")).triu(start + 1)
    for i, l in enumerate(L):
        y = rms(x, l["n1"])
        q = F.linear(y, l["q"]).view(1, n, H, d).transpose(1, 2)
        k = F.linear(y, l["k"]).view(1, n, KV, d).transpose(1, 2)
        v = F.linear(y, l["v"]).view(1, n, KV, d).transpose(1, 2)
        q, k = rope(q, pos), rope(k, pos)
        kc[i][:, :, start:start + n] = k
        vc[i][:, :, start:start + n] = v
        keys = kc[i][:, :, :start + n].repeat_interleave(H // KV, 1)
        values = vc[i][:, :, :start + n].repeat_interleave(H // KV, 1)
        scores = torch.matmul(q, keys.transpose(-1, -2)) / d ** 0.5 + mask
        a = torch.matmul(torch.softmax(scores, -1), values)
        x = x + F.linear(a.transpose(1, 2).reshape(1, n, H * d), l["o"])
        y = rms(x, l["n2"])
        x = x + F.linear(F.silu(F.linear(y, l["g"])) * F.linear(y, l["u"]), l["dn"])
    return F.linear(rms(x[:, -1:], final), head)
with torch.no_grad():
    token = step(torch.randint(0, V, (1, P)), 0).argmax(-1)
    for t in range(G):
        token = step(token, P + t).argmax(-1)
print("decoded", G, "tokens after a prompt of", P)
'''


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rooftop", required=True)
    p.add_argument("--ceilings", required=True)
    p.add_argument("--config", required=True)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--prompt", type=int, default=128)
    p.add_argument("--generate", type=int, default=16)
    p.add_argument("--python", default="/usr/bin/python3")
    a = p.parse_args()
    cfg = json.load(open(a.config))
    with tempfile.TemporaryDirectory() as tmp:
        decoder = os.path.join(tmp, "decoder.py")
        with open(decoder, "w") as f:
            f.write(DECODER)
        short = dict(cfg, num_hidden_layers=a.layers)
        config = os.path.join(tmp, "config.json")
        with open(config, "w") as f:
            json.dump(short, f)
        kernels = os.path.join(tmp, "kernels.h5")
        run = subprocess.run([a.rooftop, "profile", "--ceilings", a.ceilings, "--torch",
                              "--out", kernels, "--", a.python, decoder, config, str(a.layers),
                              str(a.prompt), str(a.generate)], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("bench-llm: profile failed: " + run.stderr.strip().splitlines()[-1])
        # rooftop llm joins the run's operators to its predicted ones (--trace).
        llm = subprocess.run([a.rooftop, "llm", "--config", config, "--ceilings", a.ceilings,
                              "--dtype", "fp32", "--unfused", "--prompt", str(a.prompt),
                              "--generate", str(a.generate), "--launch-overhead", "none",
                              "--trace", kernels, "--json"], capture_output=True, text=True)
        if llm.returncode != 0:
            sys.exit("bench-llm: llm failed: " + llm.stderr.strip())
        predicted = json.loads(llm.stdout)["machines"][0]

    measured = predicted["measured"]
    print("%-18s %-8s %14s %14s %11s %11s %9s" % ("operators", "phase", "PyTorch FLOPs",
                                                  "predicted", "measured s", "bound s",
                                                  "attained"))
    for c in sorted(measured["classes"], key=lambda c: (c["phase"], c["name"])):
        print("%-18s %-8s %14.6g %14.6g %11.4g %11.4g %9.3g" % (
            c["name"], c["phase"], c["measured_flops"], c["predicted_flops"], c["measured_s"],
            c["bound_s"], c["attained"]))
    print("other (%d records: norms, rotary, copies, ...): %.4g s" % (
        measured["other_records"], measured["other_s"]))
    faster = ["%s (%s)" % (c["name"], c["phase"]) for c in measured["classes"]
              if c["faster_than_bound"]]
    differ = ["%s (%s)" % (c["name"], c["phase"]) for c in measured["classes"]
              if c["measured_flops"] != c["predicted_flops"] and c["name"] != "attention"]
    print("machine: %s (%s); %d layers, prompt %d, %d generated, fp32" % (
        predicted["name"], a.ceilings, a.layers, a.prompt, a.generate))
    if differ:
        print("FLOPS DIFFER from PyTorch's own count: " + ", ".join(differ))
        return 1
    print("every GEMM's FLOPs equal PyTorch's own count")
    if faster:
        print("FASTER THAN ITS BOUND (a bug in the model or the ceilings): " + ", ".join(faster))
        return 3
    print("no operator ran faster than its bound")
    return 0


if __name__ == "__main__":
    sys.exit(main())

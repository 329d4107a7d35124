#!/usr/bin/env python3
"""rooftop llm's bounds beside real runs of the same model on this machine.

A Llama-architecture decoder written in plain PyTorch (random weights; the dimensions of a
real config.json, fewer layers allowed; RMS norms, rotary embeddings, grouped-query
attention as batched matrix products with a causal mask, a SiLU-gated MLP, the LM head on
the last token) runs a prefill of each --prompts length and --generate decode steps. Two
comparisons, each with `rooftop llm --unfused` on the same ceilings file:

  operators (--no-operators skips it): a traced run joined to the predicted operators by
    `llm --trace` (launch costs left out). On a CPU the program runs under `rooftop
    profile --torch` (operators timed by their self times, FLOPs PyTorch's own count); on
    a GPU under its own torch.profiler, --operator-generate decode steps (operators timed
    by the kernels they launched, FLOPs counted from the trace's shapes). Per class and
    phase: the measured FLOPs beside the predicted, the measured time beside the bound, the
    attained fraction; per layer (each in a record_function range "layers.I"), everything
    it ran beside one layer's bound.
  phases: the program run alone, timed (a warm-up first; on a GPU, synchronized): the time
    to first token and per output token beside llm's (with the file's launch costs), and
    on a GPU the targets (decode within 15%, prefill within 25%).

Exit status 1 where a GEMM's FLOPs differ from the measured count, 3 where an operator
or a layer ran faster than its bound (a bug in the model or the ceilings).

    scripts/bench-llm.py --rooftop build/app/rooftop --ceilings C.h5 \\
        --config tests/fixtures/llm/llama-3-8b.json [--layers 2] [--prompts 128[,2048]] \\
        [--generate 16] [--device cpu|cuda] [--dtype fp32|bf16] [--no-operators] \\
        [--operator-generate 8] [--keep DIR] [--python /usr/bin/python3]

Threads: OMP_NUM_THREADS as set. Not a timed test: a benchmark, its figures in
BENCHMARKS.md.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

# The decoder: plain PyTorch, an unmodified program to `rooftop profile --torch`.
#   decoder.py CONFIG LAYERS PROMPT GENERATE DEVICE DTYPE [times=TIMES.json] [trace=T.json]
# With TIMES.json: a warm-up prefill and two decode steps first, then the timed run, its
# prefill and decode seconds written there. With T.json (a GPU's operators): the warm-up,
# then the run under torch.profiler (CPU and CUDA, record_shapes), its trace written there.
# Each layer runs in a record_function range "layers.I", which names the layer in a trace.
DECODER = r'''
import json, sys, time, torch
import torch.nn.functional as F
cfg = json.load(open(sys.argv[1]))
layers, P, G = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
device, dtype = sys.argv[5], {"fp32": torch.float32, "bf16": torch.bfloat16}[sys.argv[6]]
opts = dict(a.split("=", 1) for a in sys.argv[7:])
times, trace = opts.get("times", ""), opts.get("trace", "")
h, H = cfg["hidden_size"], cfg["num_attention_heads"]
KV = cfg.get("num_key_value_heads") or H
d = cfg.get("head_dim") or h // H
I, V = cfg["intermediate_size"], cfg["vocab_size"]
eps, theta = cfg.get("rms_norm_eps", 1e-5), cfg.get("rope_theta", 10000.0)
torch.manual_seed(0)
def w(*shape): return torch.randn(*shape, device=device, dtype=dtype) * 0.02
def ones(n): return torch.ones(n, device=device, dtype=dtype)
embed, head, final = w(V, h), w(V, h), ones(h)
L = [dict(n1=ones(h), q=w(H * d, h), k=w(KV * d, h), v=w(KV * d, h), o=w(h, H * d),
          n2=ones(h), g=w(I, h), u=w(I, h), dn=w(h, I)) for _ in range(layers)]
T = P + G
angles = torch.outer(torch.arange(T, device=device).float(),
                     1.0 / theta ** (torch.arange(0, d, 2, device=device).float() / d))
cos, sin = angles.cos().to(dtype), angles.sin().to(dtype)
kc = [torch.zeros(1, KV, T, d, device=device, dtype=dtype) for _ in range(layers)]
vc = [torch.zeros(1, KV, T, d, device=device, dtype=dtype) for _ in range(layers)]
def rms(x, g): return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * g
def rope(x, pos):
    a, b = x[..., : d // 2], x[..., d // 2:]
    c, s = cos[pos], sin[pos]
    return torch.cat([a * c - b * s, a * s + b * c], -1)
def step(ids, start):
    n = ids.shape[1]
    x = F.embedding(ids, embed)
    pos = torch.arange(start, start + n, device=device)
    mask = torch.full((n, start + n), float("-inf"), device=device, dtype=dtype).triu(start + 1)
    for i, l in enumerate(L):
        with torch.autograd.profiler.record_function("layers.%d" % i):
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
def sync():
    if device == "cuda": torch.cuda.synchronize()
def run(prompt, steps):
    token = step(torch.randint(0, V, (1, prompt), device=device), 0).argmax(-1)
    for t in range(steps):
        token = step(token, prompt + t).argmax(-1)
with torch.no_grad():
    if trace:
        run(min(P, 16), 2)
        sync()
        activities = [torch.profiler.ProfilerActivity.CPU]
        if device == "cuda": activities.append(torch.profiler.ProfilerActivity.CUDA)
        with torch.profiler.profile(activities=activities, record_shapes=True) as prof:
            run(P, G)
            sync()
        prof.export_chrome_trace(trace)
    elif times:
        run(min(P, 16), 2)
        sync()
        t0 = time.perf_counter()
        token = step(torch.randint(0, V, (1, P), device=device), 0).argmax(-1)
        sync()
        t1 = time.perf_counter()
        for t in range(G):
            token = step(token, P + t).argmax(-1)
        sync()
        t2 = time.perf_counter()
        json.dump({"prefill_s": t1 - t0, "decode_s_per_token": (t2 - t1) / max(G, 1)},
                  open(times, "w"))
    else:
        run(P, G)
print("decoded", G, "tokens after a prompt of", P)
'''

# The targets on a GPU: measured within this fraction of the prediction.
TARGETS = {"prefill_s": 0.25, "decode_s_per_token": 0.15}


def rooftop_llm(a, config, prompt, extra, generate=None):
    llm = subprocess.run([a.rooftop, "llm", "--config", config, "--ceilings", a.ceilings,
                          "--dtype", a.dtype, "--unfused", "--prompt", str(prompt),
                          "--generate", str(a.generate if generate is None else generate),
                          "--json", *extra],
                         capture_output=True, text=True)
    if llm.returncode != 0:
        sys.exit("bench-llm: llm failed: " + llm.stderr.strip())
    return json.loads(llm.stdout)["machines"][0]


def traced_run(a, tmp, decoder, config, prompt, generate):
    """The decoder's trace: under profile --torch on a CPU (rooftop's launcher writes the
    shapes and PyTorch's FLOP counts a PyTorch without kineto leaves out), under its own
    torch.profiler on a GPU (CPU operators and the CUDA kernels they launched)."""
    # A GPU's trace gzip-compressed (PyTorch compresses a name ending in .gz; rooftop reads
    # either): 32 layers of a few decode steps run to tens of megabytes of JSON.
    trace = os.path.join(a.keep or tmp, "trace-%d.json%s" % (prompt,
                                                            ".gz" if a.device == "cuda" else ""))
    args = [decoder, config, str(a.layers), str(prompt), str(generate), a.device, a.dtype]
    if a.device == "cuda":
        command = [a.python, *args, "trace=" + trace]
    else:
        command = [a.rooftop, "profile", "--ceilings", a.ceilings, "--torch", "--trace", trace,
                   "--", a.python, *args]
    print("bench-llm: the traced run, prompt %d, %d decode steps ..." % (prompt, generate))
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("bench-llm: the traced run failed: " +
                 (run.stderr.strip().splitlines() or ["?"])[-1])
    return trace


def operators(a, tmp, decoder, config, prompt):
    """The traced run joined by llm --trace, per operator class and per layer; its exit
    status."""
    generate = a.generate if a.device == "cpu" else min(a.generate, a.operator_generate)
    trace = traced_run(a, tmp, decoder, config, prompt, generate)
    predicted = rooftop_llm(a, config, prompt, ["--launch-overhead", "none", "--trace", trace],
                            generate)
    measured = predicted["measured"]
    counter = "PyTorch's own count" if a.device == "cpu" else "the count from the trace's shapes"
    print("operators, prompt %d, %d generated (%s beside llm --trace):" % (
        prompt, generate, "profile --torch" if a.device == "cpu" else "torch.profiler"))
    print("%-18s %-8s %14s %14s %11s %11s %9s" % ("operators", "phase", "measured FLOPs",
                                                  "predicted", "measured s", "bound s",
                                                  "attained"))
    for c in sorted(measured["classes"], key=lambda c: (c["phase"], c["name"])):
        print("%-18s %-8s %14.6g %14.6g %11.4g %11.4g %9.3g" % (
            c["name"], c["phase"], c["measured_flops"], c["predicted_flops"], c["measured_s"],
            c["bound_s"], c["attained"]))
    print("other (%d records: norms, rotary, copies, ...): %.4g s" % (
        measured["other_records"], measured["other_s"]))
    for phase in ("prefill", "decode"):
        layers = [l for l in measured["layers"] if l["phase"] == phase]
        if not layers:
            continue
        fractions = sorted(l["attained"] for l in layers)
        print("layers measured, %s: %d layer(s), %d step(s) each, %.4g s in all; attained "
              "%.3g to %.3g of one layer's bound (median %.3g)" % (
                  phase, len(layers), layers[0]["steps"], sum(l["measured_s"] for l in layers),
                  fractions[0], fractions[-1], fractions[len(fractions) // 2]))
    faster = ["%s (%s)" % (c["name"], c["phase"]) for c in measured["classes"]
              if c["faster_than_bound"]]
    faster += ["layer %d (%s)" % (l["layer"], l["phase"]) for l in measured["layers"]
               if l["faster_than_bound"]]
    differ = ["%s (%s)" % (c["name"], c["phase"]) for c in measured["classes"]
              if c["measured_flops"] != c["predicted_flops"] and c["name"] != "attention"]
    if differ:
        print("FLOPS DIFFER from %s: %s" % (counter, ", ".join(differ)))
        return 1
    print("every GEMM's FLOPs equal %s" % counter)
    if faster:
        print("FASTER THAN ITS BOUND (a bug in the model or the ceilings): " + ", ".join(faster))
        return 3
    print("no operator and no layer ran faster than its bound")
    return 0


def phases(a, tmp, decoder, config, prompt):
    """The program alone, timed, beside llm's prediction with launch costs."""
    times = os.path.join(a.keep or tmp, "times-%d.json" % prompt)
    print("bench-llm: the timed run, prompt %d, %d decode steps ..." % (prompt, a.generate))
    run = subprocess.run([a.python, decoder, config, str(a.layers), str(prompt),
                          str(a.generate), a.device, a.dtype, "times=" + times],
                         capture_output=True,
                         text=True)
    if run.returncode != 0:
        sys.exit("bench-llm: the decoder failed: " +
                 (run.stderr.strip().splitlines() or ["?"])[-1])
    measured = json.load(open(times))
    predicted = rooftop_llm(a, config, prompt, [])
    print("phases, prompt %d (the program alone, timed, beside llm with launch costs):" % prompt)
    for key, label in (("prefill_s", "time to first token"),
                       ("decode_s_per_token", "time per output token")):
        ratio = measured[key] / predicted[key] if predicted[key] > 0 else float("nan")
        verdict = ""
        if a.device == "cuda":
            verdict = ("  within %d%%: %s" % (round(TARGETS[key] * 100),
                                              "yes" if abs(ratio - 1) <= TARGETS[key] else "NO"))
        print("  %-22s measured %10.4g s  predicted %10.4g s  measured/predicted %6.3g%s" % (
            label, measured[key], predicted[key], ratio, verdict))
    return 0


def main():
    # A line at a time: a run stopped at its time limit leaves a log that says where it was.
    sys.stdout.reconfigure(line_buffering=True)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rooftop", required=True)
    p.add_argument("--ceilings", required=True)
    p.add_argument("--config", required=True)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--prompts", default="128", help="prefill lengths, comma-separated")
    p.add_argument("--generate", type=int, default=16)
    p.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    p.add_argument("--dtype", default="fp32", choices=("fp32", "bf16"))
    p.add_argument("--no-operators", action="store_true",
                   help="only the phases' times, no traced run")
    p.add_argument("--operator-generate", type=int, default=8,
                   help="decode steps of a GPU's traced run (its trace grows with each)")
    p.add_argument("--python", default="/usr/bin/python3")
    p.add_argument("--keep", metavar="DIR",
                   help="write the traces and the timed runs' times into DIR (made where "
                        "missing), kept after the run")
    a = p.parse_args()
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
    cfg = json.load(open(a.config))
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        decoder = os.path.join(tmp, "decoder.py")
        with open(decoder, "w") as f:
            f.write(DECODER)
        config = os.path.join(tmp, "config.json")
        with open(config, "w") as f:
            json.dump(dict(cfg, num_hidden_layers=a.layers), f)
        for prompt in [int(v) for v in a.prompts.split(",")]:
            if not a.no_operators:
                status = max(status, operators(a, tmp, decoder, config, prompt))
            phases(a, tmp, decoder, config, prompt)
    print("machine: %s; %s, %d layers, %d generated, %s on %s" % (
        a.ceilings, os.path.basename(a.config), a.layers, a.generate, a.dtype, a.device))
    return status


if __name__ == "__main__":
    sys.exit(main())

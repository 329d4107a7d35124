# The PyTorch program of tests/fixtures/import/ncu-text-h200-torch.txt, as it ran on an
# NVIDIA H200 (2026-11-27, PyTorch 2.11, CUDA 13): the inputs, three warm-up steps, then
# one step, or with a path five steps under torch.profiler (record_shapes=True), whose
# trace it writes there. ncu --launch-count 40 profiled its first 40 launches (inputs
# and warm-up steps: the same with or without a path). run-gpu.sh
# profiles it with `rooftop profile --launch-count 40 -- python3 torch_model.py`, so that
# the same 40 launches are counted as ncu counted them.
#
# A small real PyTorch workload (attention block, convolution, GEMMs in fp32/bf16/fp16),
# profiled by torch.profiler with record_shapes=True: the trace is a fixture for
# `rooftop import`, and the same program runs under ncu for the text log beside it.
import sys, torch
import torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity

dev = "cuda"
torch.manual_seed(0)
B, S, H, D = 8, 512, 16, 64
x = torch.randn(B, S, H * D, device=dev)
w1 = torch.randn(H * D, 4 * H * D, device=dev) / 32
b1 = torch.randn(4 * H * D, device=dev)
w2 = torch.randn(4 * H * D, H * D, device=dev) / 64
img = torch.randn(16, 64, 56, 56, device=dev)
conv = torch.randn(128, 64, 3, 3, device=dev) / 24

def step():
    h = F.linear(x, w1.t(), b1)            # aten::linear -> addmm
    h = F.gelu(h)
    y = h @ w2                              # aten::matmul -> mm
    q = y.view(B, S, H, D).transpose(1, 2).to(torch.bfloat16)
    a = F.scaled_dot_product_attention(q, q, q)   # flash attention (bf16)
    s = torch.bmm(q.reshape(B * H, S, D).half(), q.reshape(B * H, S, D).transpose(1, 2).half())
    c = F.conv2d(img, conv, stride=1, padding=1)
    z = torch.add(c, 1.0)
    z = torch.mul(z, z)
    return a.float().sum() + s.float().mean() + z.sum()

for _ in range(3):
    step()
torch.cuda.synchronize()
if len(sys.argv) > 1:
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                 record_shapes=True, with_flops=True) as prof:
        for _ in range(5):
            step()
        torch.cuda.synchronize()
    prof.export_chrome_trace(sys.argv[1])
    print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=15))
else:
    step(); torch.cuda.synchronize()

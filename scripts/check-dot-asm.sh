#!/usr/bin/env bash
# Disassembles the dot-product chains of a build (microbench/src/matrix/dot_kernels.cpp's object)
# and fails unless the loop of every kernel is its dot-product instruction on registers
# alone: 2 x chains of them per iteration (the pair of dot_kernels.hpp) and no operand in
# memory (a spilled chain, or a stack copy of the chains, would be one). The AMX kernels
# likewise: 2 x C tiles tdpbf16ps per iteration on tiles, and the tile configuration,
# loads and stores outside the loop.
#   scripts/check-dot-asm.sh [BUILD_DIR]     (default: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
obj="$(find "$build" -path '*rooftop_microbench.dir*' -name 'dot_kernels.cpp.o' | head -1)"
[[ -n "$obj" ]] || { echo "check-dot-asm: no dot_kernels.cpp.o under $build (build rooftop_microbench)" >&2; exit 1; }

objdump -d --no-show-raw-insn -C "$obj" | python3 -c '
import re, sys
kernels = {"bf16_zmm": "vdpbf16ps", "int8_zmm": "vpdpbusd", "int8_ymm": "vpdpbusd",
           "amx_bf16": "tdpbf16ps"}
functions, name = {}, None
for line in sys.stdin:
    head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
    if head:
        name = head.group(1)
        functions[name] = []
    elif name and re.match(r"^\s+[0-9a-f]+:", line):
        addr, _, text = line.strip().partition(":")
        # The symbol after a branch target is not an operand.
        functions[name].append((int(addr, 16), re.sub(r"\s*<.*>$", "", text.strip())))
failures, checked, seen = [], 0, set()
for name, body in functions.items():
    m = re.search(r"::(bf16_zmm|int8_zmm|int8_ymm|amx_bf16)<(\d+)>", name)
    if not m:
        continue
    kind, chains = m.group(1), int(m.group(2))
    seen.add(kind)
    # The loop: the backward conditional branch and the instructions from its target on.
    loop = None
    for i, (addr, text) in enumerate(body):
        b = re.match(r"j(ne|nz|b|l|g|a)\w*\s+([0-9a-f]+)", text)
        if b and int(b.group(2), 16) < addr:
            loop = [t for a, t in body[: i + 1] if a >= int(b.group(2), 16)]
    label = "%s<%d>" % (kind, chains)
    if loop is None:
        failures.append(label + ": no loop found")
        continue
    checked += 1
    # AVX-VNNI prints as "{vex} vpdpbusd".
    dots = [t for t in loop if re.match(r"(\{vex\}\s*)?" + kernels[kind] + r"\s", t)]
    memory = [t for t in loop if "(" in t]
    register = {"zmm": "%zmm", "ymm": "%ymm", "f16": "%tmm"}[kind[-3:]]
    wrong = [t for t in dots if register not in t]
    if kind == "amx_bf16":
        # C tiles 0 to tiles-1 take A (tmm4) times B (tmm5) and times C (tmm6) in the loop;
        # the configuration, the loads and the stores before and after it, and the
        # kernel gives the tiles back.
        want = sorted("%%tmm%d,%%tmm4,%%tmm%d" % (s, d) for s in (5, 6) for d in range(chains))
        got = sorted(re.sub(r"^tdpbf16ps\s+", "", t) for t in dots)
        if got != want:
            failures.append("%s: the loop multiplies %s, expected %s" % (label, got, want))
        tiles = [t for t in loop if re.match(r"(tileload|tilestore|ldtilecfg|tilerelease|tilezero)", t)]
        if tiles:
            failures.append("%s: tile set-up in the loop: %s" % (label, "; ".join(tiles)))
        whole = [t for _, t in body]
        for op, n in (("ldtilecfg", 1), ("tileloadd", chains + 3), ("tilestored", chains), ("tilerelease", 1)):
            if sum(1 for t in whole if t.startswith(op)) != n:
                failures.append("%s: not %d %s in the kernel" % (label, n, op))
    if len(dots) != 2 * chains:
        failures.append("%s: %d %s in the loop, expected %d" % (label, len(dots), kernels[kind], 2 * chains))
    if memory:
        failures.append("%s: memory operands in the loop: %s" % (label, "; ".join(memory)))
    if wrong:
        failures.append("%s: not on %s registers: %s" % (label, register, wrong[0]))
    print("%-14s loop of %3d instructions, %2d %s, no memory operand%s" %
          (label, len(loop), len(dots), kernels[kind], "" if not memory else " FAILED"))
failures += ["no %s kernel" % k for k in sorted(set(kernels) - seen)]
if failures or checked == 0:
    print("check-dot-asm: " + ("; ".join(failures) or "no dot-product kernels found"), file=sys.stderr)
    sys.exit(1)
print("check-dot-asm: %d kernels, every loop on registers" % checked)
'

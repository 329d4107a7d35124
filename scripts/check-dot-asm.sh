#!/usr/bin/env bash
# Disassembles the dot-product chains of a build (microbench/src/dot_kernels.cpp's object)
# and fails unless the loop of every kernel is its dot-product instruction on registers
# alone: 2 x chains of them per iteration (the pair of dot_kernels.hpp) and no operand in
# memory (a spilled chain, or a stack copy of the chains, would be one).
#   scripts/check-dot-asm.sh [BUILD_DIR]     (default: build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
obj="$(find "$build" -path '*rooftop_microbench.dir*' -name 'dot_kernels.cpp.o' | head -1)"
[[ -n "$obj" ]] || { echo "check-dot-asm: no dot_kernels.cpp.o under $build (build rooftop_microbench)" >&2; exit 1; }

objdump -d --no-show-raw-insn -C "$obj" | python3 -c '
import re, sys
kernels = {"bf16_zmm": "vdpbf16ps", "int8_zmm": "vpdpbusd", "int8_ymm": "vpdpbusd"}
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
failures, checked = [], 0
for name, body in functions.items():
    m = re.search(r"::(bf16_zmm|int8_zmm|int8_ymm)<(\d+)>", name)
    if not m:
        continue
    kind, chains = m.group(1), int(m.group(2))
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
    wrong = [t for t in dots if ("%zmm" if kind.endswith("zmm") else "%ymm") not in t]
    if len(dots) != 2 * chains:
        failures.append("%s: %d %s in the loop, expected %d" % (label, len(dots), kernels[kind], 2 * chains))
    if memory:
        failures.append("%s: memory operands in the loop: %s" % (label, "; ".join(memory)))
    if wrong:
        failures.append("%s: not on %s registers: %s" % (label, kind[-3:], wrong[0]))
    print("%-14s loop of %3d instructions, %2d %s, no memory operand%s" %
          (label, len(loop), len(dots), kernels[kind], "" if not memory else " FAILED"))
if failures or checked == 0:
    print("check-dot-asm: " + ("; ".join(failures) or "no dot-product kernels found"), file=sys.stderr)
    sys.exit(1)
print("check-dot-asm: %d kernels, every loop on registers" % checked)
'

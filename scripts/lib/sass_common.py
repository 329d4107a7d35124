"""What check-sass.sh's checks of the tensor, bandwidth and wgmma kernels read the same
way: ptxas's spill report and the SASS in cuobjdump's layout (lib/disassemble.py).
"""
import re, sys

def ptxas_spills(log, kernel_of, target=None):
    """(kernel, None or the spill report) per kernel ptxas -v reports ("Compiling entry
    function 'NAME'[ for 'TARGET']" ... "N bytes spill stores, M bytes spill loads")."""
    where = f" for '{target}'" if target else ""
    out = []
    for name, report in re.findall(
            r"Compiling entry function '([^']+)'" + where + r".*?\n(.*?spill loads)", log, re.S):
        key = kernel_of(name)
        if key:
            m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", report)
            clean = m and m.group(1) == "0" and m.group(2) == "0"
            out.append((key, None if clean else (m.group(0) if m else report)))
    return out

def constant(path, name):
    """The integer of `inline constexpr int NAME = N;` in the C++ source at `path`: the
    checks count what the kernels' own constants say."""
    m = re.search(r"\b" + name + r"\s*=\s*(\d+)\s*;", open(path).read())
    if not m:
        sys.exit(f"check-sass: no {name} in {path}")
    return int(m.group(1))

def sass_functions(sass):
    """(name, body) per function of cuobjdump -sass output (disassemble.py's layout)."""
    return [(b.split("\n", 1)[0].strip(), b)
            for b in re.split(r"^\s*Function : ", sass, flags=re.M)[1:]]

def instructions(body):
    """(address, text) per instruction line, and each label's address (.L_x_N: precedes
    the instruction it names)."""
    out, labels, pending = [], {}, []
    for line in body.splitlines():
        m = re.match(r"\s*(\.L_x_\d+):", line)
        if m:
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*)", line)
        if m:
            address = int(m.group(1), 16)
            labels.update((label, address) for label in pending)
            pending = []
            out.append((address, m.group(2)))
    return out, labels

def undecoded(body):
    """Instructions the disassembler left out (one it does not know): the gaps in the
    16-byte steps of the addresses."""
    addresses = [a for a, _ in instructions(body)[0]]
    return sum((b - a) // 16 - 1 for a, b in zip(addresses, addresses[1:]) if b - a > 16)

def loops(body):
    """(first address, last address, text) of each loop: the instructions from a backward
    branch's target to the branch."""
    code, labels = instructions(body)
    out = []
    for address, text in code:
        m = re.search(r"\bBRA\b.*?(?:`\((\.L_x_\d+)\)|\b0x([0-9a-f]+)\b)", text)
        if not m:
            continue
        target = labels.get(m.group(1)) if m.group(1) else int(m.group(2), 16)
        if target is not None and target < address:
            out.append((target, address,
                        "\n".join(t for a, t in code if target <= a <= address)))
    return out

def hot_loop(body):
    """The text of the kernel's hot loop: the longest innermost loop (one that holds no
    other), where a kernel spends its time; "" for a kernel without a loop."""
    spans = loops(body)
    inner = [l for l in spans
             if not any(o is not l and l[0] <= o[0] and o[1] <= l[1] for o in spans)]
    return max(inner, key=lambda l: l[2].count("\n"), default=(0, 0, ""))[2]

def has_local(body):
    return re.search(r"\b(LDL|STL)\b", body) is not None

def kernels_in(blocks, kernel_of, found):
    """(kernel, body) per (name, body) block of a kernel kernel_of knows, each kernel
    added to `found`."""
    for name, body in blocks:
        key = kernel_of(name)
        if key:
            found.add(key)
            yield key, body

def spill_check(log, kernel_of, describe, target=None):
    """(the kernels ptxas reported, a failure per kernel that spills, how many reports) from
    ptxas_spills; describe(key) names a kernel in its failure."""
    reports = ptxas_spills(log, kernel_of, target)
    failures = [f"ptxas: spills in {describe(key)}: {spill}" for key, spill in reports if spill]
    return {key for key, _ in reports}, failures, len(reports)

def finish(failures, checked, what, have_sass):
    """Exits 1 after the failures, else says how many checks passed."""
    for f in failures:
        print("check-sass: " + f, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"check-sass: {checked} checks passed on {what}" +
          ("" if have_sass else " (PTX and ptxas report; no SASS read)"))

#!/usr/bin/env python3
"""The SASS of a CUDA object, in cuobjdump's layout, from whichever disassembler is here.

    disassemble.py OUT OBJECT [CUBIN ...] [--nvdisasm PATH ...]
    disassemble.py --find [--nvdisasm PATH ...]

Writes OUT as `cuobjdump -sass OBJECT` would ("code for sm_NN" per cubin, "Function :
NAME" per kernel, one "/*addr*/ INSTRUCTION ;" line per instruction) and prints one line
naming the tool. Tried in order (disassemblers): cuobjdump on OBJECT, then nvdisasm on each
CUBIN (the cubins nvcc --keep left), each from PATH and then from the CUDA Toolkit beside
nvcc, then each --nvdisasm given. --find prints the first disassembler there is, or exits 3
(check-cuda-build.sh fetches one then).

An nvdisasm older than the toolkit that wrote the cubin (CUDA 11.8's, say, on a CUDA 12.8+
cubin) refuses its ELF header, whose layout changed (OS/ABI 0x41, ABI version 8, the SM in
bits 8-15 of e_flags). Hopper's instruction encoding did not change, so such a cubin is
read from a copy whose header is written in the older layout (OS/ABI 0x33, ABI version 7,
e_flags SM | SM << 16 | 64-bit addresses | unified texture mode). An instruction a
disassembler does not know it leaves out: the checks see the gap in the addresses.

Exit status 0 when OUT is written; 1 when a disassembler found no device code; 3 when no
disassembler is here or none could read the code; 2 on bad arguments (a line says why).
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile


def usage():
    print("usage: disassemble.py OUT OBJECT [CUBIN ...] [--nvdisasm PATH ...]\n"
          "       disassemble.py --find [--nvdisasm PATH ...]", file=sys.stderr)
    sys.exit(2)


def legacy_header_copy(cubin, folder):
    """A copy of `cubin` with its ELF header in the pre-12.8 layout; None when it is not
    a 64-bit little-endian CUDA ELF of the newer layout."""
    data = bytearray(open(cubin, "rb").read())
    if len(data) < 64 or data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    if struct.unpack_from("<H", data, 18)[0] != 190 or data[7] != 0x41:  # EM_CUDA, new OS/ABI
        return None
    sm = (struct.unpack_from("<I", data, 48)[0] >> 8) & 0xFF
    data[7], data[8] = 0x33, 7
    struct.pack_into("<I", data, 48, sm | sm << 16 | 0x400 | 0x100)
    copy = os.path.join(folder, os.path.basename(cubin))
    open(copy, "wb").write(data)
    return copy


def run(args):
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        return 1, str(e)
    return done.returncode, done.stdout if done.returncode == 0 else done.stderr.strip()


def nvdisasm_text(tool, cubin, folder):
    """(sm, text in cuobjdump's layout) of one cubin, or (None, why)."""
    status, text = run([tool, "-c", cubin])
    if status != 0 and "architecture" in text:
        copy = legacy_header_copy(cubin, folder)
        if copy:
            status, text = run([tool, "-c", copy])
    if status != 0:
        return None, text.splitlines()[0] if text else f"{tool} failed"
    return cuobjdump_layout(text, os.path.basename(cubin))


def cuobjdump_layout(text, cubin_name):
    """(sm, text) of `nvdisasm -c` output in cuobjdump -sass's layout: "code for sm_NN"
    (NNa for a cubin nvcc named *.sm_NNa.cubin: the older header cannot say so), then
    "Function : NAME" and the instruction and label lines of each function."""
    m = re.search(r"EF_CUDA_SM(\d+)", text)
    sm = m.group(1) if m else "unknown"
    if re.search(r"\.sm_\d+a\.cubin$", cubin_name):
        sm += "a"
    out = [f"\n\tcode for sm_{sm}\n"]
    for line in text.splitlines():
        f = re.match(r"^//-+ \.text\.(\S+) -+$", line)
        if f:
            out.append(f"\t\tFunction : {f.group(1)}\n")
        elif re.match(r"^\s*(/\*[0-9a-f]{4,}\*/|\.L_x_\d+:)", line):
            out.append(line.split("/* 0x", 1)[0].rstrip() + "\n")
    return sm, "".join(out)


def disassemblers(tools):
    """(kind, path) of each disassembler here, in the order they are tried: cuobjdump, then
    nvdisasm, each from PATH and then beside nvcc (the CUDA Toolkit), then each `tools`."""
    nvcc = shutil.which("nvcc")
    toolkit = os.path.dirname(os.path.realpath(nvcc)) if nvcc else None
    found, seen = [], set()
    for kind in ("cuobjdump", "nvdisasm"):
        paths = [shutil.which(kind), toolkit and os.path.join(toolkit, kind)]
        if kind == "nvdisasm":
            paths += tools
        for path in paths:
            if path and path not in seen and os.access(path, os.X_OK):
                seen.add(path)
                found.append((kind, path))
    return found


def main(argv):
    if argv[:1] == ["--find"]:  # --find [--nvdisasm PATH ...]: the first, or exit 3
        rest = argv[1:]
        if len(rest) % 2 or any(a != "--nvdisasm" for a in rest[::2]):
            usage()
        found = disassemblers(rest[1::2])
        if not found:
            return 3
        print(found[0][1])
        return 0
    tools, rest = [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--nvdisasm":
            if i + 1 >= len(argv):
                usage()
            tools.append(argv[i + 1])
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    if len(rest) < 2:
        usage()
    out, obj = rest[0], rest[1]
    cubins = [c for c in rest[2:] if os.path.isfile(c)]  # a glob that matched nothing: none

    why = []
    for kind, tool in disassemblers(tools):
        if kind == "cuobjdump":
            status, text = run([tool, "-sass", obj])
            if status == 0 and "Function :" in text:
                open(out, "w").write(text)
                print(f"cuobjdump ({tool})")
                return 0
            why.append(f"{tool}: {text.splitlines()[0] if text else 'no SASS'}")
            continue
        if not cubins:
            print(f"no device code: nvcc kept no cubin beside {obj}")
            return 1
        with tempfile.TemporaryDirectory() as folder:
            parts, failed = [], None
            for cubin in cubins:
                sm, text = nvdisasm_text(tool, cubin, folder)
                if sm is None:
                    failed = f"{tool}: {os.path.basename(cubin)}: {text}"
                    break
                parts.append(text)
        if failed:
            why.append(failed)
            continue
        if "Function :" not in "".join(parts):
            print(f"no device code: {tool} found no function in {' '.join(cubins)}")
            return 1
        open(out, "w").write("".join(parts))
        print(f"nvdisasm ({tool})")
        return 0
    print("no disassembler read the code" + (": " + "; ".join(why) if why else
          " (neither cuobjdump nor nvdisasm is installed)"))
    return 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

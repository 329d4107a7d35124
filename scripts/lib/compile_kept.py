#!/usr/bin/env python3
"""One source of the CUDA build compiled again with the build's own command, keeping what
nvcc makes on the way (--keep: the PTX and the cubins) and ptxas's per-function report
(-Xptxas=-v), for the checks that read them (check-ptx.sh, check-gpp-ptx.sh,
check-sass.sh).

    compile_kept.py --tool NAME BUILD SOURCE OBJECT KEEP_DIR LOG

SOURCE is the end of a path in BUILD/compile_commands.json (microbench/src/device/
bandwidth.cpp); the object goes to OBJECT, the intermediates to KEEP_DIR, the compiler's
output to LOG. Prints the GPU arch the build is for (90 for -arch=sm_90 or sm_90a; 0
where none is named). Exits 1 with one line of NAME's (and the compiler's output) when
the source is not in the database or does not compile.

The compile is kept in BUILD/kept/SOURCE/ and serves every check that asks for the same
source while neither the source nor the build's own object of it is newer (the checks
read some device kernels' sources more than once: each is compiled once more, not once a
check).
"""
import json
import os
import shlex
import shutil
import subprocess
import sys


def command_text(args):
    """ARGS and what nvcc reads from the environment besides (a rule's NVCC_APPEND_FLAGS)."""
    return shlex.join(args) + "\nNVCC_APPEND_FLAGS=" + os.environ.get("NVCC_APPEND_FLAGS", "")


def fresh(stamp, args, newer_than):
    """Whether the kept compile at STAMP ran ARGS after every file of NEWER_THAN changed."""
    try:
        with open(stamp) as f:
            same = f.read() == command_text(args)
        return same and all(os.path.getmtime(stamp) >= os.path.getmtime(p) for p in newer_than)
    except OSError:
        return False


def main(argv):
    if len(argv) != 7 or argv[0] != "--tool":
        sys.exit("usage: compile_kept.py --tool NAME BUILD SOURCE OBJECT KEEP_DIR LOG")
    tool, build, source, obj, keep, log = argv[1:]
    name = os.path.basename(source)
    try:
        with open(os.path.join(build, "compile_commands.json")) as f:
            database = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{tool}: no readable compile database in {build} ({e})")
    entry = next((e for e in database if e["file"].endswith("/" + source)), None)
    if entry is None:
        sys.exit(f"{tool}: {name} is not in the compile database")
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out = args.index("-o") + 1
    build_object = os.path.join(entry["directory"], args[out])
    cache = os.path.abspath(os.path.join(build, "kept", source))
    args[out] = os.path.join(cache, "unit.o")
    args += ["--keep", "--keep-dir=" + os.path.join(cache, "keep"), "-Xptxas=-v"]
    stamp = os.path.join(cache, "command")
    # The build's object changes with every header the source includes (the checks run
    # after the build: check-cuda-build.sh).
    if not fresh(stamp, args, [build_object, entry["file"]]):
        shutil.rmtree(cache, ignore_errors=True)
        os.makedirs(os.path.join(cache, "keep"))
        run = subprocess.run(args, cwd=entry["directory"], capture_output=True, text=True)
        with open(os.path.join(cache, "log"), "w") as f:
            f.write(run.stdout + run.stderr)
        if run.returncode != 0:
            sys.exit(f"{tool}: the compile of {name} failed:\n{run.stdout}{run.stderr}")
        with open(stamp, "w") as f:  # last: a cut compile leaves no stamp
            f.write(command_text(args))
    shutil.copytree(os.path.join(cache, "keep"), keep, dirs_exist_ok=True)
    shutil.copyfile(os.path.join(cache, "unit.o"), obj)
    shutil.copyfile(os.path.join(cache, "log"), log)
    # -arch=sm_90 (nvcc_wrapper's, from Kokkos's arch) or -arch=sm_90a.
    arch = next((a.split("sm_", 1)[1].rstrip("a") for a in args if a.startswith("-arch=sm_")),
                "0")
    print(arch)


if __name__ == "__main__":
    main(sys.argv[1:])

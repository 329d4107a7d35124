"""rooftop's PyTorch launcher: runs an unmodified Python program under torch.profiler.

    python3 rooftop_torch.py --trace OUT.json --status STATUS [--cuda | --plain]
                             -- (SCRIPT | -m MODULE | -c CODE) [ARGS...]

`rooftop profile --torch` runs it; it is not meant to be called by hand. The program runs
as `__main__` with its own arguments, its output and exit status untouched, under
torch.profiler with record_shapes=True and with_flops=True (CPU operators; with --cuda
the device kernels too). On exit, also on an exception or sys.exit, the trace is written
to OUT.json through a temporary name, so that a reader never sees half a file; on
Ctrl-C nothing is written. --plain runs the program without a profiler (the counting run
of a GPU, where CUPTI takes one subscriber a process and kineto would be a second).

PyTorch 2.x writes its own kineto trace (export_chrome_trace). A PyTorch without kineto
(Debian's 1.13 build) exports the legacy layout, which has no shapes: the trace is then
written here in kineto's layout from the profiler's own events (name, thread, start,
duration, "Input Dims", "Input type", and PyTorch's with_flops count as "flops").

STATUS receives one JSON line: the PyTorch version, whether kineto wrote the trace, the
program's exit status, or why the program could not be run (torch not importable).
"""

import json
import os
import runpy
import sys
import traceback


def write_atomically(path, write):
    """Calls write(file) on a temporary file beside `path`, then renames it into place."""
    folder = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(folder, ".%s.%d.partial" % (os.path.basename(path), os.getpid()))
    try:
        with open(temporary, "w") as f:
            write(f)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def report(path, fields):
    write_atomically(path, lambda f: f.write(json.dumps(fields) + "\n"))


def parse(argv):
    """(trace, status, mode, target): mode 'cuda', 'plain' or 'cpu'; target the rest."""
    trace = status = None
    mode = "cpu"
    i = 0
    while i < len(argv) and argv[i] != "--":
        if argv[i] in ("--trace", "--status") and i + 1 < len(argv):
            if argv[i] == "--trace":
                trace = argv[i + 1]
            else:
                status = argv[i + 1]
            i += 2
        elif argv[i] in ("--cuda", "--plain"):
            mode = argv[i][2:]
            i += 1
        else:
            sys.exit("rooftop_torch.py: unknown argument %r" % argv[i])
    target = argv[i + 1:]
    if status is None or not target or (trace is None and mode != "plain"):
        sys.exit(__doc__.strip().splitlines()[2].strip())
    return trace, status, mode, target


def program(target):
    """A function that runs the program as __main__, sys.argv and sys.path as python sets them."""
    if target[0] == "-m" and len(target) > 1:
        sys.argv = [target[1]] + target[2:]
        sys.path[0] = os.getcwd()
        return lambda: runpy.run_module(target[1], run_name="__main__", alter_sys=True)
    if target[0] == "-c" and len(target) > 1:
        sys.argv = ["-c"] + target[2:]
        sys.path[0] = ""
        code = compile(target[1], "<string>", "exec")
        return lambda: exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    sys.argv = list(target)
    sys.path[0] = os.path.dirname(os.path.abspath(target[0]))
    return lambda: runpy.run_path(target[0], run_name="__main__")


def exit_status(code):
    """What python exits with for sys.exit(code)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def print_program_traceback(error):
    """The traceback python would print, without this launcher's and runpy's frames."""
    tb = error.__traceback__
    here = os.path.abspath(__file__)
    while tb is not None and (tb.tb_frame.f_globals.get("__name__") == "runpy" or
                              os.path.abspath(tb.tb_frame.f_code.co_filename) == here):
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb)


def run(run_program):
    """Runs the program; returns its exit status. KeyboardInterrupt passes through."""
    try:
        run_program()
        return 0
    except SystemExit as e:
        return exit_status(e.code)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # the program's own error: printed as python prints it
        print_program_traceback(e)
        return 1


def kineto_layout(prof, pid):
    """The profiler's CPU events in kineto's trace layout, for a PyTorch without kineto."""
    events = []
    for e in prof.profiler.kineto_results.events():
        if str(e.device_type()) != "DeviceType.CPU" or e.name().startswith("[memory]"):
            continue
        args = {"External id": e.correlation_id(), "Input Dims": e.shapes(),
                "Input type": e.dtypes()}
        if e.flops() > 0:
            args["flops"] = e.flops()
        events.append({"ph": "X", "cat": "cpu_op", "name": e.name(), "pid": pid,
                       "tid": e.start_thread_id(), "ts": e.start_us(), "dur": e.duration_us(),
                       "args": args})
    return {"traceEvents": events, "with_flops": True,
            "writer": "rooftop_torch.py (this PyTorch has no kineto; its own export "
                      "writes no shapes)"}


def export(torch, prof, path):
    """Writes the trace; returns whether kineto wrote it."""
    kineto = torch.autograd.kineto_available()
    if kineto:
        # PyTorch writes to the name it is given and gzips a name ending in .gz.
        folder = os.path.dirname(os.path.abspath(path))
        temporary = os.path.join(folder, ".%s.%d.partial.json" % (os.path.basename(path),
                                                                 os.getpid()))
        try:
            prof.export_chrome_trace(temporary)
            os.replace(temporary, path)
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)
    else:
        layout = kineto_layout(prof, os.getpid())
        write_atomically(path, lambda f: json.dump(layout, f))
    return kineto


def main():
    trace, status_path, mode, target = parse(sys.argv[1:])
    try:
        import torch
        import torch.profiler
    except BaseException as e:  # noqa: BLE001 -- any failure to import is the one line
        report(status_path, {"error": "%s cannot import torch (%s: %s)" % (
            sys.executable, type(e).__name__, str(e).splitlines()[0] if str(e) else "")})
        return 3
    if mode != "plain" and not hasattr(torch, "profiler"):
        report(status_path, {"error": "torch %s has no torch.profiler (PyTorch 1.8.1 or "
                                      "later has)" % torch.__version__})
        return 3
    try:
        run_program = program(target)
    except (OSError, SyntaxError) as e:
        report(status_path, {"error": "%s: %s" % (target[0] if target[0] not in ("-m", "-c")
                                                  else target[1][:60], e)})
        return 3

    if mode == "plain":
        status = run(run_program)
        report(status_path, {"torch": torch.__version__, "exit": status})
        return status

    activities = [torch.profiler.ProfilerActivity.CPU]
    if mode == "cuda":
        activities.append(torch.profiler.ProfilerActivity.CUDA)
    prof = torch.profiler.profile(activities=activities, record_shapes=True, with_flops=True)
    prof.start()
    try:
        status = run(run_program)
    except KeyboardInterrupt:
        prof.stop()
        raise  # python then ends by SIGINT, as it would without the launcher
    if mode == "cuda" and torch.cuda.is_available():
        torch.cuda.synchronize()
    prof.stop()
    kineto = export(torch, prof, trace)
    report(status_path, {"torch": torch.__version__, "kineto": kineto, "exit": status})
    return status


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The rooftop program on a terminal (a pseudo-terminal here), where its progress line is
rewritten in place: an error takes that line's place instead of running on after it
("[  0/2] reading a.csvrooftop: error: ..."). ROOFTOP_EXE names the program.
"""

import os
import pathlib
import pty
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXE = os.environ.get("ROOFTOP_EXE", str(ROOT / "build" / "app" / "rooftop"))
CEILINGS = str(ROOT / "tests" / "fixtures" / "h5" / "h200-ceilings.h5")


def run_on_terminal(args):
    """rooftop's exit status and what it wrote to a terminal as its stderr."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([EXE] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=slave)
    os.close(slave)
    written = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the program's end closed the terminal's other side
            break
        if not chunk:
            break
        written += chunk
    os.close(master)
    return proc.wait(timeout=60), written.decode(errors="replace")


def shown(written):
    """The lines a terminal shows: each ends at a line break, and within one a carriage
    return followed by erase-line ("\\r\\033[K") starts it again."""
    lines = []
    for line in written.replace("\r\n", "\n").split("\n"):
        lines.append(line.split("\r\x1b[K")[-1])
    return [line for line in lines if line]


@unittest.skipUnless(os.access(EXE, os.X_OK), f"no rooftop at {EXE}")
class OnATerminal(unittest.TestCase):
    def test_an_error_takes_the_place_of_the_progress_line(self):
        with tempfile.TemporaryDirectory() as scratch:
            pipe = os.path.join(scratch, "pipe")
            os.mkfifo(pipe)  # refused after the progress line has started
            status, written = run_on_terminal(["import", "--ceilings", CEILINGS, pipe])
        self.assertEqual(status, 1, written)
        self.assertIn("[  0/2] reading", written)  # the progress line was there
        self.assertEqual(shown(written),
                         [f"rooftop: error: {pipe}: cannot read (not a regular file: a pipe, "
                          "device or socket)"], repr(written))


if __name__ == "__main__":
    unittest.main()

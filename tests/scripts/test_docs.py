#!/usr/bin/env python3
"""The documents against the tree and the program, so that they cannot drift apart
unseen: every folder of the repository is in the README's layout, every path the
documents name in backticks exists, every relative link leads to a file and heading of
the tree, and every `rooftop SUBCOMMAND --flag` they show is a subcommand and a flag of
this build's rooftop (ROOFTOP_EXE).
"""

import functools
import os
import pathlib
import re
import subprocess
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXE = os.environ.get("ROOFTOP_EXE", str(ROOT / "build" / "app" / "rooftop"))


def tracked_files():
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True)
    if out.returncode != 0:
        raise unittest.SkipTest("not a git checkout: " + out.stderr.strip())
    return out.stdout.split()


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


class Documents(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.files = set(tracked_files())
        cls.folders = set()
        for f in cls.files:
            parts = f.split("/")
            for i in range(1, len(parts)):
                cls.folders.add("/".join(parts[:i]))
        cls.top = {f.split("/")[0] for f in cls.files if "/" in f}
        cls.docs = sorted(f for f in cls.files if f.endswith(".md"))

    def test_the_layout_names_every_folder(self):
        readme = (ROOT / "README.md").read_text()
        layout = readme.split("## Layout", 1)[1].split("```", 2)[1]
        named = set(re.findall(r"^(\S+)/\s", layout, re.M))
        self.assertEqual(sorted(self.top - named), [], "folders the README's layout leaves out")
        self.assertEqual(sorted(named - self.top), [], "folders the README's layout names, not in the tree")

    def test_every_path_named_exists(self):
        missing = []
        for doc in self.docs:
            if doc == "tests/fixtures/README.md":
                continue  # it names the paths of the fixtures' sources, in other repositories
            text = (ROOT / doc).read_text()
            for m in re.finditer(r"`([^`\s]+)`", text):
                path = m.group(1).rstrip(".,:;)")
                if "/" not in path or path.split("/")[0] not in self.top:
                    continue
                if any(c in path for c in "<>*{}$…|=[]?"):
                    continue  # a pattern or a placeholder, not a path
                path = re.sub(r":\d+(-\d+)?$", "", path).split("#")[0].rstrip("/")
                if path in self.files or path in self.folders:
                    continue
                if path + ".cpp" in self.files:
                    continue  # a program, named by its source (bench/fma_sampling)
                missing.append(f"{doc}:{line_of(text, m.start())}: {m.group(1)}")
        self.assertEqual(missing, [], "paths named in the documents that the tree lacks")

    def test_every_link_leads_somewhere(self):
        # A relative link [text](path#anchor) must name a file or folder of the tree and,
        # with an anchor, one of that Markdown file's headings (GitHub's anchors: lower
        # case, punctuation dropped, spaces as hyphens).
        @functools.lru_cache(maxsize=None)  # each file's headings read once, not per link
        def anchors(doc):
            text = re.sub(r"```.*?```", "", (ROOT / doc).read_text(), flags=re.S)
            return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                    for h in re.findall(r"^#+\s+(.*)$", text, re.M)}

        broken, checked = [], 0
        for doc in self.docs:
            text = (ROOT / doc).read_text()
            for m in re.finditer(r"\]\(([^)\s]+)\)", text):
                target = m.group(1)
                if re.match(r"[a-z]+:", target):
                    continue  # https:, mailto:
                path, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
                checked += 1
                where = f"{doc}:{line_of(text, m.start())}: {target}"
                if resolved not in self.files and resolved not in self.folders:
                    broken.append(where + " (no such file)")
                elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                    broken.append(where + " (no such heading)")
        self.assertGreater(checked, 10, "the documents' links were not found")
        self.assertEqual(broken, [], "links in the documents that lead nowhere")

    def test_every_command_shown_is_the_programs(self):
        if not os.access(EXE, os.X_OK):
            self.skipTest(f"no rooftop at {EXE}")
        top_help = subprocess.run([EXE, "--help"], capture_output=True, text=True).stdout
        subcommands = set(re.findall(r"^\s{2,}([a-z][a-z-]+)\s", top_help.split("Subcommands:")[-1], re.M))
        self.assertIn("measure", subcommands, top_help)
        flags = {}
        wrong, checked = [], 0
        for doc in self.docs:
            text = (ROOT / doc).read_text()
            spans = [(m.start(), m.group(1)) for m in re.finditer(r"```[a-z]*\n(.*?)```", text, re.S)]
            spans += [(m.start(), m.group(1)) for m in re.finditer(r"(?<!`)`([^`\n]+)`(?!`)", text)]
            for offset, span in spans:
                for m in re.finditer(r"(?:^|[\s/])(?:rooftop|\$R)\s+([a-z][a-z-]*)([^\n`]*)", span):
                    word, rest = m.group(1), m.group(2)
                    if word not in subcommands:
                        continue  # prose ("rooftop reads ..."), not a command
                    if word not in flags:
                        sub_help = subprocess.run([EXE, word, "--help"], capture_output=True, text=True).stdout
                        flags[word] = set(re.findall(r"--[a-z][a-z0-9-]*", sub_help))
                    # The command ends where the program it runs, a pipe or another command starts.
                    rest = re.split(r" -- | \| |;|&&", rest)[0]
                    for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", rest):
                        checked += 1
                        if flag not in flags[word]:
                            wrong.append(f"{doc}:{line_of(text, offset)}: rooftop {word} {flag}")
        self.assertGreater(checked, 50, "the documents' commands were not found")
        self.assertEqual(sorted(set(wrong)), [], "flags the documents show that rooftop lacks")


if __name__ == "__main__":
    unittest.main()

"""rooftop report in a real browser (headless Chromium through chromedriver; label
`browser`): the page loads with no console error and no network request, draws one point
per kernel and memory level with counts, shows a point's values on hover and on keyboard
focus (equal to the HDF5 file's, read here with h5py), hides a level's points when the
level is switched off, links the kernels table and the points, sorts, and screenshots to
something that is not blank. A report of a hostile file shows its text as text and runs
none of it.

    ROOFTOP_EXE=build/app/rooftop ROOFTOP_HOSTILE_WRITER=build/tests/write_hostile_file \\
        python3 tests/browser/test_report.py [-v] [Class.test]

Exits 77 (skipped) where no Chromium is installed, unless ROOFTOP_REQUIRE_BROWSER is set.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import browser  # noqa: E402

ROOFTOP = os.environ.get("ROOFTOP_EXE", os.path.join(ROOT, "build", "app", "rooftop"))
HOSTILE_WRITER = os.environ.get("ROOFTOP_HOSTILE_WRITER",
                                os.path.join(ROOT, "build", "tests", "write_hostile_file"))
GPP = os.path.join(ROOT, "data", "epyc-zen4-gpp.h5")
COSTS = os.path.join(ROOT, "data", "epyc-zen4-costs.h5")


def read_kernels(path):
    """The kernels of a file as the HDF5 file holds them (data/SCHEMA.md, /kernels)."""
    import h5py
    text = lambda v: v.decode() if isinstance(v, bytes) else str(v)  # noqa: E731
    with h5py.File(path, "r") as f:
        rows, levels = f["kernels/kernels"][()], f["kernels/bytes"][()]
    kernels = [{"name": text(k["name"]), "id": text(k["id"]),
                "flops": float(k["flops_fp64"] + k["flops_fp32"] + k["flops_fp16"]),
                "time_s": float(k["time_s"]), "gflop_per_s": float(k["gflop_per_s"]),
                "limiter": text(k["limiter"]), "fraction_of_roof": float(k["fraction_of_roof"]),
                "bytes": {}, "ai": {}} for k in rows]
    for b in levels:
        k = kernels[int(b["kernel"])]
        k["bytes"][text(b["level"])] = float(b["bytes"])
        k["ai"][text(b["level"])] = float(b["arithmetic_intensity"])
    return kernels


def number(text):
    return float(text.replace(",", "").rstrip("%"))


class Page(unittest.TestCase):
    """A report written by the rooftop program and opened in one browser for the class."""
    source = None
    window = {}  # the browser's window size, where a class needs its own

    @classmethod
    def write_report(cls, work):
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="rooftop-browser-")
        cls.page = cls.write_report(cls.work)
        cls.browser = browser.Browser(**cls.window)
        cls.browser.requests()  # the browser's own start page
        cls.browser.open(cls.page)
        cls.console = cls.browser.log("browser")
        cls.requested = cls.browser.requests()

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def report(cls, sources, out):
        subprocess.run([ROOFTOP, "report", *sources, "--out", out], check=True,
                       stdout=subprocess.DEVNULL)
        return out

    def run_js(self, script, *args):
        return self.browser.run(script, *args)

    def tooltip(self):
        return self.run_js("""
            const t = document.getElementById('tooltip');
            if (t.hidden) return null;
            const rows = {};
            t.querySelectorAll('tr[data-key]').forEach(
                (r) => rows[r.dataset.key] = r.querySelector('td').textContent);
            return {title: t.querySelector('.tip-title').textContent, rows: rows};""")

    def overlapping_labels(self, chart):
        """Pairs of texts of `chart` (an SVG) whose boxes intersect: each box its measured
        width, from 0.8 em above the baseline to 0.22 em below (as the charts estimate it),
        through its transforms, so that slanted labels are checked as drawn."""
        return self.run_js("""
            const quads = [];
            for (const t of arguments[0].querySelectorAll('text')) {
              const w = t.getComputedTextLength();
              if (!t.textContent || w === 0) continue;
              const f = parseFloat(getComputedStyle(t).fontSize);
              const x = t.x.baseVal.length ? t.x.baseVal[0].value : 0;
              const y = t.y.baseVal.length ? t.y.baseVal[0].value : 0;
              const anchor = t.getAttribute('text-anchor') || getComputedStyle(t).textAnchor;
              const left = anchor === 'end' ? x - w : anchor === 'middle' ? x - w / 2 : x;
              const m = t.getCTM();
              const corners = [[left, y - 0.8 * f], [left + w, y - 0.8 * f], [left + w, y + 0.22 * f],
                               [left, y + 0.22 * f]].map(([px, py]) =>
                                 new DOMPoint(px, py).matrixTransform(m));
              quads.push({text: t.textContent, c: corners});
            }
            const apart = (p, q) => [p, q].some((shape) => shape.c.some((u, i) => {
              const v = shape.c[(i + 1) % 4], nx = v.y - u.y, ny = u.x - v.x;
              const along = (c) => c.x * nx + c.y * ny, len = Math.hypot(nx, ny);
              if (len === 0) return false;
              const a = p.c.map(along), b = q.c.map(along);
              return Math.max(...a) <= Math.min(...b) + 0.01 * len ||
                  Math.max(...b) <= Math.min(...a) + 0.01 * len;
            }));
            const out = [];
            for (let i = 0; i < quads.length; i++)
              for (let j = 0; j < i; j++)
                if (!apart(quads[i], quads[j])) out.push(quads[j].text + ' / ' + quads[i].text);
            return out;""", self.browser.element(chart))

    def assert_loaded_cleanly(self):
        self.assertEqual([e["message"] for e in self.console], [], "console messages")
        url = "file://" + os.path.abspath(self.page)
        self.assertEqual([u for u in self.requested if u != url], [], "requests besides the page")
        self.assertEqual(self.run_js("return performance.getEntriesByType('resource').length;"), 0)


class GppReport(Page):
    """The GPP ladder and the reference kernels of data/epyc-zen4-gpp.h5."""

    @classmethod
    def write_report(cls, work):
        cls.kernels = read_kernels(GPP)
        return cls.report([GPP], os.path.join(work, "gpp.html"))

    def points(self, level=None):
        return self.browser.find_all("#roofline .point" +
                                     (f"[data-level='{level}']" if level else ""))

    def test_loads_with_no_console_message_and_no_request(self):
        self.assert_loaded_cleanly()
        self.assertLess(os.path.getsize(self.page), 1 << 20)

    def test_one_point_per_kernel_and_level_with_counts(self):
        expected = sum(len(k["ai"]) for k in self.kernels if k["time_s"] > 0 and k["flops"] > 0)
        self.assertGreater(expected, 0)
        self.assertEqual(len(self.points()), expected)

    def check_tooltip_against_file(self, ref):
        key, level = self.run_js("return [arguments[0].dataset.key, arguments[0].dataset.level];",
                                 self.browser.element(ref))
        k = self.kernels[int(key.split(":")[1])]
        tip = self.tooltip()
        self.assertIsNotNone(tip, "no tooltip shown")
        self.assertIn(k["id"], tip["title"])
        self.assertIn(k["name"], tip["title"])
        rows = tip["rows"]
        self.assertEqual(rows["level"], level)
        self.assertEqual(number(rows["flops"]), k["flops"])
        for lv, b in k["bytes"].items():
            self.assertEqual(number(rows["bytes-" + lv]), b)
            self.assertAlmostEqual(number(rows["ai-" + lv]) / k["ai"][lv], 1, delta=1e-3)
        self.assertAlmostEqual(number(rows["gflops"]) / k["gflop_per_s"], 1, delta=1e-3)
        self.assertAlmostEqual(number(rows["time"]) / k["time_s"], 1, delta=1e-3)
        self.assertEqual(rows["limiter"], k["limiter"])
        self.assertAlmostEqual(number(rows["fraction"]) / 100 / k["fraction_of_roof"], 1, delta=1e-2)

    def test_hovering_a_point_shows_the_kernel_values_of_the_file(self):
        # Every point whose centre no other point covers (points of one intensity overlap).
        on_top = [p for p in self.points() if self.run_js("""
            const r = arguments[0].getBoundingClientRect();
            arguments[0].scrollIntoView({block: 'center'});
            const s = arguments[0].getBoundingClientRect();
            return document.elementFromPoint(s.x + s.width / 2, s.y + s.height / 2) === arguments[0];
            """, self.browser.element(p))]
        self.assertGreaterEqual(len(on_top), 3)
        for p in on_top:
            self.browser.hover(p)
            self.check_tooltip_against_file(p)

    def test_keyboard_focus_shows_the_tooltip(self):
        first = self.points()[0]
        # The pointer off the chart (where an earlier test may have left it, a scroll on
        # focus could move a line under it and its leaving hide the tooltip).
        self.browser.hover(self.browser.find_all("header h1")[0])
        # From the control just before the chart, Tab past the ceilings (each a stop with
        # its own tooltip) to the first point, as a keyboard user does.
        self.run_js("document.querySelector('#roofline .zoom button:last-child').focus();")
        for _ in range(30):
            self.browser.keys("\ue004")  # Tab
            if self.run_js("return document.activeElement.classList.contains('point');"):
                break
            self.assertTrue(self.run_js(
                "return document.activeElement.classList.contains('roof');"), "a stop off the chart")
            self.assertIsNotNone(self.tooltip(), "a ceiling's tooltip on focus")
        self.assertTrue(self.run_js("return document.activeElement === arguments[0];",
                                    self.browser.element(first)))
        self.check_tooltip_against_file(first)
        self.assertEqual(self.run_js("return arguments[0].getAttribute('aria-describedby');",
                                     self.browser.element(first)), "tooltip")
        self.assertTrue(self.run_js("return arguments[0].getAttribute('aria-label').length > 0;",
                                    self.browser.element(first)))

    def test_switching_a_level_off_hides_its_points(self):
        total, dram = len(self.points()), len(self.points("dram"))
        self.assertGreater(dram, 0)
        toggle = self.browser.find_all("input[data-toggle='level:dram']")[0]
        self.browser.click(toggle)
        try:
            self.assertEqual(len(self.points("dram")), 0)
            self.assertEqual(len(self.points()), total - dram)
            self.assertEqual(len(self.browser.find_all("#roofline .roof[data-ceiling='dram']")), 0)
        finally:
            self.browser.click(toggle)
        self.assertEqual(len(self.points()), total)

    def test_table_rows_and_points_highlight_each_other(self):
        row = self.browser.find_all("#kernels tbody tr[data-key='0:8']")[0]
        self.browser.hover(row)
        lit = self.run_js("return [...document.querySelectorAll('#roofline .point.hl')]"
                          ".map((p) => p.dataset.key);")
        self.assertEqual(lit, ["0:8"] * len(self.kernels[8]["ai"]))
        point = self.browser.find_all("#roofline .point[data-key='0:8']")[0]
        self.browser.hover(point)
        self.assertEqual(self.run_js("return [...document.querySelectorAll('#kernels tr.hl')]"
                                     ".map((r) => r.dataset.key);"), ["0:8"])

    def test_the_kernels_table_sorts(self):
        button = [b for b in self.browser.find_all("#kernels th button")
                  if self.run_js("return arguments[0].textContent;", self.browser.element(b))
                  == "GFLOP/s"][0]
        order = "return [...document.querySelectorAll('#kernels tbody tr')].map((r) => r.dataset.key);"
        rate = lambda key: self.kernels[int(key.split(":")[1])]["gflop_per_s"]  # noqa: E731
        self.browser.click(button)
        self.assertEqual([rate(k) for k in self.run_js(order)], sorted(k["gflop_per_s"] for k in self.kernels))
        self.browser.click(button)
        self.assertEqual([rate(k) for k in self.run_js(order)],
                         sorted((k["gflop_per_s"] for k in self.kernels), reverse=True))

    def test_zoom_changes_the_axes_and_reset_restores_them(self):
        ticks = "return [...document.querySelectorAll('#roofline .grid text')].map((t) => t.textContent);"
        before = self.run_js(ticks)
        zoom_in, _, reset = self.browser.find_all("#roofline .zoom button")
        self.browser.click(zoom_in)
        self.browser.click(zoom_in)
        self.assertNotEqual(self.run_js(ticks), before)
        self.browser.click(reset)
        self.assertEqual(self.run_js(ticks), before)

    def test_screenshot_is_not_blank(self):
        self.run_js("window.scrollTo(0, 0);")
        width, height, rows = browser.png_pixels(self.browser.screenshot())
        pixels = [row[i:i + 3] for row in rows for i in range(0, len(row), 4)]
        drawn = sum(1 for p in pixels if p != b"\xff\xff\xff")
        self.assertGreater(drawn / len(pixels), 0.02, "almost nothing drawn")
        self.assertGreater(len(set(pixels)), 20, "too few colours for a chart")


    def test_no_two_labels_of_a_chart_overlap(self):
        for chart in self.browser.find_all("svg.plot-svg"):
            self.assertEqual(self.overlapping_labels(chart), [])

    def test_print_layout_hides_the_controls_and_keeps_the_charts(self):
        shown = "return [...document.querySelectorAll(arguments[0])].filter((e) => " \
                "getComputedStyle(e).display !== 'none' && e.getClientRects().length).length;"
        self.assertGreater(self.run_js(shown, ".controls, .zoom"), 0)
        self.browser.emulate_media("print")
        try:
            self.assertEqual(self.run_js(shown, ".controls, .zoom, .hint, #tooltip"), 0)
            self.assertEqual(self.run_js(shown, "svg.plot-svg"), 2, "roofline and sweep")
            self.assertEqual(self.run_js(shown, "#kernels tbody tr"), len(self.kernels))
        finally:
            self.browser.emulate_media("")


class HostileReport(Page):
    """A file whose machine, ceilings and kernels carry markup, script closers, quotes,
    U+2028 and long strings, under a file name that is markup too."""

    @classmethod
    def write_report(cls, work):
        h5 = os.path.join(work, "<img src=x onerror=window.__pwned='file'>.h5")
        subprocess.run([HOSTILE_WRITER, h5], check=True)
        cls.kernels = read_kernels(h5)
        return cls.report([h5], os.path.join(work, "hostile.html"))

    def test_nothing_from_the_data_runs_or_loads(self):
        self.assert_loaded_cleanly()
        self.assertIsNone(self.run_js("return window.__pwned === undefined ? null : window.__pwned;"))
        self.assertEqual(self.run_js("return document.querySelectorAll('img, b, iframe').length;"), 0)
        self.assertEqual(self.run_js("return document.scripts.length;"), 2)

    def test_names_read_as_text(self):
        # A long name shows shortened; the whole of it is the cell's tooltip, as text.
        cells = self.run_js("return [...document.querySelectorAll('#kernels tbody tr')]"
                            ".map((r) => r.cells[1].title);")
        self.assertEqual(cells, [k["name"] for k in self.kernels])
        self.assertIn("</script>", cells[0])
        host = self.run_js("""const dt = [...document.querySelectorAll('dl.machine dt')]
                                  .find((d) => d.textContent === 'host');
                              return dt.nextElementSibling.textContent;""")
        self.assertIn("window.__pwned = 'closer'", host)
        self.assertIn("onerror=window.__pwned='file'", self.run_js("return document.body.textContent;"))

    def test_points_and_tooltips_of_hostile_kernels(self):
        points = self.browser.find_all("#roofline .point")
        self.assertEqual(len(points), sum(len(k["ai"]) for k in self.kernels))
        self.run_js("arguments[0].focus();", self.browser.element(points[0]))
        self.assertIn(self.kernels[0]["name"], self.tooltip()["title"])
        self.assertIsNone(self.run_js("return window.__pwned === undefined ? null : window.__pwned;"))


FIXTURES = os.path.join(ROOT, "tests", "fixtures")
H200 = os.path.join(FIXTURES, "h5", "h200-ceilings.h5")
PROFILE = os.path.join(FIXTURES, "h5", "h200-profile-connector-app.h5")


class TorchReport(Page):
    """What a user of real programs reads at 1,400 px: the H200's ceilings, the kernels of
    a PyTorch program imported from Nsight Compute's log and the profiler's trace (C++
    template names of PyTorch, cuBLAS and cuDNN), and the connector's profile of a Kokkos
    program, the three files on the same ceilings."""
    window = {"width": 1400, "height": 900}

    @classmethod
    def write_report(cls, work):
        torch = os.path.join(work, "torch.h5")
        subprocess.run([ROOFTOP, "import", os.path.join(FIXTURES, "import", "ncu-text-h200-torch.txt"),
                        os.path.join(FIXTURES, "import", "pytorch-h200-torch-model.json.gz"),
                        "--ceilings", H200, "--out", torch], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cls.torch_kernels = read_kernels(torch)
        cls.kernels = cls.torch_kernels + read_kernels(PROFILE)
        return cls.report([H200, torch, PROFILE], os.path.join(work, "torch.html"))

    def test_loads_cleanly_and_the_page_has_no_horizontal_overflow(self):
        self.assert_loaded_cleanly()
        self.assertEqual(self.run_js("return window.innerWidth;"), 1400)
        table = self.run_js("""const t = document.querySelector('#kernels table');
                               return [t.scrollWidth, t.clientWidth, t.parentElement.clientWidth];""")
        self.assertLessEqual(table[0], table[1], "the kernels table scrolls")
        self.assertLessEqual(table[1], table[2], "the kernels table is wider than its section")
        page = self.run_js("return [document.documentElement.scrollWidth, "
                           "document.documentElement.clientWidth];")
        self.assertLessEqual(page[0], page[1], "the page scrolls sideways")

    def test_ids_do_not_wrap(self):
        # The lines each cell's text takes (the swatch before an id is no text).
        lines = self.run_js("""return [...document.querySelectorAll('#kernels td.id')].map((td) => {
                                   const text = [...td.childNodes].find((n) => n.nodeType === 3);
                                   const r = document.createRange();
                                   r.selectNodeContents(text);
                                   const tops = [...r.getClientRects()].map((b) => Math.round(b.top));
                                   return new Set(tops).size;
                               });""")
        self.assertEqual(len(lines), 2 * len(self.kernels))  # the file and the id of each
        self.assertEqual(set(lines), {1})

    def test_long_names_are_shortened_with_the_whole_name_on_hover(self):
        cells = self.run_js("return [...document.querySelectorAll('#kernels td.name')]"
                            ".map((td) => [td.textContent, td.title]);")
        self.assertEqual([title for _, title in cells], [k["name"] for k in self.kernels])
        gelu = [(text, title) for text, title in cells if "GeluCUDAKernelImpl" in title]
        self.assertTrue(gelu)
        for text, title in gelu:
            self.assertEqual(text, "at::vectorized_elementwise_kernel<\u2026>")
        for text, title in cells:
            self.assertLessEqual(len(text), 50, text)
            if len(title) <= 48:
                self.assertEqual(text, title)

    def test_no_arrows_between_kernels_that_are_no_versions_of_one(self):
        self.assertGreater(len(self.browser.find_all("#roofline .point")), 10)
        self.assertEqual(len(self.browser.find_all("#roofline .step")), 0)
        self.assertEqual(len(self.browser.find_all("input[data-toggle='steps']")), 0)

    def matrix_roofs_placed_on(self):
        """The /matrix figures of the H200 file some kernel is placed against."""
        figures = set(read_figures(H200, "matrix")[0])
        return {k["limiter"] for k in self.kernels} & figures

    def test_roofs_of_the_same_ceilings_are_drawn_once(self):
        import h5py
        with h5py.File(H200, "r") as f:
            ceilings = len(f["ceilings"][()])
        self.assertEqual(len(self.browser.find_all("#roofline .roof")),
                         ceilings + len(self.matrix_roofs_placed_on()))
        labels = self.run_js("return [...document.querySelectorAll('#roofline .roof-label')]"
                             ".map((t) => t.textContent);")
        self.assertTrue(labels)
        for text in labels:
            self.assertTrue(text.startswith("[1,2,3] "), text)

    def test_a_kernel_placed_on_a_tensor_roof_lies_under_it(self):
        self.assertIn("tc_bf16", self.matrix_roofs_placed_on())
        # The torch file is the report's second: its points' keys start with "1:".
        on_tensor = [k for k in self.torch_kernels if k["limiter"] == "tc_bf16"]
        found = self.run_js("""
            const roof = document.querySelector("#roofline .roof[data-ceiling='tc_bf16']");
            if (!roof) return null;
            const ys = [...document.querySelectorAll('#roofline .point')]
                .filter((p) => p.dataset.key.startsWith('1:') && arguments[0].includes(p.dataset.id))
                .map((p) => p.getBoundingClientRect().top + p.getBoundingClientRect().height / 2);
            const box = roof.getBoundingClientRect();
            return {roof: box.top + box.height / 2, points: ys,
                    filter: !!document.querySelector("input[data-toggle='precision:bf16']")};""",
                            [k["id"] for k in on_tensor])
        self.assertIsNotNone(found, "no tc_bf16 roof drawn")
        self.assertTrue(found["filter"], "bf16 is not in the precision filter")
        self.assertTrue(found["points"], "no point of the kernels placed on tc_bf16")
        for y in found["points"]:
            self.assertGreaterEqual(y, found["roof"] - 1, "a point above its tensor roof")
        toggle = self.browser.find_all("input[data-toggle='precision:bf16']")[0]
        self.browser.click(toggle)
        try:
            self.assertEqual(self.browser.find_all("#roofline .roof[data-ceiling='tc_bf16']"), [])
        finally:
            self.browser.click(self.browser.find_all("input[data-toggle='precision:bf16']")[0])

    def test_no_two_labels_of_the_roofline_overlap(self):
        chart = self.browser.find_all("#roofline svg.plot-svg")[0]
        self.assertEqual(self.overlapping_labels(chart), [])
        zoom_in = self.browser.find_all("#roofline .zoom button")[0]
        self.browser.click(zoom_in)
        try:
            self.assertEqual(self.overlapping_labels(chart), [])
        finally:
            self.browser.click(self.browser.find_all("#roofline .zoom button")[2])


def read_figures(path, group):
    """The figures of /costs or /matrix and the sweeps' names (data/SCHEMA.md, 1.7)."""
    import h5py
    text = lambda v: v.decode() if isinstance(v, bytes) else str(v)  # noqa: E731
    with h5py.File(path, "r") as f:
        names = [text(r["name"]) for r in f[group + "/figures"][()]]
        sweeps = sorted({text(r["sweep"]) for r in f[group + "/sweeps"][()]})
    return names, sweeps


class FiguresReport(Page):
    """The costs and matrix units of data/epyc-zen4-costs.h5."""

    @classmethod
    def write_report(cls, work):
        return cls.report([COSTS], os.path.join(work, "costs.html"))

    def test_no_two_labels_of_a_chart_overlap(self):
        for chart in self.browser.find_all("svg.plot-svg"):
            self.assertEqual(self.overlapping_labels(chart), [])

    def test_figures_tables_and_one_line_per_sweep(self):
        self.assert_loaded_cleanly()
        headings = self.run_js("return [...document.querySelectorAll('h3')].map((h) => h.textContent);")
        self.assertIn("Costs", headings)
        self.assertIn("Matrix units", headings)
        for group, caption in (("costs", "Costs"), ("matrix", "Matrix units")):
            names, sweeps = read_figures(COSTS, group)
            rows = self.run_js("""const t = [...document.querySelectorAll('table')]
                                      .find((t) => t.caption && t.caption.textContent === arguments[0]);
                                  return [...t.tBodies[0].rows].map((r) => r.cells[0].textContent);""",
                               caption)
            self.assertEqual(rows, names)
            legend = self.run_js("""const h = [...document.querySelectorAll('h3')]
                                        .find((h) => h.textContent === arguments[0]);
                                    const out = [];
                                    for (let e = h.nextElementSibling; e && e.tagName !== 'H3';
                                         e = e.nextElementSibling)
                                      if (e.matches('ul.legend'))
                                        e.querySelectorAll('li').forEach((li) => out.push(li.textContent.trim()));
                                      else if (e.matches('p.undrawn'))
                                        e.textContent.split(': ')[1].replace(/\.$/, '')
                                          .split(', ').forEach((n) => out.push(n));
                                    return out.sort();""", caption)
            # Every sweep is a line of a chart or named as one a log axis cannot draw.
            self.assertEqual(legend, sweeps)


if __name__ == "__main__":
    reason = browser.missing()
    if reason:
        print("skipped: " + reason)
        sys.exit(1 if os.environ.get("ROOFTOP_REQUIRE_BROWSER") else 77)
    unittest.main()

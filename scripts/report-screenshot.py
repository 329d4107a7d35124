#!/usr/bin/env python3
"""A PNG of an HTML report as a browser shows it (headless Chromium, scripts/browser.py):
the roofline section at the top of the window, and, with --hover ID, the tooltip of that
kernel's first point, as a reader pointing at it sees it.

    scripts/report-screenshot.py report.html report.png [--hover v7] [--width 1100] [--height 900]
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("png")
    parser.add_argument("--hover", help="a kernel id: show the tooltip of its first point")
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args()
    reason = browser.missing()
    if reason:
        sys.exit("report-screenshot: " + reason)
    with browser.Browser(args.width, args.height) as b:
        b.open(args.report)
        errors = [e["message"] for e in b.log("browser")]
        if errors:
            sys.exit("report-screenshot: the page logged: " + errors[0])
        b.run("document.getElementById('roofline').scrollIntoView();")
        if args.hover:
            points = [p for p in b.find_all("#roofline .point")
                      if b.run("return arguments[0].dataset.id;", b.element(p)) == args.hover]
            if not points:
                sys.exit(f"report-screenshot: no point of a kernel with id {args.hover}")
            b.hover(points[0])
        with open(args.png, "wb") as f:
            f.write(b.screenshot())
    print("wrote " + args.png)


if __name__ == "__main__":
    main()

"""Headless Chromium for rooftop's HTML report, driven through chromedriver's W3C WebDriver
HTTP API with Python's standard library alone (no PyPI or npm package).

Debian: `chromium` and `chromium-driver` (scripts/install-deps.sh installs them). The
browser runs with a fresh profile and every background service that could reach the
network switched off, so that the only requests it makes are the page's own.
"""

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
import zlib

CHROMIUM = os.environ.get("ROOFTOP_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = (os.environ.get("ROOFTOP_CHROMEDRIVER") or shutil.which("chromedriver")
                or "/usr/bin/chromedriver")
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference


def missing():
    """Why no browser can be started here, or None."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"{path} not found (Debian package {package}; scripts/install-deps.sh installs it)"
    return None


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriverError(RuntimeError):
    pass


class Browser:
    """One headless Chromium session; use as a context manager."""

    def __init__(self, width=1280, height=900):
        self.profile = tempfile.mkdtemp(prefix="rooftop-chromium-")
        port = _free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._wait_ready()
            args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-default-apps", "--disable-extensions",
                    "--hide-scrollbars", f"--window-size={width},{height}",
                    f"--user-data-dir={self.profile}"]
            caps = {"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
                "goog:loggingPrefs": {"browser": "ALL", "performance": "ALL"}}}}
            self.session = self._call("POST", "/session", caps)["sessionId"]
        except BaseException:
            self._stop_driver()
            raise

    def _wait_ready(self):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/status", timeout=2) as r:
                    if json.load(r)["value"].get("ready"):
                        return
            except (OSError, ValueError, KeyError):
                pass
            if self.driver.poll() is not None:
                raise WebDriverError(f"{CHROMEDRIVER} exited with status {self.driver.returncode}")
            time.sleep(0.1)
        raise WebDriverError(f"{CHROMEDRIVER} did not answer within 20 s")

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as r:
                return json.load(r)["value"]
        except urllib.error.HTTPError as e:
            try:
                value = json.load(e)["value"]
                message = f"{value.get('error')}: {value.get('message', '').splitlines()[0]}"
            except (ValueError, KeyError, IndexError):
                message = str(e)
            raise WebDriverError(f"{method} {path}: {message}") from None

    def _session(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def open(self, path):
        """Loads a local file and waits for it to finish loading."""
        self._session("POST", "/url", {"url": "file://" + os.path.abspath(path)})

    def run(self, script, *args):
        """Runs `script` (a function body) in the page and returns what it returns."""
        return self._session("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find_all(self, css):
        return [e[ELEMENT] for e in self._session("POST", "/elements",
                                                   {"using": "css selector", "value": css})]

    def element(self, ref):
        """An element reference for `run`'s arguments."""
        return {ELEMENT: ref}

    def click(self, ref):
        self._session("POST", f"/element/{ref}/click", {})

    def hover(self, ref):
        """Moves the pointer onto the element's centre (the Actions API)."""
        self._session("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "origin": self.element(ref),
                         "x": 0, "y": 0}]}]})

    def keys(self, text):
        """Types `text` (WebDriver key codes allowed) into whatever has the focus."""
        actions = []
        for ch in text:
            actions += [{"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch}]
        self._session("POST", "/actions", {"actions": [{"type": "key", "id": "keyboard",
                                                        "actions": actions}]})

    def emulate_media(self, media):
        """Lays the page out for `media` ('print', or '' for the screen again), through
        chromedriver's DevTools passthrough."""
        self._session("POST", "/goog/cdp/execute",
                      {"cmd": "Emulation.setEmulatedMedia", "params": {"media": media}})

    def screenshot(self):
        """The viewport as PNG bytes."""
        return base64.b64decode(self._session("GET", "/screenshot"))

    def full_screenshot(self, path):
        """The whole page as PNG: the window grown to the page's height first."""
        height = self.run("return Math.ceil(document.documentElement.scrollHeight);")
        width = self.run("return window.outerWidth;")
        self._session("POST", "/window/rect", {"width": width, "height": height})
        with open(path, "wb") as f:
            f.write(self.screenshot())

    def log(self, kind):
        """Entries of a log ('browser': the console; 'performance': DevTools events),
        each read once."""
        return self._session("POST", "/se/log", {"type": kind})

    def requests(self):
        """URLs of the network requests made since the last call by pages other than the
        browser's own (chrome://, such as the new-tab page it opens with)."""
        urls = []
        for entry in self.log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") != "Network.requestWillBeSent":
                continue
            params = message["params"]
            if not params.get("documentURL", "").startswith(("chrome:", "chrome-untrusted:")):
                urls.append(params["request"]["url"])
        return urls

    def _stop_driver(self):
        if self.driver.poll() is None:
            self.driver.terminate()
            try:
                self.driver.wait(10)
            except subprocess.TimeoutExpired:
                self.driver.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def close(self):
        try:
            self._call("DELETE", f"/session/{self.session}")
        except (WebDriverError, OSError):
            pass
        self._stop_driver()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def png_pixels(png):
    """(width, height, rows of RGBA bytes) of an 8-bit RGB or RGBA PNG, as Chromium writes
    them: enough to tell a blank screenshot from a drawn one."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, idat, width = 8, b"", 0
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at:at + 8])
        chunk = png[at + 8:at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", chunk[:10])
            if depth != 8 or color not in (2, 6):
                raise ValueError(f"PNG of depth {depth}, colour type {color}")
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += chunk
        at += 12 + length
    raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if channels == 4 else bytes(
            v for j in range(0, stride, 3) for v in (*line[j:j + 3], 255)))
        prev = line
    return width, height, rows

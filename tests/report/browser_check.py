#!/usr/bin/env python3
"""Checks arenaplan's HTML report in a real browser (headless Chromium over the DevTools protocol).

For each model: `arenaplan report` writes the page, `arenaplan plan --format json` gives the
expected figures (computed by the CLI, not by the page); the page is loaded from disk with the
network disabled, and the check asserts
  - no console error, no exception, no network request other than the file itself;
  - one rectangle drawn per planned buffer, for every planner in the report;
  - the peak marker sits at the step and height `plan` reports (read back from its position), and
    the page's own live-bytes curve peaks there too;
  - moving the mouse (a real input event) over buffers shows their names in the tooltip;
  - zooming with the wheel redraws, and a frame of the largest plan takes well under a second.
A screenshot of each page is written to the artefacts folder.

usage: browser_check.py ARENAPLAN OUT_DIR MODEL[:PLANNER,...][@TARGET] ... [--solve PROBLEM.csv]
Relative MODEL / PROBLEM paths are under $ARENAPLAN_SHARED. Exit 0 pass, 1 fail, 77 skipped (no
Chromium or no ../shared, and not under CI).
Standard library only: the protocol runs over --remote-debugging-pipe (file descriptors 3 and 4).
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77


class Browser:
    """A headless Chromium driven over the DevTools pipe (NUL-terminated JSON messages)."""

    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="arenaplan-chromium-")
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def wire():
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
                "--disable-default-apps", "--mute-audio", "--hide-scrollbars", "--remote-debugging-pipe",
                "--user-data-dir=" + self.profile, "--window-size=1400,1000", "about:blank"]
        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=wire, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(to_child_r)
        os.close(from_child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_child)
        os.close(self.from_child)
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=True, timeout=60):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_child, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while time.time() < deadline:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)
        raise RuntimeError("%s: no reply in %d s" % (method, timeout))

    def open_page(self):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False})

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError("page exception: %s" % json.dumps(r["exceptionDetails"])[:400])
        return r["result"].get("value")

    def wait_for(self, expression, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.evaluate(expression):
                return True
            time.sleep(0.05)
        return False

    def problems(self):
        """Console errors, exceptions and network requests to anything but file:// since the last call."""
        found = []
        for e in self.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                found.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
                found.append("console.%s: %s" % (p["type"], json.dumps(p.get("args", []))[:300]))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                found.append("log: " + p["entry"].get("text", "")[:300])
            elif m == "Network.requestWillBeSent":
                url = p.get("request", {}).get("url", "")
                if not url.startswith(("file://", "about:", "data:")):
                    found.append("network request: " + url)
        self.events = []
        return found

    def mouse(self, kind, x, y, **extra):
        params = {"type": kind, "x": x, "y": y}
        params.update(extra)
        self.call("Input.dispatchMouseEvent", params)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": False})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    return r.stdout


class Check:
    def __init__(self, name):
        self.name = name
        self.failures = []

    def expect(self, ok, what):
        if not ok:
            self.failures.append(what)
        return ok


def check_page(browser, page, expected, out_png, check):
    """`expected`: one `plan`/`solve` JSON document per planner, in the report's order. Returns the
    figures for the summary table."""
    browser.events = []
    browser.call("Page.navigate", {"url": "file://" + os.path.abspath(page)})
    started = time.time()
    if not check.expect(browser.wait_for("document.body && document.body.dataset.ready === '1'"), "page never ready"):
        check.failures += browser.problems()
        return None
    load_s = time.time() - started
    frames = []
    views = browser.evaluate("arenaplanReport.views.length")
    check.expect(views >= 1, "no model view")
    for k, doc in enumerate(expected):
        browser.evaluate("arenaplanReport.views[0].select(%d)" % k)
        browser.wait_for("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
        s = browser.evaluate("arenaplanReport.views[0].summary()")
        label = "%s/%s" % (check.name, doc["planner"])
        n = len(doc["buffers"])
        check.expect(s["buffers"] == n, "%s: %d buffers in the page, plan has %d" % (label, s["buffers"], n))
        check.expect(s["drawn"] == n, "%s: %d rectangles drawn, plan has %d buffers" % (label, s["drawn"], n))
        arena = doc.get("arena_bytes", doc.get("height"))
        check.expect(s["arena"] == arena, "%s: arena %s, plan says %s" % (label, s["arena"], arena))
        check.expect(s["lower_bound"] == doc["lower_bound_bytes"], "%s: lower bound differs" % label)
        peak = doc["peak"]
        m = s["marker"]
        check.expect(not m["hidden"], "%s: peak marker hidden" % label)
        check.expect(m["step"] == peak["step"] and m["bytes"] == peak["live_bytes"],
                     "%s: marker says step %s / %s B, plan says %s / %s" % (label, m["step"], m["bytes"],
                                                                          peak["step"], peak["live_bytes"]))
        check.expect(abs(m["step_at_x"] - peak["step"]) <= max(1, m["steps_per_px"] * 2),
                     "%s: marker drawn at step %s, plan's peak is step %s" % (label, m["step_at_x"], peak["step"]))
        check.expect(abs(m["bytes_at_dot"] - peak["live_bytes"]) <= 2 * m["bytes_per_px"],
                     "%s: marker drawn at %s B, plan's peak is %s B" % (label, m["bytes_at_dot"], peak["live_bytes"]))
        c = s["curve_peak"]
        check.expect(c["step"] == peak["step"] and c["bytes"] == peak["live_bytes"],
                     "%s: the page's live curve peaks at step %s / %s B, plan at %s / %s" % (
                         label, c["step"], c["bytes"], peak["step"], peak["live_bytes"]))
        frames.append(s["frame_ms"])
        hover_checks(browser, doc, label, check)
        print("  %-28s %6d buffers drawn, peak step %s (%s B), frame %.1f ms" % (
            doc["planner"], s["drawn"], peak["step"], peak["live_bytes"], s["frame_ms"]))
    oplist_check(browser, check)
    zoom_ms = zoom_check(browser, check)
    check.failures += browser.problems()
    browser.evaluate("window.scrollTo(0, 0); arenaplanReport.views.forEach(v => v.resetView()); true")
    browser.wait_for("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
    browser.screenshot(out_png)
    print("  loaded in %.2f s, screenshot %s" % (load_s, out_png))
    return {"buffers": len(expected[0]["buffers"]), "planners": len(expected), "bytes": os.path.getsize(page),
            "load_s": load_s, "frame_ms": max(frames), "zoom_ms": zoom_ms}


def hover_checks(browser, doc, label, check):
    """Real mouse moves over the largest buffer and a few others; the tooltip must name each."""
    bufs = doc["buffers"]
    order = sorted(range(len(bufs)), key=lambda i: -bufs[i]["size"] * (bufs[i].get("last", bufs[i].get("upper", 0)) -
                                                                        bufs[i].get("first", bufs[i].get("lower", 0)) + 1))
    picks = order[:3]
    for i in picks:
        pos = browser.evaluate("(() => { const v = arenaplanReport.views[0]; v.resetView(); "
                               "v.canvas.scrollIntoView({block: 'center'}); return null; })()")
        browser.wait_for("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
        pos = browser.evaluate("arenaplanReport.views[0].bufferClientCenter(%d)" % i)
        browser.mouse("mouseMoved", pos["x"], pos["y"])
        browser.wait_for("new Promise(r => requestAnimationFrame(() => r(true)))")
        tip = browser.evaluate("(() => { const t = document.getElementById('tooltip'); "
                               "return t.hidden ? null : t.querySelector('.name').textContent; })()")
        name = bufs[i].get("name", str(bufs[i]["id"]))
        check.expect(tip == name, "%s: hovering buffer %s shows %r, expected %r" % (label, bufs[i]["id"], tip, name))
    browser.mouse("mouseMoved", 2, 2)


def oplist_check(browser, check):
    """The op list's tensor links pin their buffer; the peak list's shares add up to 100 %."""
    r = browser.evaluate("""(() => {
      const v = arenaplanReport.views[0];
      const shares = [...v.peakPanel.querySelectorAll('tbody tr')].map(tr => parseFloat(tr.children[3].textContent));
      if (!v.opListBox) return {graph: false, shares};
      v.opListBox.open = true;
      v.opListBox.dispatchEvent(new Event('toggle'));
      const links = v.opListBox.querySelectorAll('a.buf');
      const link = links[links.length - 1];
      link.click();
      const pinned = v.plan.buffers[v.pinned];
      return {graph: true, links: links.length, id: link.dataset.buffer, pinned: pinned ? pinned.id : null,
              shown: v.details.hidden ? null : v.details.querySelector('.name').textContent, name: pinned ? pinned.name : null,
              shares};
    })()""")
    shown = len(r["shares"])
    if shown < 200:  # all of them listed
        check.expect(abs(sum(r["shares"]) - 100) < 0.1 * shown + 0.1, "peak shares add up to %.1f %%" % sum(r["shares"]))
    if r["graph"]:
        check.expect(r["links"] > 0, "op list has no buffer links")
        check.expect(r["pinned"] == r["id"] and r["shown"] == r["name"],
                     "op list link %s pinned %s (details: %r)" % (r["id"], r["pinned"], r["shown"]))
    browser.evaluate("arenaplanReport.views[0].pin(-1, false); true")


def zoom_check(browser, check):
    before = browser.evaluate("JSON.stringify(arenaplanReport.views[0].view)")
    pos = browser.evaluate("(() => { const r = arenaplanReport.views[0].canvas.getBoundingClientRect(); "
                           "return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()")
    browser.mouse("mouseWheel", pos["x"], pos["y"], deltaX=0, deltaY=-400)
    browser.wait_for("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")
    after = browser.evaluate("JSON.stringify(arenaplanReport.views[0].view)")
    check.expect(before != after, "wheel did not zoom")
    ms = browser.evaluate("arenaplanReport.views[0].summary().frame_ms")
    check.expect(ms < 1000, "a frame took %.0f ms" % ms)
    print("  wheel zoom redrawn in %.1f ms" % ms)
    return ms


def shared_path(path):
    if os.path.isabs(path):
        return path
    return os.path.join(os.environ.get("ARENAPLAN_SHARED", "../shared"), path)


def missing(path):
    """77 (skip), or 1 under CI, for an input that is not there."""
    if os.environ.get("CI") == "true":
        print("browser_check: %s not found (set ARENAPLAN_SHARED); required under CI" % path)
        return 1
    print("browser_check: %s not found (set ARENAPLAN_SHARED), skipping" % path)
    return SKIP


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    cli, out = argv[1], argv[2]
    os.makedirs(out, exist_ok=True)
    chromium = find_chromium()
    if not chromium:
        if os.environ.get("CI") == "true":
            print("browser_check: chromium not found (scripts/install-deps.sh test installs it); required under CI")
            return 1
        print("browser_check: chromium not found, skipping")
        return SKIP
    jobs = []  # (name, page, expected plan documents)
    args = argv[3:]
    k = 0
    while k < len(args):
        if args[k] == "--solve":
            problem = shared_path(args[k + 1])
            k += 2
            if not os.path.exists(problem):
                return missing(problem)
            name = os.path.splitext(os.path.basename(problem))[0]
            page = os.path.join(out, name + ".html")
            planner = "tflm-greedy"
            doc = json.loads(run([cli, "solve", problem, "--planner", planner, "--format", "json", "--report", page]))
            jobs.append((name, page, [doc]))
            continue
        spec = args[k]
        k += 1
        target = None
        if "@" in spec:
            spec, target = spec.split("@", 1)
        model, _, planners = spec.partition(":")
        model = shared_path(model)
        planners = planners.split(",") if planners else ["tflm-greedy", "best"]
        if not os.path.exists(model):
            return missing(model)
        name = os.path.splitext(os.path.basename(model))[0]
        page = os.path.join(out, name + ".html")
        extra = ["--target", target] if target else []
        run([cli, "report", model, "-o", page, "--planner", ",".join(planners)] + extra)
        docs = [json.loads(run([cli, "plan", model, "--planner", p, "--format", "json"] + extra)) for p in planners]
        jobs.append((name, page, docs))
    started = time.time()
    browser = Browser(chromium)
    failed = 0
    rows = []
    try:
        browser.open_page()
        for name, page, docs in jobs:
            print("%s (%s)" % (name, page))
            check = Check(name)
            t0 = time.time()
            figures = check_page(browser, page, docs, os.path.join(out, name + ".png"), check)
            print("  checked in %.2f s" % (time.time() - t0))
            for f in check.failures:
                print("  FAIL " + f)
            failed += bool(check.failures)
            if figures:
                size = figures["bytes"]
                rows.append("| %s | %s | %d | %s | %.2f | %.1f | %.1f | %.1f |" % (
                    name, format(figures["buffers"], ","), figures["planners"],
                    "%.1f MB" % (size / 1e6) if size >= 1e6 else "%d KB" % round(size / 1e3),
                    figures["load_s"], figures["frame_ms"], figures["zoom_ms"], time.time() - t0))
    finally:
        browser.close()
    print("\n| page | buffers | planners | HTML | load (s) | first frame (ms) | zoom frame (ms) | whole check (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    print("\nbrowser_check: %d of %d pages passed in %.1f s (Chromium included)" % (len(jobs) - failed, len(jobs),
                                                                                  time.time() - started))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""check_report_browser.py REPORT_DIR: opens papi_report's report.html in a real browser
(Debian's chromium, headless) and checks that every named figure is present and
rendered: a copy of the page with a probe script is loaded once to learn, after layout,
each figure's image size as decoded by the browser (naturalWidth/Height) and its place
on the page; then the page itself is screenshotted at its full height and every
figure's area of the screenshot must hold a picture (more than one colour).
Exit 0 pass, 1 fail, 77 skipped (no chromium: scripts/install-deps.sh installs it)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FIGURES = ["compute-vs-mpi", "mpi-time-by-call", "time-per-call-site", "message-sizes",
           "comm-matrix", "counters-per-rank", "region-tree", "region-by-rank",
           "region-by-thread", "region-reads"]
WIDTH = 1400
PROBE = """<script>
window.addEventListener('load', function () {
  var out = {height: document.documentElement.scrollHeight, figures: {}};
  document.querySelectorAll('figure[id]').forEach(function (f) {
    var img = f.querySelector('img'), r = (img || f).getBoundingClientRect();
    out.figures[f.id] = {img: !!img, w: img ? img.naturalWidth : 0, h: img ? img.naturalHeight : 0,
      complete: img ? img.complete : false, x: r.left + window.scrollX, y: r.top + window.scrollY,
      width: r.width, height: r.height};
  });
  var pre = document.createElement('pre');
  pre.id = 'probe-result';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        p = shutil.which(name)
        if p:
            return p
    return None


def chromium(exe, profile, args, timeout=180):
    # As root, chromium needs --no-sandbox; the other switches keep it off the network.
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run",
           "--user-data-dir=" + profile, "--hide-scrollbars"] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def main():
    report = os.path.join(os.path.abspath(sys.argv[1]), "report.html")
    exe = find_chromium()
    if not exe:
        print("SKIPPED: chromium is not installed (Debian: apt-get install chromium)")
        return 77
    if not os.path.isfile(report):
        print("FAIL: %s does not exist (check_papi_report makes it)" % report)
        return 1
    failures = []
    work = tempfile.mkdtemp(prefix="report_browser_")
    try:
        page = open(report, encoding="utf-8").read()
        probe = os.path.join(work, "probe.html")
        with open(probe, "w", encoding="utf-8") as f:
            f.write(page.replace("</body>", PROBE + "</body>"))
        p = chromium(exe, os.path.join(work, "profile1"),
                     ["--window-size=%d,1000" % WIDTH, "--virtual-time-budget=10000", "--dump-dom",
                      "file://" + probe])
        m = re.search(r'<pre id="probe-result">(.*?)</pre>', p.stdout, re.S)
        if p.returncode != 0 or not m:
            print("FAIL: chromium --dump-dom gave no probe result (exit %d): %s" % (p.returncode, p.stderr[-2000:]))
            return 1
        res = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))
        for fid in FIGURES:
            f = res["figures"].get(fid)
            if not f:
                failures.append("figure %s is not on the page" % fid)
            elif not (f["img"] and f["complete"] and f["w"] > 0 and f["h"] > 0):
                failures.append("figure %s is not rendered: %s" % (fid, f))
        height = min(int(res["height"]) + 50, 30000)
        shot = os.path.join(work, "page.png")
        p = chromium(exe, os.path.join(work, "profile2"),
                     ["--window-size=%d,%d" % (WIDTH, height), "--virtual-time-budget=10000",
                      "--screenshot=" + shot, "file://" + report])
        if not os.path.isfile(shot) or os.path.getsize(shot) == 0:
            failures.append("chromium made no screenshot (exit %d): %s" % (p.returncode, p.stderr[-1500:]))
        else:
            failures += check_screenshot(shot, res["figures"])
        print("screenshot %s: %d bytes, page height %d px" % (shot, os.path.getsize(shot) if os.path.isfile(shot) else 0, height))
    finally:
        if not failures:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print("kept", work)
    for f in failures:
        print("FAIL:", f)
    print("check_report_browser: %s" % ("FAILED (%d)" % len(failures) if failures else "PASSED"))
    return 1 if failures else 0


def check_screenshot(path, figures):
    """Every figure's area of the screenshot holds more than one colour."""
    try:
        import matplotlib.image as mpimg
    except ImportError:
        return ["cannot read the screenshot: matplotlib missing (python3-matplotlib)"]
    img = mpimg.imread(path)
    out = []
    for fid in FIGURES:
        f = figures.get(fid)
        if not f:
            continue
        y0, x0 = int(f["y"]), int(f["x"])
        area = img[y0:y0 + int(f["height"]), x0:x0 + int(f["width"])]
        if area.size == 0:
            out.append("figure %s lies outside the screenshot (%s)" % (fid, f))
        elif float(area.reshape(-1, area.shape[-1]).std(axis=0).max()) == 0.0:
            out.append("figure %s is blank in the screenshot" % fid)
    return out


if __name__ == "__main__":
    sys.exit(main())

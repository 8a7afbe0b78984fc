#!/usr/bin/env python3
"""check_papi_run.py: papi_run run as users run it, with exact software events.

  check_papi_run.py CASE PAPI_RUN PROGRAM [MPIRUN NP]

CASE: threads (4 threads x 1000 pages + a child's 500, exit status 7), per_thread (the
rows: each thread's own 1000, the child's 500, their sum within the total), signals (a
SIGTERM to papi_run reaches the program, which exits 42; SIGKILL in the program gives 137
and "killed by signal 9"), static (a static program counted from outside, with a note),
multiplexed (PAPI_MULTIPLEX=1: each event's and metric's banner line ends with perf
stat's running fraction, "(100.00%)" for software events, which are never descheduled,
and the file's running_fraction says 1.0 each; without it neither), interval (--interval 0.05 on a 0.5 s program: >= 5 samples summing to the totals),
context_switches (a program sleeping 20 x 1 ms: >= 20 context switches, counted in user
and kernel mode), context_switches_unprivileged (as nobody: left out with a note, never
a 0), bad_input (exit 2 / 127 / 126, one line, no file), runs (one file per run, never
overwritten; an earlier run's directory set aside, never one in use; papi_report keeps
runs apart), not_a_program (a directory, FIFO,
device, non-executable file ...: one line, 126 or 127 as a shell, no signal, no hang), regions (a program using the region
API under --per-thread: both work), mixed_components (perf_event's page faults and net's
loopback bytes in one run: one event set per component, both count), mpi (MPIRUN -np NP papi_run: one file
per rank, the MPI report with per-rank counters)."""
import glob
import shutil
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import fail  # noqa: E402 (tests/common/checks.py)

report_check.guard()

FAULTS = "perf::PAGE-FAULTS"
# PAPI_RUN_REPORT="python3 papi_report.py" (set by ctest when Debian's python3 is there)
REPORT = os.environ.get("PAPI_RUN_REPORT", "").split()


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)
    return p.returncode, p.stdout, p.stderr


def report(out, n=1):
    files = sorted(glob.glob(os.path.join(out, "papi_run_output", "rank_*.json")))
    if len(files) != n:
        fail("%d report files in %s, expected %d" % (len(files), out, n))
    return [json.load(open(f)) for f in files]


def case_threads(papi_run, prog, out):
    rc, _, err = run([papi_run, "-e", FAULTS, "-o", out, "--", prog, "4", "1000", "500", "7"])
    if rc != 7:
        fail("exit status %d, expected the program's 7\n%s" % (rc, err))
    (d,) = report(out)
    total = d["process_totals"][FAULTS]
    if total < 4 * 1000 + 500:
        fail("total %d page faults < 4 x 1000 + 500" % total)
    if "{:,}".format(total) not in err or FAULTS not in err:
        fail("the banner does not show %d %s:\n%s" % (total, FAULTS, err))
    (thread,) = d["threads"].values()
    if thread["regions"]["0"][FAULTS] != total or d["exit_status"] != 7:
        fail("the whole-program region does not carry the total and the exit status")
    print("threads: total %d >= 4500, exit status 7" % total)


def case_per_thread(papi_run, prog, out):
    rc, _, err = run([papi_run, "--per-thread", "--quiet", "-e", FAULTS, "-o", out, "--",
                      prog, "4", "1000", "500", "0"])
    if rc != 0 or err:
        fail("exit status %d, stderr %r" % (rc, err))
    (d,) = report(out)
    rows = sorted(t["regions"]["0"][FAULTS] for t in d["threads"].values())
    total = d["process_totals"][FAULTS]
    # 4 threads with exactly their 1000 pages, the child at least its 500, the main thread
    if len(rows) != 6 or rows[-4:] != [1000] * 4 or not 500 <= rows[1] < 1000:
        fail("per-thread rows %s, expected four of 1000, the child's >= 500 and main" % rows)
    if sum(rows) > total:
        fail("the rows sum to %d, more than the total %d" % (sum(rows), total))
    print("per_thread: rows %s sum %d <= total %d" % (rows, sum(rows), total))


def case_signals(papi_run, prog, out):
    p = subprocess.Popen([papi_run, "--quiet", "-e", FAULTS, "-o", out, "--", prog, "term"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.stdout.readline().strip() != "ready":
        fail("the program did not start")
    p.send_signal(signal.SIGTERM)
    rc = p.wait(timeout=30)
    if rc != 42:
        fail("SIGTERM to papi_run: exit status %d, expected the program's 42" % rc)
    rc, _, err = run([papi_run, "-e", FAULTS, "-o", out, "--", prog, "kill"])
    if rc != 128 + 9 or "killed by signal 9" not in err:
        fail("SIGKILL in the program: exit status %d, banner:\n%s" % (rc, err))
    # (the second run set the first run's directory aside: papi_run_output-YYYYMMDD-HHMMSS)
    d = [json.load(open(f)) for f in glob.glob(os.path.join(out, "papi_run_output*", "rank_*.json"))]
    d = [x for x in d if x["signal"] is not None]
    if len(d) != 1 or d[0]["signal"] != 9 or d[0]["exit_status"] is not None:
        fail("the report does not say signal 9")
    print("signals: SIGTERM passed (42), SIGKILL reported (137)")


def case_static(papi_run, prog, out):
    rc, _, err = run([papi_run, "-e", FAULTS, "-o", out, "--per-thread", "--", prog, "2",
                      "1000", "300", "5"])
    if rc != 5:
        fail("exit status %d, expected 5\n%s" % (rc, err))
    (d,) = report(out)
    if d["process_totals"][FAULTS] < 2300 or "static program" not in d["note"]:
        fail("static: total %d, note %r" % (d["process_totals"][FAULTS], d["note"]))
    if "note: static program" not in err:
        fail("the banner does not say the program is static:\n" + err)
    print("static: total %d >= 2300, note given" % d["process_totals"][FAULTS])


def case_multiplexed(papi_run, prog, out):
    events = [FAULTS, "perf::TASK-CLOCK"]
    cmd = [papi_run, "-e", ",".join(events), "-m", "CPU_UTILIZATION", "-o", out, "--",
           prog, "2", "500", "100", "0"]
    rc, _, err = run(cmd, env=dict(os.environ, PAPI_MULTIPLEX="1"))
    if rc != 0:
        fail("multiplexed: exit status %d\n%s" % (rc, err))
    (d,) = report(out)
    lines = [l for l in err.splitlines() if any(e in l for e in events + ["CPU_UTILIZATION"])]
    if len(lines) != 3 or not all(l.endswith("  (100.00%)") for l in lines):
        fail("multiplexed: every event and metric line ends with (100.00%%):\n%s" % err)
    if "multiplexed (PAPI_MULTIPLEX)" not in err:
        fail("multiplexed: the banner does not say why:\n%s" % err)
    if d.get("running_fraction") != {e: 1.0 for e in events} or d.get("multiplexed") != "PAPI_MULTIPLEX":
        fail("multiplexed: the file's running_fraction %r" % d.get("running_fraction"))
    if d["process_totals"][FAULTS] < 2 * 500 + 100:
        fail("multiplexed: %d page faults < 1100" % d["process_totals"][FAULTS])
    env = {k: v for k, v in os.environ.items() if k != "PAPI_MULTIPLEX"}
    with tempfile.TemporaryDirectory(prefix="papi_run_test.") as out2:
        cmd[cmd.index("-o") + 1] = out2
        rc, _, err = run(cmd, env=env)
        (d,) = report(out2)
        if rc != 0 or "%)" in err or "running_fraction" in d or "multiplexed" in err:
            fail("not multiplexed: no running fraction is printed or written:\n%s" % err)
    print("multiplexed: %d lines with (100.00%%), the file's fractions 1.0; none without" % len(lines))


def case_interval(papi_run, prog, out):
    rc, _, err = run([papi_run, "--quiet", "--interval", "0.05", "-e",
                      FAULTS + ",perf::TASK-CLOCK", "-m", "CPU_UTILIZATION", "-o", out, "--",
                      prog, "1", "100", "10", "0", "0.5"])
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    (d,) = report(out)
    samples = d["series"]["samples"]
    if len(samples) < 5:
        fail("%d samples, expected at least 5" % len(samples))
    for ev in (FAULTS, "perf::TASK-CLOCK"):
        s = sum(x[ev] for x in samples)
        if s != d["process_totals"][ev]:
            fail("%s: samples sum to %d, total %d" % (ev, s, d["process_totals"][ev]))
    times = [x["time_nsec"] for x in samples]
    if times != sorted(times):
        fail("sample times are not increasing")
    # -m: each sample's CPU_UTILIZATION is its own interval's task-clock over its time
    for x, t0 in zip(samples, [0] + times):
        want = x["perf::TASK-CLOCK"] / (x["time_nsec"] - t0)
        if abs(x["metrics"]["CPU_UTILIZATION"] - want) > 1e-6 * max(want, 1e-9):
            fail("sample at %d ns: CPU_UTILIZATION %s, task-clock over the interval %s"
                 % (x["time_nsec"], x["metrics"]["CPU_UTILIZATION"], want))
    print("interval: %d samples summing to the totals, each with its CPU_UTILIZATION" % len(samples))
    if REPORT:  # papi_report draws the series: its table and both figures
        rep = os.path.join(out, "report")
        rc, so, err = run(REPORT + ["--regions", os.path.join(out, "papi_run_output"), "-o", rep])
        if rc != 0:
            fail("papi_report: exit status %d\n%s%s" % (rc, so, err))
        rows = open(os.path.join(rep, "time_series.csv")).read().splitlines()
        if len(rows) - 1 != 2 * len(samples):
            fail("time_series.csv has %d rows, expected %d" % (len(rows) - 1, 2 * len(samples)))
        page = open(os.path.join(rep, "report.html")).read()
        for fid in ("series-heat", "series-lines", "series-metric-heat"):
            part = page.split('<figure id="%s"' % fid, 1)[-1].split("</figure>", 1)[0]
            if "<img" not in part:
                fail("papi_report did not draw %s: %s" % (fid, part[:200]))
        print("interval: papi_report drew the series (%d rows)" % (len(rows) - 1))


def case_interval_merged(papi_run, prog, out):
    """--interval 0.001 on a 6 s program: past 4096 samples (4.1 s) the series merges to
    2 ms and the sampler must follow (it kept sleeping 1 ms: 3948 samples "every 2 ms",
    7.9 s in a 6 s run; a second merge would need 8.19 s, room for a loaded machine). The
    samples are one interval_s apart and span the elapsed time."""
    rc, _, err = run([papi_run, "--interval", "0.001", "-e", FAULTS, "-o", out, "--",
                      "sleep", "6"])
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    (d,) = report(out)
    step, samples = d["series"]["interval_s"], d["series"]["samples"]
    times = [x["time_nsec"] * 1e-9 for x in samples]
    elapsed = d["process_totals"]["real_time_nsec"] * 1e-9
    gaps = sorted(b - a for a, b in zip([0.0] + times[:-2], times[:-1]))  # the last is partial
    median = gaps[len(gaps) // 2]  # (a loaded machine delays some samples: the next catch up)
    if abs(step - 0.002) > 1e-12:
        fail("interval_s %s, expected one merge: 0.002" % step)
    if abs(median - step) > 0.1 * step:
        fail("sample gaps: median %.6f s, interval_s %s s" % (median, step))
    # Ticks papi_run was too late for are skipped (a loaded machine), counted at the step of
    # their time (half of the last before the merge).
    ticks = len(samples) - 1 + d["series"]["skipped"]
    if abs(ticks * step - times[-2]) > 0.05 * elapsed or times[-1] > elapsed + 1e-3:
        fail("%d samples and %d skipped every %s s = %.3f s, the last grid sample at %.3f s, "
             "elapsed %.3f s" % (len(samples), d["series"]["skipped"], step, ticks * step,
                                 times[-2], elapsed))
    banner = " %d samples every %.3f s" % (len(samples), step)
    if banner not in err:
        fail("the banner does not say %r:\n%s" % (banner, err))
    print("interval_merged: %d samples every %s s over %.3f s (median gap %.6f s)"
          % (len(samples), step, elapsed, median))


def case_interval_stalled(papi_run, prog, out):
    """papi_run stopped for 0.5 s (the program sends it SIGSTOP, then SIGCONT) at --interval
    0.01: the ticks it missed are skipped and counted (series.skipped, the banner), never
    taken back to back after it (the samples were 50 at an instant apart)."""
    script = 'kill -STOP $PPID; sleep 0.5; kill -CONT $PPID; sleep 0.3'
    rc, _, err = run([papi_run, "--interval", "0.01", "-e", FAULTS, "-o", out, "--",
                      "sh", "-c", script])
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    (d,) = report(out)
    step, samples = d["series"]["interval_s"], d["series"]["samples"]
    times = [x["time_nsec"] * 1e-9 for x in samples]
    # a catch-up is a burst (the 50 missed ticks one after the other); a loaded machine
    # wakes the sampler late now and then, and the next on time: a lone short gap
    close = [b - a < step / 2 for a, b in zip(times[:-2], times[1:-1])]
    burst = streak = 0
    for c in close:
        streak = streak + 1 if c else 0
        burst = max(burst, streak)
    skipped = d["series"].get("skipped")
    print("interval_stalled: %d samples every %s s, %d under half an interval apart (at most %d "
          "in a row), %s skipped" % (len(samples), step, sum(close), burst, skipped))
    if burst > 2 or sum(close) > len(close) // 4:
        fail("%d samples under %.3f s apart, %d in a row: the missed ticks were taken back to "
             "back" % (sum(close), step / 2, burst))
    if not isinstance(skipped, int) or not 30 <= skipped <= 80:
        fail("series.skipped %r, expected about 50 (0.5 s at 0.01 s)" % skipped)
    if "%d skipped" % (skipped or 0) not in err:
        fail("the banner does not say %d skipped:\n%s" % (skipped or 0, err))


def case_unwritten(papi_run, prog, out):
    """A report that cannot be written shows in the exit status: 1 when the program
    succeeded, the program's own status when it failed, with one line saying why. Root
    ignores permissions, so the write fails by a file-size limit (RLIMIT_FSIZE: EFBIG, and
    papi_run is not killed by SIGXFSZ) or by the directory removed while the program ran."""
    import resource

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (256, 256))
    cases = [("true", [], 1, small_files, "File too large"),
             ("exit 3", ["sh", "-c", "exit 3"], 3, small_files, "File too large"),
             ("removed", ["sh", "-c", 'rm -rf "$0"', os.path.join(out, "papi_run_output")], 1,
              None, "No such file")]
    for what, cmd, want, pre, why in cases:
        p = subprocess.run([papi_run, "--quiet", "-e", FAULTS, "-o", out, "--"] + (cmd or ["true"]),
                           capture_output=True, text=True, timeout=60, preexec_fn=pre)
        lines = p.stderr.strip().splitlines()
        if p.returncode != want or len(lines) != 1 or why not in lines[0] or \
                not lines[0].startswith("papi_run: "):
            fail("%s: exit status %d (expected %d), stderr %r" % (what, p.returncode, want, p.stderr))
        left = glob.glob(os.path.join(out, "papi_run_output*", "*")) + \
            glob.glob(os.path.join(out, "papi_run_output*", ".rank_*"))
        if left:
            fail("%s: files left: %s" % (what, left))
    print("unwritten: %d cases, exit status 1 or the program's, one line" % len(cases))


def case_machine_readable(papi_run, prog, out):
    """-x SEP and --json: perf stat's machine-readable lines on stdout in the banner's
    place (the program's own output, here none, comes before them) (perf stat -x: value, unit, event, running time, percentage running and two
    empty metric fields; -j: one object per line with its keys), holding the file's
    counts: each event's total and each -m metric."""
    events = [FAULTS, "perf::TASK-CLOCK", CS]
    for form in (["-x", ";"], ["--json"]):
        d_out = os.path.join(out, form[0].strip("-"))
        rc, so, err = run([papi_run] + form + ["-e", ",".join(events), "-m", "CPU_UTILIZATION",
                                               "-o", d_out, "--", prog, "2", "200", "50", "0"])
        if rc != 0:
            fail("%s: exit status %d\n%s" % (form, rc, err))
        if "counter-value" in err or ";perf::" in err:
            fail("%s: the machine-readable lines are on stderr, not stdout:\n%s" % (form, err))
        (d,) = report(d_out)
        rows = {}
        for line in so.splitlines():
            if form[0] == "-x":
                f = line.split(";")
                if len(f) != 7 or f[5:] != ["", ""]:
                    fail("-x ';': a line of %d fields: %r\n%s" % (len(f), line, err))
                rows[f[2]] = {"value": f[0], "unit": f[1], "runtime": int(f[3]), "pcnt": float(f[4])}
            else:
                o = json.loads(line)
                if sorted(o) != ["counter-value", "event", "event-runtime", "pcnt-running", "unit"]:
                    fail("--json: keys %s" % sorted(o))
                rows[o["event"]] = {"value": o["counter-value"], "unit": o["unit"],
                                    "runtime": o["event-runtime"], "pcnt": o["pcnt-running"]}
        if sorted(rows) != sorted(events + ["CPU_UTILIZATION"]):
            fail("%s: lines for %s\n%s" % (form, sorted(rows), err))
        total = d["process_totals"]
        for ev in events:
            r = rows[ev]
            v = float(r["value"]) * (1e6 if ev == "perf::TASK-CLOCK" else 1)
            if abs(v - total[ev]) > (1 if ev == "perf::TASK-CLOCK" else 0) or r["pcnt"] != 100.0:
                fail("%s %s: %r, the file %d" % (form, ev, r, total[ev]))
            if r["unit"] != ("msec" if ev == "perf::TASK-CLOCK" else "") or \
                    r["runtime"] != total["real_time_nsec"]:
                fail("%s %s: unit %r, running time %d (elapsed %d)" % (
                    form, ev, r["unit"], r["runtime"], total["real_time_nsec"]))
        m = d["metrics"]["process"]["CPU_UTILIZATION"]
        if abs(float(rows["CPU_UTILIZATION"]["value"]) - m) > 1e-5 * abs(m):
            fail("%s CPU_UTILIZATION %s, the file %s" % (form, rows["CPU_UTILIZATION"], m))
    for bad in (["-x", ""], ["-x", ",", "--json"], ["-x", "a\nb"]):
        rc, _, err = run([papi_run] + bad + ["--", prog, "0", "0", "0", "0"])
        if rc != 2 or not err.startswith("papi_run: "):
            fail("%s: exit status %d, %r" % (bad, rc, err))
    print("machine_readable: -x and --json lines hold the file's %d counts and the metric"
          % len(events))


LO_RX = "net:::lo:rx:bytes"


def case_mixed_components(papi_run, prog, out):
    """Events of two components (perf_event's page faults, net's loopback bytes): one
    event set each, both count. The program touches 1000 pages and receives 500 x 1000
    bytes over loopback UDP: >= 1000 faults (the program's own pages and its loader's) and
    lo rx >= the bytes received (the node's interface: IP and UDP headers and other
    traffic on top), in the banner, the file, the series, --per-thread's main-thread row,
    -x and --json lines. Before, the net event made papi_run fail (exit 2)."""
    if not os.path.exists("/sys/class/net/lo/statistics/rx_bytes"):
        print("SKIPPED: no loopback interface statistics here")
        sys.exit(77)
    events = [FAULTS, LO_RX]
    d_out = os.path.join(out, "plain")
    p = subprocess.run([papi_run, "--interval", "0.05", "-e", FAULTS, "-e", LO_RX, "-o", d_out,
                        "--", prog, "net", "1000", "500", "0.3"],
                       capture_output=True, text=True, timeout=120)
    if p.returncode == 77 and "SKIPPED" in p.stdout:
        print(p.stdout.strip())
        sys.exit(77)
    if p.returncode != 0 or "BYTES " not in p.stdout:
        fail("exit status %d\n%s%s" % (p.returncode, p.stdout, p.stderr))
    sent = int(p.stdout.split("BYTES ")[1].split()[0])
    (d,) = report(d_out)
    total = d["process_totals"]
    if sent != 500000 or total[FAULTS] < 1000 or total[LO_RX] < sent:
        fail("faults %d (>= 1000), lo rx %d (>= %d received)" % (total[FAULTS], total[LO_RX], sent))
    for ev in events:
        if "{:,}".format(total[ev]) + "       " + ev not in p.stderr:
            fail("the banner does not show %d %s:\n%s" % (total[ev], ev, p.stderr))
        s = sum(x[ev] for x in d["series"]["samples"])
        if s != total[ev]:
            fail("%s: the samples sum to %d, total %d" % (ev, s, total[ev]))
    comps = {ev: d["event_definitions"][ev]["component"] for ev in events}
    if comps != {FAULTS: "perf_event", LO_RX: "net"} or d["domain"][LO_RX] != "any":
        fail("components %s, domain %s" % (comps, d["domain"]))
    meta = {ev: (d["event_definitions"][ev].get("units"), d["event_definitions"][ev].get("scope"))
            for ev in events}
    if meta != {FAULTS: ("", "thread"), LO_RX: ("bytes", "device")}:
        fail("units and scope %s: the node's bytes are a device's (one figure for all)" % meta)
    (thread,) = d["threads"].values()
    if any(thread["regions"]["0"][ev] != total[ev] for ev in events):
        fail("the whole-program region %s differs from the totals %s" % (thread, total))
    print("mixed_components: %d faults, lo rx %d >= %d, %d samples summing to them"
          % (total[FAULTS], total[LO_RX], sent, len(d["series"]["samples"])))

    d_out = os.path.join(out, "per_thread")
    rc, so, err = run([papi_run, "--per-thread", "--quiet", "-e", ",".join(events), "-o", d_out,
                       "--", prog, "net", "1000", "500"])
    if rc != 0:
        fail("--per-thread: exit status %d\n%s" % (rc, err))
    (d,) = report(d_out)
    total = d["process_totals"]
    rows = d["threads"]
    main_row = rows.get(str(d["pid"]), {}).get("regions", {}).get("0", {})
    if len(rows) != 1 or main_row.get(LO_RX) != total[LO_RX] or total[LO_RX] < 500000 or \
            not 1000 <= main_row.get(FAULTS, 0) <= total[FAULTS]:
        fail("--per-thread rows %s, totals %s" % (rows, total))
    print("mixed_components: --per-thread main row %d faults, lo rx %d"
          % (main_row[FAULTS], main_row[LO_RX]))

    for form in (["-x", ";"], ["--json"]):
        d_out = os.path.join(out, form[0].strip("-"))
        rc, so, err = run([papi_run] + form + ["-e", ",".join(events), "-o", d_out, "--", prog,
                                               "net", "100", "50"])
        if rc != 0:
            fail("%s: exit status %d\n%s" % (form, rc, err))
        (d,) = report(d_out)
        got = {}
        for line in so.splitlines():  # after the program's own output
            if form[0] == "-x":
                f = line.split(";")
                if len(f) != 7:
                    continue
                got[f[2]] = float(f[0])
            else:
                if not line.startswith('{"counter-value"'):
                    continue
                o = json.loads(line)
                got[o["event"]] = float(o["counter-value"])
        want = {ev: float(d["process_totals"][ev]) for ev in events}
        if got != want or want[LO_RX] < 50000:
            fail("%s lines %s, the file %s" % (form, got, want))
    print("mixed_components: -x and --json lines hold both components' counts")


def case_bad_input(papi_run, prog, out):
    cases = [([], 2), (["--"], 2), (["-e", "NO_SUCH_EVENT", "--", prog], 2),
             (["-m", "NO_SUCH_METRIC", "--", prog], 2), (["--interval", "0", "--", prog], 2),
             (["--interval", "-1", "--", prog], 2), (["--interval", "nan", "--", prog], 2),
             (["--interval", "soon", "--", prog], 2),
             (["-o", "/proc/version/x", "--", prog], 2),
             (["--", os.path.join(out, "missing")], 127), (["--", "/dev/null"], 126)]
    for args, want in cases:
        rc, _, err = run([papi_run, "-o", out] + args if "-o" not in args else [papi_run] + args)
        first = err.strip().splitlines()[0] if err.strip() else ""
        if rc != want or not first.startswith("papi_run: "):
            fail("%s: exit status %d (expected %d), stderr %r" % (args, rc, want, err))
    if glob.glob(os.path.join(out, "papi_run_output", "*.json")):
        fail("a report was written for bad input")
    print("bad_input: %d cases, no file" % len(cases))


def case_not_a_program(papi_run, prog, out):
    """Files a shell cannot run: one line naming the file and why, 126 (found, cannot be
    executed) or 127 (not found), never a signal, never a hang (a FIFO is not opened)."""
    d = os.path.join(out, "files")
    os.mkdir(d)
    os.mkdir(os.path.join(d, "somedir"))
    os.mkfifo(os.path.join(d, "fifo"))
    with open(os.path.join(d, "text"), "w") as f:  # readable, mode 0644: not executable
        f.write("#!/bin/sh\nexit 0\n")
    with open(os.path.join(d, "noexec.sh"), "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(os.path.join(d, "noexec.sh"), 0o600)
    with open(os.path.join(d, "badinterp"), "w") as f:  # exec fails: ENOENT for its interpreter
        f.write("#!/no/such/interpreter\n")
    os.chmod(os.path.join(d, "badinterp"), 0o755)
    cases = [("./somedir", 126, "Is a directory"), ("./fifo", 126, "a FIFO"),
             ("/dev/null", 126, "a device"), ("./text", 126, "Permission denied"),
             ("./noexec.sh", 126, "Permission denied"), ("./text/x", 126, "Not a directory"),
             ("./missing", 127, "No such file"), ("no_such_program_on_path", 127, "No such file"),
             ("./badinterp", 127, "No such file")]
    for name, want, why in cases:
        try:
            p = subprocess.run([papi_run, "-o", out, "--", name], capture_output=True, text=True,
                               timeout=20, cwd=d)
        except subprocess.TimeoutExpired:
            fail("%s: papi_run hung" % name)
        lines = p.stderr.strip().splitlines()
        if p.returncode < 0 or p.returncode != want:
            fail("%s: exit status %d, expected %d: %r" % (name, p.returncode, want, p.stderr))
        if len(lines) != 1 or not lines[0].startswith("papi_run: %s: " % name) or why not in lines[0]:
            fail("%s: expected one line 'papi_run: %s: ...%s...', got %r" % (name, name, why, p.stderr))
    if glob.glob(os.path.join(out, "papi_run_output", "*.json")):
        fail("a report was written for a program that did not run")
    print("not_a_program: %d files, each one line and 126/127" % len(cases))
    # Execute-only files (mode 0711), as a user who cannot read them (root reads all): as
    # from a shell, a program runs (with a note: its file was not looked into) and a script
    # is exec'd, whose interpreter then cannot read it and fails (its status, as a shell's).
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        print("not_a_program: execute-only files not tried (needs root and setpriv)")
        return
    shutil.copy(prog, os.path.join(d, "xonly"))
    os.chmod(os.path.join(d, "xonly"), 0o711)
    with open(os.path.join(d, "xonly.sh"), "w") as f:
        f.write("#!/bin/sh\nexit 0\n")
    os.chmod(os.path.join(d, "xonly.sh"), 0o711)
    for p in (out, d):
        os.chmod(p, 0o755)
    w = os.path.join(out, "w")
    os.mkdir(w)
    os.chmod(w, 0o777)
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", papi_run, "-o", w, "--"]
    p = subprocess.run(nobody + ["./xonly", "0", "0", "0", "5"], capture_output=True, text=True,
                       timeout=30, cwd=d)
    if p.returncode != 5 or "cannot be read" not in p.stderr:
        fail("execute-only program as nobody: exit status %d, %r" % (p.returncode, p.stderr))
    p = subprocess.run(nobody + ["./xonly.sh"], capture_output=True, text=True, timeout=30, cwd=d)
    sh = subprocess.run(nobody[:4] + ["sh", "-c", "./xonly.sh"], capture_output=True, timeout=30,
                        cwd=d)
    if p.returncode != sh.returncode or p.returncode in (0, 126, 127) or "Permission denied" not in p.stderr:
        fail("execute-only script as nobody: exit status %d (a shell's %d), %r"
             % (p.returncode, sh.returncode, p.stderr))
    print("not_a_program: an execute-only program runs (status 5, noted), a script fails as "
          "from a shell (%d)" % sh.returncode)


CS = "perf::CONTEXT-SWITCHES"


def case_context_switches(papi_run, prog, out):
    """The default events on a program sleeping 20 x 1 ms: each sleep is a context switch,
    which happens in the kernel: counted in user and kernel mode (as perf stat) it is at
    least 20, in the banner and the file (it was 0: counted in user mode only)."""
    rc, _, err = run([papi_run, "-o", out, "--", prog, "sleeps", "20"])
    if rc != 0:
        fail("exit status %d\n%s" % (rc, err))
    (d,) = report(out)
    n = d["process_totals"].get(CS)
    if not isinstance(n, int) or n < 20:
        fail("%s: %r in the file, expected >= 20 (20 sleeps)\n%s" % (CS, n, err))
    line = [l for l in err.splitlines() if l.strip().endswith(CS)]
    if len(line) != 1 or line[0].split()[0].replace(",", "") != str(n):
        fail("the banner's %s line %r does not show the file's %d" % (CS, line, n))
    if d["domain"].get(CS) != "user+kernel" or d["domain"].get(FAULTS) != "user+kernel":
        fail("domain %r" % d["domain"])
    print("context_switches: %d for 20 sleeps, banner and file agree, domain %s" % (n, d["domain"]))


def case_context_switches_unprivileged(papi_run, prog, out):
    """As an unprivileged user at kernel.perf_event_paranoid >= 2 kernel mode cannot be
    counted: the default context switches are left out and the note says why (never a 0
    printed as a count); -e perf::CONTEXT-SWITCHES is refused (exit 2, one line)."""
    try:
        level = int(open("/proc/sys/kernel/perf_event_paranoid").read())
    except (OSError, ValueError):
        level = -1
    if os.geteuid() != 0 or level < 2 or not shutil.which("setpriv"):
        print("SKIPPED: needs root (to become nobody with setpriv) and perf_event_paranoid >= 2")
        sys.exit(77)
    os.chmod(out, 0o777)
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    rc, _, err = run(nobody + [papi_run, "-o", out, "--", prog, "sleeps", "5"])
    if rc != 0:
        if "Permission denied" in err and "papi_run" in err.splitlines()[0]:
            print("SKIPPED: user nobody cannot run the build tree's papi_run: " + err)
            sys.exit(77)
        fail("as nobody: exit status %d\n%s" % (rc, err))
    (d,) = report(out)
    if CS in d["process_totals"] or any(l.strip().endswith(CS) for l in err.splitlines()):
        fail("as nobody %s is counted (user mode only: always 0):\n%s" % (CS, err))
    want = "%s not counted: kernel.perf_event_paranoid is %d" % (CS, level)
    if want not in d["note"] or want not in err:
        fail("the note does not say %r: %r\n%s" % (want, d["note"], err))
    if d["domain"].get(FAULTS) != "user":
        fail("as nobody the page faults' domain is %r" % d["domain"].get(FAULTS))
    rc, _, err = run(nobody + [papi_run, "-e", CS, "-o", out, "--", prog, "sleeps", "5"])
    if rc != 2 or len(err.strip().splitlines()) != 1 or "only in the kernel" not in err:
        fail("as nobody -e %s: exit status %d, %r" % (CS, rc, err))
    print("context_switches_unprivileged: left out with the note %r; -e refused" % want)


RUN_KEYS = ["command", "cpu", "host", "id", "start", "version"]


def run_files(d):
    return sorted(glob.glob(os.path.join(d, "rank_*.json")))


def findable_runs(d, why):
    """The run ids of every file under d: in papi_run_output or in a directory an earlier
    run's was set aside as (papi_run_output-YYYYMMDD-HHMMSS, then -2 ... -9); nothing else
    there."""
    ids = []
    for name in sorted(os.listdir(d)):
        if not re.fullmatch(r"papi_run_output(-\d{8}-\d{6}(-[2-9])?)?", name):
            fail("%s: %s/%s is not a papi_run_output directory" % (why, d, name))
        for f in run_files(os.path.join(d, name)):
            ids.append(json.load(open(f))["run"]["id"])
    return ids


def case_runs_in_turn(papi_run, out):
    """Runs into one -o one after the other, and pairs started together that end 0.1 s and
    1 s later (the short one gone before the long one writes its file): every run leaves
    its file under -o, in papi_run_output or where an earlier run's was set aside."""
    d = os.path.join(out, "turns")
    base = [papi_run, "--quiet", "-e", FAULTS, "-o", d, "--"]
    runs = 0
    for _ in range(3):  # back to back, as a script runs them
        for prog in (["sleep", "0.1"], ["true"]):
            rc, _, err = run(base + prog)
            runs += 1
            if rc != 0:
                fail("back-to-back run %d: exit status %d: %s" % (runs, rc, err))
    ids = findable_runs(d, "back to back")
    if len(ids) != runs or len(set(ids)) != runs:
        fail("%d back-to-back runs: %d files, %d run ids under %s" % (runs, len(ids),
                                                                      len(set(ids)), d))
    for _ in range(3):  # together, of different lengths
        ps = [subprocess.Popen(base + ["sleep", t]) for t in ("0.1", "1")]
        runs += 2
        if [p.wait(timeout=60) for p in ps] != [0, 0]:
            fail("runs started together failed")
    ids = findable_runs(d, "started together")
    if len(ids) != runs or len(set(ids)) != runs:
        fail("%d runs (6 in turn, 3 pairs together): %d files, %d run ids under %s: %s"
             % (runs, len(ids), len(set(ids)), d, sorted(os.listdir(d))))
    print("runs: %d back to back or started together (0.1 s and 1 s): %d files under -o, "
          "in %d directories" % (runs, len(ids), len(os.listdir(d))))


def case_runs(papi_run, prog, out):
    """One run, one file no other run can overwrite or move. A (1.5 s) runs while C and
    then B run to their end in the same -o: three files, three run ids, one directory (a
    directory in use is never set aside, though it holds C's file when B starts). Then E
    sets the three aside (papi_run_output-YYYYMMDD-HHMMSS) and is alone. Two concurrent
    runs of one program leave two files, and papi_report reports one run of them, saying
    so, never the two as ranks of one job. Runs in turn: case_runs_in_turn."""
    base = [papi_run, "--quiet", "-e", FAULTS, "-o", out, "--"]
    a = subprocess.Popen(base + ["sleep", "1.5"])
    time.sleep(0.3)
    for _ in range(2):  # C, then B
        rc, _, err = run(base + [prog, "1", "10", "10", "0"])
        if rc != 0:
            fail("exit status %d: %s" % (rc, err))
    if a.wait(timeout=30) != 0:
        fail("A failed")
    d = os.path.join(out, "papi_run_output")
    files = [json.load(open(f)) for f in run_files(d)]
    ids = {x["run"]["id"] for x in files}
    if len(files) != 3 or len(ids) != 3 or glob.glob(d + "-*"):
        fail("A, B, C: %d files, %d run ids, set aside %s" % (len(files), len(ids), glob.glob(d + "-*")))
    for f in run_files(d):
        x = json.load(open(f))
        if sorted(x["run"]) != RUN_KEYS or x["run"]["id"] not in os.path.basename(f):
            fail("%s: run header %r" % (f, x["run"]))
        if not x["run"]["start"].endswith("Z") or x["run"]["version"] != x["papi_compat_version"]:
            fail("%s: run header %r" % (f, x["run"]))
    rc, _, err = run(base + ["true"])
    aside = glob.glob(d + "-*")
    if rc != 0 or len(aside) != 1 or len(run_files(aside[0])) != 3 or len(run_files(d)) != 1:
        fail("E: the earlier runs' directory not set aside whole: %s %s" % (aside, run_files(d)))
    # two at once, the same program: two files
    conc = os.path.join(out, "conc")
    # Each program starts its work only once both have started, so the two runs overlap
    # however late a loaded machine starts the second (a run that starts after the other
    # ended rightly sets its directory aside).
    gate = os.path.join(out, "gate")
    os.makedirs(gate)
    script = ('touch "$1/$$"; n=0; while [ "$(ls "$1" | wc -l)" -lt 2 ] && [ $n -lt 600 ]; '
              'do sleep 0.05; n=$((n+1)); done; shift; exec "$@"')
    cmd = [papi_run, "--quiet", "-e", FAULTS, "-o", conc, "--", "sh", "-c", script, "sh", gate,
           prog, "1", "300", "10", "0"]
    ps = [subprocess.Popen(cmd) for _ in range(2)]
    if [p.wait(timeout=60) for p in ps] != [0, 0]:
        fail("concurrent runs failed")
    files = run_files(os.path.join(conc, "papi_run_output"))
    if len(files) != 2:
        fail("two concurrent runs left %d files: %s" % (len(files), files))
    runs = {json.load(open(f))["run"]["id"]: json.load(open(f)) for f in files}
    print("runs: 3 concurrent in one directory, set aside by the next; 2 at once: 2 files")
    case_runs_in_turn(papi_run, out)
    if not REPORT:
        return
    newest = max(runs, key=lambda r: (runs[r]["run"]["start"], os.path.getmtime(
        [f for f in files if r in f][0])))
    for pick in [None, min(runs, key=lambda r: r == newest)]:  # the default, then the other
        rep = os.path.join(out, "rep")
        rc, so, err = run(REPORT + ["--regions", os.path.join(conc, "papi_run_output"), "-o", rep]
                          + (["--run", pick] if pick else []))
        want = pick or newest
        if rc != 0:
            fail("papi_report: exit status %d\n%s%s" % (rc, so, err))
        if pick is None and ("hold 2 runs" not in err or "reporting the newest, " + newest not in err):
            fail("papi_report did not say it reports the newest of 2 runs:\n%s" % err)
        import csv
        with open(os.path.join(rep, "region_tree.csv")) as f:
            (row,) = list(csv.DictReader(f))
        faults = runs[want]["process_totals"][FAULTS]
        if int(row["region_count"]) != 1 or int(row[FAULTS]) != faults:
            fail("papi_report --run %s: region_count %s, %s %s (the run's own: 1, %d)"
                 % (pick, row["region_count"], FAULTS, row[FAULTS], faults))
    print("runs: papi_report reports one run (the newest, or --run ID), never the two as ranks")


def case_regions(papi_run, prog, out):
    """A program of its own using the region API (hl_omp_regions: 2 threads x 1000 pages)
    under papi_run --per-thread: both count, neither disturbs the other. --no-libomp: the
    program keeps libgomp, so no OMPT tool runs in it (its own pages, touched as a late
    worker begins, would be faults of the region's all-thread total: tests/ompt)."""
    env = dict(os.environ, PAPI_EVENTS=FAULTS, PAPI_OUTPUT_DIRECTORY=out)
    rc, _, err = run([papi_run, "--quiet", "--per-thread", "--no-libomp", "-e", FAULTS, "-o", out, "--", prog,
                      "2", "1000", "1"], env=env)
    if rc != 0:
        fail("the program's regions failed under papi_run --per-thread (%d): %s" % (rc, err))
    (d,) = report(out)
    rows = sorted(t["regions"]["0"][FAULTS] for t in d["threads"].values())
    (hl,) = glob.glob(os.path.join(out, "papi_hl_output", "rank_*.json"))
    hl = json.load(open(hl))
    # the program's region file names papi_run's run (PAPI_RUN_ID), with its own header
    if hl["run"]["id"] != d["run"]["id"] or sorted(hl["run"]) != RUN_KEYS or \
            hl["run"]["command"] != " ".join([prog, "2", "1000", "1"]) or not hl["run"]["cpu"]:
        fail("the region file's run %r, papi_run's %r" % (hl["run"], d["run"]))
    (mine,) = hl["all_threads"].values()
    if mine["regions"]["work"][FAULTS] != 2000 or len(rows) != 2 or rows[0] < 1000:
        fail("region all-thread %s, papi_run rows %s" % (mine["regions"], rows))
    print("regions: the program's region 2000 over all threads, papi_run rows %s" % rows)


def case_mpi(papi_run, prog, out, mpirun, np):
    cmd = [mpirun, "-np", np, papi_run, "--quiet", "-e", FAULTS, "-o", out, "--", prog]
    rc, so, err = run(cmd)
    if rc != 0:
        fail("%s: exit status %d\n%s%s" % (" ".join(cmd), rc, so, err))
    ranks = report(out, int(np))
    if sorted(d["rank"] for d in ranks) != list(range(int(np))):
        fail("the files' ranks are %s" % [d["rank"] for d in ranks])
    ids = {d["run"]["id"] for d in ranks}  # one job, one run id (from the launcher)
    if len(ids) != 1 or not all(d["run"]["command"] == prog for d in ranks):
        fail("the ranks' run headers: %s" % [d["run"] for d in ranks])
    for d in ranks:  # rank r touches (r + 1) x 1000 pages (mpi_touch.c)
        if d["process_totals"][FAULTS] < (d["rank"] + 1) * 1000 or not d["mpi"]:
            fail("rank %d: %d page faults, mpi %r" % (d["rank"], d["process_totals"][FAULTS],
                                                     d["mpi"]))
    rep = json.load(open(os.path.join(out, "papi_mpi_report.json")))
    text = json.dumps(rep)
    if FAULTS not in text:
        fail("the MPI report carries no %s" % FAULTS)
    vals = {r["rank"]: r["counters"].get(FAULTS) for r in rep["ranks"]}
    for r in range(int(np)):
        if not isinstance(vals.get(r), int) or vals[r] < (r + 1) * 1000:
            fail("the MPI report's rank %d: %s page faults" % (r, vals.get(r)))
    print("mpi: %s ranks, files and per-rank rows %s" % (np, vals))


def case_hl_mpi(papi_run, prog, out, mpirun, np):
    """The region API's files carry the run header too: under MPIRUN -np NP (no papi_run)
    every rank's file names the same run, taken from the launcher (hydra's proxy, Open
    MPI's job), and a second mpirun is another run."""
    ids = []
    for k in range(2):
        d = os.path.join(out, str(k))
        env = dict(os.environ, PAPI_EVENTS=FAULTS, PAPI_OUTPUT_DIRECTORY=d)
        env.pop("PAPI_RUN_ID", None)
        rc, so, err = run([mpirun, "-np", np, prog, "1", "100", "1"], env=env)
        if rc != 0:
            fail("%s: exit status %d\n%s%s" % (mpirun, rc, so, err))
        files = [json.load(open(f)) for f in run_files(os.path.join(d, "papi_hl_output"))]
        runs = {x["run"]["id"] for x in files}
        if len(files) != int(np) or len(runs) != 1 or any(sorted(x["run"]) != RUN_KEYS for x in files):
            fail("%d region files, runs %s" % (len(files), runs))
        ids += runs
    if ids[0] == ids[1] or not all(i.startswith(("hydra-", "pmix-", "ompi-")) for i in ids):
        fail("two mpiruns: run ids %s" % ids)
    print("hl_mpi: %s ranks share one run id per mpirun: %s" % (np, ids))


def main():
    case, papi_run, prog = sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="papi_run_test.") as out:
        if case in ("mpi", "hl_mpi"):
            globals()["case_" + case](papi_run, prog, out, sys.argv[4], sys.argv[5])
        else:
            globals()["case_" + case](papi_run, prog, out)


if __name__ == "__main__":
    main()

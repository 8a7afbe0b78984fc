#!/usr/bin/env python3
"""Hostile conditions for the region report (issue 18): a symlink planted at the report's
name, another user's output directory, a full disk (RLIMIT_FSIZE), an overlong
PAPI_OUTPUT_DIRECTORY and PAPI_EVENTS, bytes that are not UTF-8, threads still in regions
at exit, and PAPI_shutdown + PAPI_library_init between regions."""
import glob
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402 (every report this test writes is checked: schema/README.md)
from checks import check, verdict  # noqa: E402

report_check.guard()

EXE = sys.argv[1]


def run(args, out, extra=None, preexec=None):
    env = dict(os.environ)
    for k in ("PAPI_EVENTS", "PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID",
              "MPI_LOCALRANKID", "PAPI_REPORT"):
        env.pop(k, None)
    env.update({"PAPI_OUTPUT_DIRECTORY": out, "PMI_RANK": "0", "PAPI_EVENTS": "perf::PAGE-FAULTS"})
    env.update(extra or {})
    return subprocess.run([EXE] + args, env=env, capture_output=True, timeout=120,
                          preexec_fn=preexec)


def report(out):
    with open(os.path.join(out, "papi_hl_output", "rank_000000.json"), "rb") as f:
        return json.loads(f.read().decode("utf-8"))  # strict: invalid UTF-8 fails here


def regions(rep):
    return {r["name"]: r for t in rep["threads"].values() for r in t["regions"].values()}


def symlink_planted(top):
    out = os.path.join(top, "sym")
    os.makedirs(os.path.join(out, "papi_hl_output"))
    victim = os.path.join(top, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")
    link = os.path.join(out, "papi_hl_output", "rank_000000.json")
    os.symlink(victim, link)
    p = run(["simple"], out)
    check(p.returncode == 0, "symlink: exit %d %s" % (p.returncode, p.stderr))
    with open(victim) as f:
        check(f.read() == "precious\n", "symlink: the planted link's target was overwritten")
    check(not os.path.islink(link) and regions(report(out))["r"]["perf::PAGE-FAULTS"] == 10,
          "symlink: the report did not replace the link")


def other_users_dir(top):
    if os.geteuid() != 0:
        print("note: not root: other-user directory case not run")
        return
    out = os.path.join(top, "theirs")
    d = os.path.join(out, "papi_hl_output")
    os.makedirs(d)
    os.chmod(d, 0o777)
    os.chown(d, 65534, 65534)
    p = run(["simple"], out)
    err = p.stderr.decode()
    check(p.returncode != 0, "other user's directory: exit status 0")
    check(d in err and "65534" in err, "other user's directory not named: %s" % err)
    check(os.listdir(d) == [], "other user's directory: files written %s" % os.listdir(d))


def disk_full(top):
    out = os.path.join(top, "full")
    p = run(["simple"], out)
    check(p.returncode == 0, "disk full: first run exit %d" % p.returncode)
    path = os.path.join(out, "papi_hl_output", "rank_000000.json")
    with open(path, "rb") as f:
        before = f.read()

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
    p = run(["simple"], out, preexec=limit)
    err = p.stderr.decode()
    check(p.returncode != 0, "disk full: exit status 0")
    check("nothing was published" in err, "disk full: no message: %s" % err)
    with open(path, "rb") as f:
        check(f.read() == before, "disk full: the previous report changed")
    check(os.listdir(os.path.dirname(path)) == ["rank_000000.json"],
          "disk full: left %s" % os.listdir(os.path.dirname(path)))


def overlong(top):
    out = os.path.join(top, "long", "x" * 200, "y" * 200)
    deep = out + ("/" + "z" * 250) * 20  # about 5400 bytes
    p = run(["simple"], deep)
    err = p.stderr.decode()
    check(p.returncode != 0 and "PAPI_OUTPUT_DIRECTORY" in err,
          "overlong PAPI_OUTPUT_DIRECTORY: exit %d, %s" % (p.returncode, err))
    check(not glob.glob(os.path.join(top, "long", "**", "rank_*.json"), recursive=True),
          "overlong PAPI_OUTPUT_DIRECTORY: a report was written somewhere")
    # PAPI_EVENTS past 1023 characters: the entry at the old cut keeps its ":u", and 40
    # unknown entries (far past 2048 bytes of reasons) are all listed.
    unknown = ",".join("NO_SUCH_EVENT_%02d" % i for i in range(40))
    head = "perf::PAGE-FAULTS,"
    events = head + " " * (1007 - len(head)) + "perf::TASK-CLOCK:u," + unknown
    out = os.path.join(top, "events")
    p = run(["simple"], out, {"PAPI_EVENTS": events})
    check(p.returncode == 0, "long PAPI_EVENTS: exit %d %s" % (p.returncode, p.stderr))
    rep = report(out)
    check(list(rep["event_definitions"]) == ["perf::PAGE-FAULTS", "perf::TASK-CLOCK:u"],
          "long PAPI_EVENTS: events %s" % list(rep["event_definitions"]))
    names = [s["name"] for s in rep["skipped_events"]]
    check(names == ["NO_SUCH_EVENT_%02d" % i for i in range(40)],
          "long PAPI_EVENTS: %d skipped entries listed, want 40" % len(names))


def bad_bytes(top):
    out = os.path.join(top, "bytes")
    p = run(["bytes"], out, {"PAPI_EVENTS": "perf::PAGE-FAULTS,BAD\xff".encode("latin-1")
                              .decode("utf-8", "surrogateescape")})
    check(p.returncode == 0, "bytes: exit %d %s" % (p.returncode, p.stderr))
    rep = report(out)
    names = list(regions(rep))
    check(names == ["bad \ufffd\ufffd name \ufffd"], "bytes: region names %s" % names)
    check([s["name"] for s in rep["skipped_events"]] == ["BAD\ufffd"],
          "bytes: skipped %s" % rep["skipped_events"])


def exit_race(top):
    for i in range(5):
        out = os.path.join(top, "race%d" % i)
        p = run(["exit-race"], out, {"PAPI_REPORT": "1"})
        check(p.returncode == 0, "exit-race run %d: exit %d %s" % (i, p.returncode, p.stderr[-500:]))
        if p.returncode == 0:
            rep = report(out)
            check(len(rep["threads"]) >= 2, "exit-race: threads %d" % len(rep["threads"]))


def reinit(top):
    out = os.path.join(top, "reinit")
    p = run(["reinit"], out)
    sys.stdout.write(p.stdout.decode())
    check(p.returncode == 0, "reinit: exit %d %s" % (p.returncode, p.stderr.decode()))
    if p.returncode == 0:
        r = regions(report(out))
        check(r["before"]["perf::PAGE-FAULTS"] == 10 and r["after"]["perf::PAGE-FAULTS"] == 20,
              "reinit: before %s after %s" % (r["before"], r["after"]))


def main():
    top = tempfile.mkdtemp(prefix="hl_hostile_")
    try:
        for case in (symlink_planted, other_users_dir, disk_full, overlong, bad_bytes,
                     exit_race, reinit):
            case(top)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return verdict("check_hl_hostile")


if __name__ == "__main__":
    sys.exit(main())

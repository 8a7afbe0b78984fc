#!/usr/bin/env python3
"""Run mpi_faults.c in one mode under the wrapper library (a timeout: a hang fails) and
check what the wrapper left: a row for a rank that died (no hang inside malloc, chained
signal handlers), counts that survive the program's PAPI_shutdown, strict UTF-8 JSON,
no truncated report on a full disk (RLIMIT_FSIZE, or a full tmpfs: the job's exit
status 74, the lines saying what was not written, the wait states' still in the banner)
nor without a directory (nodir: the same, every rank's wait report part still taken), no report of an earlier run taken for this one, no
symlink followed, long directory names whole, PAPI_MPI_EVENTS whole or rejected, no
temporary left by a SIGKILL that lands while a checkpoint is being replaced.
Usage: check_faults.py --mpirun M --collect C --program P MODE"""
import argparse
import csv
import glob
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from mpi_check import check, verdict, wait_ranks_gone


def run(args, out, mode, np=2, env_extra=None, cwd=None):
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out)
    env.update(env_extra or {})
    try:
        p = subprocess.run([args.mpirun, "-np", str(np), args.program, mode], env=env, cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    except subprocess.TimeoutExpired as e:
        check(False, f"{mode}: the job ended within 60 s (it hung)")
        print((e.stdout or b"").decode("utf-8", "replace"))
        return None, ""
    text = p.stdout.decode("utf-8", "replace")
    print(text)
    wait_ranks_gone(out)
    return p.returncode, text


def load_strict(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8", "strict"))


def collect(args, out, np=2):
    c = subprocess.run([sys.executable, args.collect, out, "--np", str(np)],
                       stdout=subprocess.PIPE, text=True, check=True)
    print("collector:", c.stdout.strip())
    return json.loads(c.stdout)


def died(args, out, mode, sig, rc_want=None, np=2):
    rc, text = run(args, out, mode, np=np)
    if rc is None:
        return text
    check(rc != 0 if rc_want is None else rc == rc_want, f"{mode}: exit status {rc}")
    path = os.path.join(out, "papi_mpi_rank0.partial.json")
    check(os.path.exists(path), f"{mode}: rank 0 left its row")
    if os.path.exists(path):
        row = load_strict(path)
        check(row["exit_reason"] == f"signal {sig}", f"{mode}: reason {row['exit_reason']}")
        check(row["calls"]["MPI_Barrier"]["calls"] == 3, f"{mode}: 3 barriers counted")
    check(not glob.glob(os.path.join(out, ".*")), f"{mode}: no temporary left")
    check(not os.path.exists(os.path.join(out, "papi_mpi_report.json")), f"{mode}: no report")
    summary = collect(args, out, np)
    check(summary["finished"] == [] and 0 in [r["rank"] for r in summary["partial"]],
          f"{mode}: collector says rank 0 died with a row")
    return text


KILL_ROUNDS = 12


def kill9_round(args, out, rng):
    """Rank 0 checkpoints every millisecond; SIGKILL it at a random instant once its first
    snapshot is on disk. Returns which of its rows remained, or None."""
    env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out, PAPI_MPI_CHECKPOINT="0.001")
    p = subprocess.Popen([args.mpirun, "-np", "2", args.program, "kill9"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    watchdog = threading.Timer(60, p.kill)  # a hang fails instead of blocking ctest
    watchdog.start()
    try:
        pid, seen = None, []
        for raw in p.stdout:
            line = raw.decode("utf-8", "replace")
            seen.append(line)
            if line.startswith("mpi_faults: pid "):
                pid = int(line.split()[2])
                break
        check(pid is not None, "kill9: rank 0 printed its pid: " + "".join(seen)[-800:])
        if pid is None:
            return None
        # The snapshot is under one of its two names (a new one moves the last aside).
        snaps = [os.path.join(out, "papi_mpi_rank0.checkpoint%s.json" % s) for s in ("", ".prev")]
        t0, written = time.monotonic(), False
        while not written and time.monotonic() - t0 < 30:
            written = any(os.path.exists(f) for f in snaps)
            time.sleep(0.001)
        check(written, "kill9: rank 0 wrote a first snapshot within 30 s")
        time.sleep(rng.uniform(0, 0.05))
        os.kill(pid, signal.SIGKILL)
        rest = p.stdout.read().decode("utf-8", "replace")
        p.wait()
    finally:
        watchdog.cancel()
    wait_ranks_gone(out)
    check(p.returncode != 0, f"kill9: the job ends non-zero ({p.returncode})")
    left = [f for f in os.listdir(out) if f.startswith(".")]
    check(not left, f"kill9: no temporary left: {left}")
    rows = [f for f in ("papi_mpi_rank0.checkpoint.json", "papi_mpi_rank0.checkpoint.prev.json")
            if os.path.exists(os.path.join(out, f))]
    check(rows != [], "kill9: rank 0's last snapshot (or the one before) is on disk: "
          + str(os.listdir(out)) + rest[-400:])
    for f in rows:
        row = load_strict(os.path.join(out, f))
        check(row["rank"] == 0 and row["exit_reason"] == "checkpoint" and row["finished"] is False,
              f"kill9: {f} is a whole snapshot of rank 0")
    summary = collect(args, out)
    check(0 in [r["rank"] for r in summary["partial"]], "kill9: collector has rank 0's snapshot")
    return rows


def report_not_written(rc, text, what):
    """The report failed (a full disk): MPI_Finalize returned MPI_SUCCESS (the program,
    which checks it, returned 0), yet the job fails with the wrapper's status 74; the
    lines say what was not written, none that the report was."""
    check(rc == 74, f"{what}: the job's exit status 74 (EX_IOERR), not 0 ({rc})")
    check("MPI_Finalize reported an error" not in text, f"{what}: MPI_Finalize returned MPI_SUCCESS")
    check("FAILED to write the report" in text and "exit status 0 becomes 74" in text,
          f"{what}: the FAILED line says the report is not published and the exit status")
    lines = [l for l in text.splitlines() if "PAPI_MPI_TRACE" in l or "wrote the trace" in l]
    check(len(lines) == 1 and ("no trace; the report was not written either" in lines[0] or
                               "the report was not written (FAILED" in lines[0]),
          f"{what}: one trace line saying the report was not written either: {lines}")
    check("report is still written" not in text, f"{what}: no line says the report is written")
    # the wait report's parts come with the rows: rank 0 takes every rank's all the same
    check("papi_mpi: wait states (all ranks, s):" in text and "papi_mpi: POP:" in text,
          f"{what}: the banner still has the wait states and POP lines")


def full_disk(args):
    """A tmpfs of 256 KiB filled to its last block (root, which may mount): the report
    and the trace fail to be written under both MPIs, as on a real full disk."""
    if os.geteuid() != 0:
        print("SKIPPED: mounting a small tmpfs needs root")
        sys.exit(77)
    mnt = tempfile.mkdtemp(prefix="papi_mpi_full_")
    m = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", mnt],
                       capture_output=True, text=True)
    if m.returncode != 0:
        os.rmdir(mnt)
        print(f"SKIPPED: cannot mount a tmpfs here: {m.stderr.strip()}")
        sys.exit(77)
    try:
        out = os.path.join(mnt, "out")
        os.mkdir(out)
        try:
            with open(os.path.join(mnt, "filler"), "wb") as f:
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
        except OSError:
            pass
        rc, text = run(args, out, "utf8", env_extra={"PAPI_MPI_TRACE": "json"})
        report_not_written(rc, text, "fulldisk")
        check(not os.path.exists(os.path.join(out, "papi_mpi_report.json")),
              "fulldisk: no report published")
    finally:
        subprocess.run(["umount", mnt])
        os.rmdir(mnt)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--collect", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("mode")
    args = ap.parse_args()
    out = tempfile.mkdtemp(prefix="papi_mpi_fault_")
    try:
        mode = args.mode
        if mode == "heap":
            died(args, out, "heap", 6)
        elif mode == "term":
            died(args, out, "term", 15)
        elif mode == "segv":
            died(args, out, "segv", 11)
        elif mode == "chain":
            # The old handler's line proves it ran (it then _exits 42); the launcher's
            # status is not asked to be 42: with two ranks Hydra may report rank 1's first
            # (its MPI_Barrier fails when rank 0 dies: exit 1), and even with one, in a
            # loaded CI run, Hydra once said "BAD TERMINATION ... EXIT CODE: 1" for a rank
            # that had printed the handler's line.
            text = died(args, out, "chain", 11, np=1)
            check("the program's own SIGSEGV handler ran" in text, "chain: the old handler ran")
        elif mode == "shutdown":
            rc, _ = run(args, out, "shutdown")
            check(rc == 0, "shutdown: the run succeeded")
            rep = load_strict(os.path.join(out, "papi_mpi_report.json"))
            for r in rep["ranks"]:
                check("PAPI_shutdown" in r.get("counter_note", ""), f"rank {r['rank']}: note")
                pf = r["counters"].get("perf::PAGE-FAULTS")
                check(pf is None or pf >= 50, f"rank {r['rank']}: page faults {pf} >= 50 kept")
        elif mode == "utf8":
            rc, _ = run(args, out, "utf8")
            rep = load_strict(os.path.join(out, "papi_mpi_report.json"))
            want = "bad \"quoted\" \\ a,b;c"
            for r in rep["ranks"]:
                check(list(r["regions"]) == [want], f"rank {r['rank']}: region name {list(r['regions'])}")
            with open(os.path.join(out, "papi_mpi_summary.csv"), "rb") as f:
                rows = list(csv.reader(io.StringIO(f.read().decode("utf-8", "strict"))))
            check(len(rows) == 3, "CSV: header and 2 rows")
        elif mode == "pcontrol":
            rc, text = run(args, out, "pcontrol", env_extra={"PAPI_MPI_CHECKPOINT": "0.001"})
            if "SKIPPED" in text:
                return 77
            rep = load_strict(os.path.join(out, "papi_mpi_report.json"))
            for r in rep["ranks"]:
                got = {k: v["entries"] for k, v in r["regions"].items()}
                check(got == {f"t{k}": 200 for k in range(8)},
                      f"rank {r['rank']}: 8 regions of 200 entries: {got}")
                check(r["calls"]["MPI_Pcontrol"]["calls"] == 8 * 400, "rank: 3200 MPI_Pcontrol")
        elif mode == "ipm":
            rc, text = run(args, out, "ipm")
            check(rc == 0, f"ipm: exit status {rc}")
            rep = load_strict(os.path.join(out, "papi_mpi_report.json"))
            for r in rep["ranks"]:
                regs = r["regions"]
                got = {k: (v["entries"], v["mpi_calls"]) for k, v in regs.items()}
                check(got == {"solve": (2, 2), "io": (1, 1)},
                      f"rank {r['rank']}: IPM regions solve (2 entries, 2 MPI calls) and io "
                      f"(1, 1): {got}")
                check(r["calls"]["MPI_Barrier"]["calls"] == 5,
                      f"rank {r['rank']}: 5 barriers recorded (one paused): "
                      f"{r['calls']['MPI_Barrier']['calls']}")
                check(r["calls"]["MPI_Pcontrol"]["calls"] == 11,
                      f"rank {r['rank']}: 11 MPI_Pcontrol: {r['calls']['MPI_Pcontrol']['calls']}")
            said = text.count("MPI_Pcontrol(-1) without a region name")
            check(said == 2, f"ipm: -1 without a name said once per rank ({said} of 2)")
        elif mode == "levels":
            # Levels that pass no name (issue 69 item 2): before, 2 and -2 read a name that
            # was not there (a crash, or a region named after stray memory).
            rc, text = run(args, out, "levels")
            check(rc == 0, f"levels: exit status {rc}")
            rep = load_strict(os.path.join(out, "papi_mpi_report.json"))
            check(len(rep["ranks"]) == 2, "levels: a report of both ranks")
            for r in rep["ranks"]:
                got = {k: (v["entries"], v["mpi_calls"]) for k, v in r["regions"].items()}
                check(got == {"kept": (1, 1)},
                      f"rank {r['rank']}: the one region kept (1 entry, 1 MPI call): {got}")
                check(r["calls"]["MPI_Pcontrol"]["calls"] == 13,
                      f"rank {r['rank']}: 13 MPI_Pcontrol: {r['calls']['MPI_Pcontrol']['calls']}")
                check(r["calls"]["MPI_Barrier"]["calls"] == 4,
                      f"rank {r['rank']}: 4 barriers: {r['calls']['MPI_Barrier']['calls']}")
            said = text.count("papi_mpi: MPI_Pcontrol(2): no effect")
            check(said == 1 and text.count("no effect (0 pauses") == 1,
                  f"levels: the ignored levels said once, by rank 0 ({said})")
        elif mode == "nodir":
            # PAPI_MPI_OUTPUT_DIR under a regular file: rank 0 has no directory, yet it
            # takes every rank's stream (the wait report's parts are in them)
            with open(os.path.join(out, "file"), "w", encoding="utf-8"):
                pass
            rc, text = run(args, os.path.join(out, "file", "sub"), "utf8")
            check(rc == 74, f"nodir: the job's exit status 74 (EX_IOERR), not 0 ({rc})")
            check("FAILED to write the report in (no directory)" in text,
                  "nodir: the FAILED line says there is no directory")
            check("papi_mpi: wait states (all ranks, s):" in text and "papi_mpi: POP:" in text,
                  "nodir: the banner still has the wait states and POP lines")
            check(os.listdir(out) == ["file"], f"nodir: nothing written: {os.listdir(out)}")
        elif mode == "fsize":
            rc, text = run(args, out, "fsize", env_extra={"PAPI_MPI_TRACE": "json"})
            report_not_written(rc, text, "fsize")
            check(sorted(os.listdir(out)) == [], f"fsize: nothing published {os.listdir(out)}")
        elif mode == "fulldisk":
            full_disk(args)
        elif mode == "stale":
            rc, _ = run(args, out, "utf8")
            check(rc == 0 and os.path.exists(os.path.join(out, "papi_mpi_report.json")),
                  "stale: a first run finished")
            died(args, out, "segv", 11)
        elif mode == "symlink":
            victim = os.path.join(out, "victim")
            with open(victim, "w") as f:
                f.write("precious\n")
            for name in ("papi_mpi_rank0.partial.json.exit", "papi_mpi_rank0.partial.json.ckpt",
                         "papi_mpi_rank0.partial.json"):
                os.symlink(victim, os.path.join(out, name))
            rc, _ = run(args, out, "term", env_extra={"PAPI_MPI_CHECKPOINT": "0.01"})
            with open(victim) as f:
                check(f.read() == "precious\n", "symlink: the victim file is untouched")
            check(not os.path.islink(os.path.join(out, "papi_mpi_rank0.partial.json")),
                  "symlink: the row replaced the link, not its target")
        elif mode == "longdir":
            parts = ["d" * 200] * 3  # a 600-byte path
            deep = os.path.join(out, *parts)
            rc, _ = run(args, deep, "utf8")
            check(os.path.exists(os.path.join(deep, "papi_mpi_report.json")),
                  "longdir: the report is in the whole 600-byte directory")
            huge = os.path.join(out, "x" * 5000)
            cwd = tempfile.mkdtemp(dir=out)
            rc, text = run(args, huge, "utf8", cwd=cwd)
            check("2 ranks finished" in text, "longdir: the program still runs to MPI_Finalize")
            check("PAPI_MPI_OUTPUT_DIR" in text, "longdir: the error names PAPI_MPI_OUTPUT_DIR")
            check(os.listdir(cwd) == [], "longdir: nothing written elsewhere")
        elif mode == "otheruser":
            # A directory owned by another user is refused, with its name in the message.
            d = os.path.join(out, "theirs")
            if os.geteuid() == 0:
                os.mkdir(d)
                os.chown(d, 65534, 65534)
            else:
                d = "/"  # root's
            rc, text = run(args, d, "utf8")
            check(d in text and "PAPI_MPI_OUTPUT_DIR" in text, "otheruser: refused, named")
            check(os.geteuid() != 0 or os.listdir(d) == [], "otheruser: nothing written there")
        elif mode == "events":
            nine = ",".join(["perf::PAGE-FAULTS"] * 8 + ["perf::TASK-CLOCK"])
            rc, text = run(args, out, "utf8", env_extra={"PAPI_MPI_EVENTS": nine})
            rep = load_strict(os.path.join(out, "papi_mpi_report.json"))
            note = rep["counter_note"]
            check("PAPI_MPI_EVENTS" in note and "perf::TASK-CLOCK" in note and "more than 8" in note,
                  f"events: nine entries rejected naming the ninth: {note}")
            check(rep["events"] == [], "events: a rejected list opens nothing")
            longname = "perf::" + "X" * 100
            rc, text = run(args, out, "utf8",
                           env_extra={"PAPI_MPI_EVENTS": "perf::PAGE-FAULTS," + longname})
            note = load_strict(os.path.join(out, "papi_mpi_report.json"))["counter_note"]
            check("longer than" in note and "XXXXXXXX" in note, f"events: long entry named: {note}")
        elif mode == "kill9":
            seed = int(os.environ.get("PAPI_TEST_SEED", time.time_ns() % 100000))
            print(f"kill9: {KILL_ROUNDS} rounds, PAPI_TEST_SEED={seed}")
            rng = random.Random(seed)
            only_prev = 0
            for _ in range(KILL_ROUNDS):
                d = tempfile.mkdtemp(dir=out)
                rows = kill9_round(args, d, rng)
                only_prev += rows == ["papi_mpi_rank0.checkpoint.prev.json"]
            print(f"kill9: {only_prev} of {KILL_ROUNDS} kills landed between moving the "
                  "snapshot aside and linking the next")
        else:
            sys.exit(f"unknown mode {mode}")
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())

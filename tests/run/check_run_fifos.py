#!/usr/bin/env python3
"""check_run_fifos.py PAPI_RUN PROGRAM: papi_run with a FIFO at each of its hand-over
names (issue 69, N5; the program, run_fifos.c, puts them there) ends within 30 s, exit
0 with its run file, where it used to wait for ever in an open of one: once with
--per-thread --trace json --gpu (the threads' rows, the OpenMP and GPU trace files, the
OpenMP tables), once with --sample where papi_run samples here (the processes' profiles).
A FIFO is said as not a regular file where papi_run reads one, and never read."""
import glob
import os
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import report_check  # noqa: E402
from checks import check, verdict  # noqa: E402

report_check.guard()


def run(papi_run, prog, opts):
    with tempfile.TemporaryDirectory(prefix="run_fifos_") as out:
        cmd = [papi_run, "-e", "perf::PAGE-FAULTS", "-o", out] + opts + [prog]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True)
        try:
            out_text, err_text = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # the program too, waiting in its exit
            p.communicate()
            check(False, "%s: still running after 30 s" % " ".join(cmd[3:]))
            return None
        sys.stdout.write(out_text)
        sys.stderr.write(err_text)
        fifos = [l.split(" ", 1)[1] for l in out_text.splitlines() if l.startswith("fifo ")]
        check(p.returncode == 0, "%s: exit %d" % (opts, p.returncode))
        check(len(fifos) > 0, "%s: the program made no FIFO" % opts)
        files = glob.glob(os.path.join(out, "**", "rank_*.json"), recursive=True)
        check(len(files) == 1, "%s: run files %s, want one" % (opts, files))
        return fifos, err_text


def main():
    papi_run, prog = sys.argv[1], sys.argv[2]
    got = run(papi_run, prog, ["--per-thread", "--trace", "json", "--gpu"])
    if got:
        fifos, err = got
        print("with --per-thread --trace json --gpu: FIFOs at %s" % [os.path.basename(f) for f in fifos])
        check(len(fifos) >= 2, "FIFOs made: %s (want the threads' file and a trace file)" % fifos)
        check("not a regular file" in err, "no FIFO said as not a regular file: %r" % err)
    if len(sys.argv) > 3 and sys.argv[3] == "sample":
        got = run(papi_run, prog, ["--sample", "perf::TASK-CLOCK"])
        if got:
            print("with --sample: FIFOs at %s" % [os.path.basename(f) for f in got[0]])
            check("not a regular file" in got[1], "--sample: its FIFO not said as not a regular file: %r"
                  % got[1])
    return verdict("check_run_fifos")


if __name__ == "__main__":
    sys.exit(main())

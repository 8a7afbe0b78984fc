#!/usr/bin/env python3
"""The wrapper library of the other MPI in a program: the program runs and exits with
its own status, exactly one line names the MPI the wrapper is built for, the MPI the
program runs and the wrapper to use instead, and no report is written.

Modes:
  preload  PROG (MPI only) with LD_PRELOAD=OTHER_WRAPPER, also without mpirun (a
           singleton: its exit status is the process's own, a signal shows as one),
           and with more arguments than 64 KB (the rerun keeps them all);
  linked   PROG linked to OTHER_WRAPPER (a DT_NEEDED entry);
  execfail PROG with LD_PRELOAD=SHIM:OTHER_WRAPPER, SHIM making execv fail: nothing
           safe remains, a second line says so and every rank exits with status 1
           (not a signal, not a crash).
The program is mpi_exit_status.c: it exits with STATUS (3) and prints its arguments.
In preload and linked modes it also runs with "env": the rerun program and a child
shell it starts must see LD_PRELOAD as the ranks were given it and no rerun marker
(the rerun's own LD_PRELOAD, the running MPI's libraries first, stays with the rerun).
A crash must not go unseen: the ranks run with RLIMIT_CORE raised to its hard limit,
core_pattern is printed, no core file may appear in the working directory, and the
exit status must be the program's own (a rank killed by a signal gives another).
Usage: check_wrong_mpi.py MODE --mpirun M --np P --program PROG --wrapper OTHER_WRAPPER
       [--shim SHIM]"""
import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile

from mpi_check import check, is_openmpi, rank_env, verdict

STATUS = 3


def raise_core_limit():
    _, hard = resource.getrlimit(resource.RLIMIT_CORE)
    resource.setrlimit(resource.RLIMIT_CORE, (hard, hard))


def run(cmd, env, cwd):
    print("+", " ".join(cmd[:12]), "..." if len(cmd) > 12 else "")
    p = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, timeout=120, preexec_fn=raise_core_limit)
    print(p.stdout[-4000:])
    print("exit status", p.returncode)
    return p


def check_lines(out, wrapper, n_lines):
    lines = [l for l in out.splitlines() if l.startswith("papi_mpi:")]
    check(len(lines) == n_lines, f"{n_lines} papi_mpi line(s) (rank 0 only), got {len(lines)}")
    if not lines:
        return lines
    built_for = "Open MPI" if "openmpi" in os.path.basename(wrapper) else "MPICH"
    running = "MPICH" if built_for == "Open MPI" else "Open MPI"
    other = "mpich" if running == "MPICH" else "openmpi"
    first = lines[0]
    check(f"built for {built_for}" in first, f"names the wrapper's MPI: {first}")
    check(running in first.split("runs", 1)[-1], f"names the running MPI: {first}")
    check(f"libpapi_mpi_{other}.so" in first, f"names the wrapper to use: {first}")
    check(os.path.dirname(os.path.realpath(wrapper)) in first,
          f"names the wrapper to use by its directory: {first}")
    return lines


def check_clean(p, out, status, signal_words=True):
    check(p.returncode == status, f"exit status {p.returncode}, want {status}")
    check(p.returncode >= 0, f"killed by signal {-p.returncode}")
    if signal_words:
        for w in ("Segmentation", "signal 11", "Caught signal", "Assertion failed",
                  "BAD TERMINATION", "exited on signal"):
            check(w not in p.stdout, f"no crash report ({w!r} in the output)")
    left = sorted(os.listdir(out))
    check(not any(n.startswith("core") for n in left), f"no core file: {left}")
    check(not any(n.startswith("papi_mpi") for n in left), f"nothing recorded: {left}")


def check_env(p, want_preload):
    """The program (rank 0) and its child shell see want_preload and no marker."""
    for who in ("program", "child"):
        line = [l for l in p.stdout.splitlines() if l.startswith(f"mpi_exit_status env: {who} ")]
        if not check(len(line) == 1, f"the {who} printed its environment once: {line}"):
            continue
        check(f"LD_PRELOAD={want_preload} marker=" in line[0],
              f"the {who} sees LD_PRELOAD={want_preload}: {line[0]}")
        check(line[0].endswith("marker=(unset)"), f"the {who} sees no rerun marker: {line[0]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["preload", "linked", "execfail"])
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--np", type=int, required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--wrapper", required=True)
    ap.add_argument("--shim")
    args = ap.parse_args()
    with open("/proc/sys/kernel/core_pattern", encoding="utf-8") as f:
        pattern = f.read().strip()
    print("core_pattern:", pattern, "RLIMIT_CORE (hard):",
          resource.getrlimit(resource.RLIMIT_CORE)[1])
    out = tempfile.mkdtemp(prefix="papi_mpi_wrong_")
    try:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out)
        preload = {}
        if args.mode == "preload":
            preload = {"LD_PRELOAD": args.wrapper}
        elif args.mode == "execfail":
            preload = {"LD_PRELOAD": f"{args.shim}:{args.wrapper}"}
        launch = [args.mpirun, "-np", str(args.np)] + rank_env(args.mpirun, preload)
        p = run(launch + [args.program, str(STATUS)], env, out)
        if args.mode == "execfail":
            lines = check_lines(p.stdout, args.wrapper, 2)
            check(len(lines) == 2 and "cannot run the program again" in lines[1] and
                  "exit status 1" in lines[1], f"the second line says why: {lines[1:]}")
            check("mpi_exit_status:" not in p.stdout, "the program did not start")
            check_clean(p, out, 1, signal_words=False)
            check("signal" not in p.stdout.lower(), "no rank died of a signal")
            return verdict()
        check_lines(p.stdout, args.wrapper, 1)
        check(f"{args.np} ranks, sum {args.np}, 1 arguments" in p.stdout,
              "the program ran to its end with its argument")
        check_clean(p, out, STATUS)
        # The environment the user gave the ranks, for the program and its children.
        want = preload.get("LD_PRELOAD", env.get("LD_PRELOAD", "(unset)"))
        p = run(launch + [args.program, str(STATUS), "env"], env, out)
        check_env(p, want)
        check_clean(p, out, STATUS)
        if args.mode != "preload":
            return verdict()
        # Without a launcher: the process's own status (negative: a signal).
        p = run([args.program, str(STATUS)], dict(env, **preload), out)
        check_lines(p.stdout, args.wrapper, 1)
        check("1 ranks, sum 1, 1 arguments" in p.stdout, "the singleton ran to its end")
        check_clean(p, out, STATUS)
        p = run([args.program, str(STATUS), "env"], dict(env, **preload), out)
        check_env(p, want)
        check_clean(p, out, STATUS)
        # An argument list beyond any fixed buffer (the earlier 64 KB and 1,023
        # arguments): 1,100 of 90 bytes under Open MPI's launcher (its singleton cannot
        # start its daemon with long lists), 3,000 of 100 bytes in an MPICH singleton
        # (Hydra's launcher takes less than 64 KB).
        if is_openmpi(args.mpirun):
            many = [str(STATUS)] + ["a" * 89 + str(i % 10) for i in range(1100)]
            p = run(launch + [args.program] + many, env, out)
            nranks = args.np
        else:
            many = [str(STATUS)] + ["a" * 99 + str(i % 10) for i in range(3000)]
            p = run([args.program] + many, dict(env, **preload), out)
            nranks = 1
        check_lines(p.stdout, args.wrapper, 1)
        nbytes = sum(len(a) for a in many)
        check(f"{nranks} ranks, sum {nranks}, {len(many)} arguments, {nbytes} bytes"
              in p.stdout, f"every argument kept ({len(many)}, {nbytes} bytes)")
        check_clean(p, out, STATUS)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    return verdict()


if __name__ == "__main__":
    sys.exit(main())

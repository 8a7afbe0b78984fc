#!/usr/bin/env python3
"""Rank 0's banner comes out in whole lines while another rank prints (stdout_lines.c).
mpi_banner_lines on 2 ranks, PAPI_MPI_TOP=200: rank 0 has 200 MPI_Comm_rank call sites
(a banner over 20 KB: several 4 KiB pieces) and 3 lines of its own left in stdout's
buffer; rank 1's thread writes "MARK 1 n xxx" lines, one write each, all through its
MPI_Finalize. mpirun forwards each rank's output in the pieces the rank wrote, so a banner
flushed mid-line (stdio's 4 KiB blocks) lets a marker line land inside a banner line.
Checks, on the launcher's stdout:
  - every line holding MARK is a whole marker line, rank 1's numbered 0 .. n-1 each once
    (n from its final "MARKS 1 n"), rank 0's three before the banner;
  - between the banner's first line and its last ("papi_mpi: wrote") every other line is
    a whole banner line: it starts with "papi_mpi: " or two spaces, and the 200 site lines
    each match the site line's whole format;
  - the banner's lines are those of the format it had (the same line kinds, in order).
Open MPI gives its ranks a pseudo-terminal where it can, and a terminal passes any write on
in parts (even rank 1's one-write lines come out cut): whole lines can be promised only
through a pipe, which Open MPI uses where there is no pseudo-terminal (stop 54's CI). So
mpirun runs with --no-pty's shim preloaded (openpty fails), and rank 0 must say its
stdout is a pipe.
Usage: check_banner_lines.py --mpirun M --program PROG --no-pty SHIM"""
import os
import re
import subprocess
import sys
import tempfile

from mpi_check import check, launch_args, rank_env, verdict

MARK = re.compile(r"MARK ([01]) (\d+) x{40}")
SITE = re.compile(r"  MPI_Comm_rank {10}mpi_banner_lines\.c:\d+ \(sites\) ranks 1, calls 1, "
                  r"time \d+\.\d{6} s, sent 0 B")
# The banner's line kinds, in order (aggregate.c, callsites.c, then wait_report.c's: the
# wait report's parts come with the rows, after the call sites): a line cut or joined to
# another matches none of them where it stands.
KINDS = [
    ("head", r"papi_mpi: 2 ranks finished; wall \d+\.\d{3} s; time in MPI \d+\.\d% \(mean\), "
             r"max \d+\.\d% on rank [01]"),
    ("compute", r"papi_mpi: compute time \(wall - MPI\) per rank: min \S+ s \(rank [01]\), "
                r"mean \S+ s, max \S+ s \(rank [01]\), max/mean \S+, COV \S+"),
    ("note", r"papi_mpi: note: .*[^ ]"),
    ("metrics", r"  metric +min +rank +mean +max +rank max/mean"),
    ("metric", r"  \S+ +\S+ +[01] +\S+ +\S+ +[01] +\S+( \(.*\))?"),
    ("novalue", r"  \S+ +no rank has a value \(papi_mpi_report\.json says why\)"),
    ("job", r" +\S+ \S+ for the whole job \(summed counts, longest wall time\)"),
    ("socket", r" +read once per socket: each rank's value is its socket's, shared by the ranks "
               r"on it"),
    ("calls", r"  call \(all ranks\) +calls +time s +mean/call s +%MPI +%wall +COV +max s \(rank\)"),
    ("call", r"  MPI_\w+ +\d+ +\S+ +\S+ +\S+ +\S+ +\S+ +\S+ \([01]\)"),
    ("apart", r"  MPI_\w+ +\(apart from time in MPI\) min \S+ s \(rank [01]\), mean \S+ s, "
              r"max \S+ s \(rank [01]\)"),
    ("top", r"  top 200 of \d+ call sites by time \(all ranks; the report lists every one\):"),
    ("site", r"  MPI_\w+ +\S+:\d+ \(.*\) ranks [12], calls \d+, time \d+\.\d{6} s, sent \d+ B"),
    ("waits", r"papi_mpi: wait states \(all ranks, s\): late sender \S+, late receiver \S+, "
              r"N x N \S+, barrier \S+, late root \S+, early reduce \S+; clock residual \S+"),
    ("pop", r"papi_mpi: POP: parallel efficiency \S+ = load balance \S+ x communication "
            r"efficiency \S+ \(serialisation \S+, transfer \S+\)"),
    ("wrote", r"papi_mpi: wrote .*/papi_mpi_report\.json, papi_mpi_ranks\.csv and "
              r"papi_mpi_summary\.csv; aggregation \S+ ms \(\d+ B per rank to the reduction\), "
              r"with files \S+ ms"),
]
ORDER = {k: i for i, (k, _) in enumerate(KINDS)}


def kind_of(line):
    for k, pat in KINDS:
        if re.fullmatch(pat, line):
            return k
    return None


def main():
    a = launch_args(more=("--no-pty",))
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, PAPI_MPI_OUTPUT_DIR=out, PAPI_MPI_TOP="200", LD_PRELOAD=a.no_pty)
        cmd = [a.mpirun, "-np", "2"] + rank_env(a.mpirun, {"PAPI_MPI_TOP": "200"}) + [a.program]
        print("+", " ".join(cmd))
        p = subprocess.run(cmd, env=env, cwd=out, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=150)
        print(p.stderr[-3000:])
        print("exit status", p.returncode)
        check(p.returncode == 0, f"mpirun exit status {p.returncode}")
        check("rank 0's stdout is a pipe" in p.stderr, "rank 0's stdout is a pipe")
    lines = p.stdout.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    print(f"{len(lines)} lines of stdout")

    marks = {0: [], 1: []}
    count = None
    for i, line in enumerate(lines):
        if "MARKS 1" in line:
            m = re.fullmatch(r"MARKS 1 (\d+)", line)
            check(m, f"line {i + 1} is a whole MARKS line: {line!r}")
            count = int(m.group(1)) if m else count
        elif "MARK" in line:
            m = MARK.fullmatch(line)
            if not check(m, f"line {i + 1} is a whole marker line: {line!r}"):
                continue
            marks[int(m.group(1))].append((int(m.group(2)), i))
    check(count is not None and count > 0, f"rank 1 said how many lines it wrote: {count}")
    if count:
        got = sorted(n for n, _ in marks[1])
        check(got == list(range(count)),
              f"rank 1's {count} marker lines each once and whole: {len(got)} found")
    check(sorted(n for n, _ in marks[0]) == [0, 1, 2], f"rank 0's 3 lines: {marks[0]}")

    heads = [i for i, l in enumerate(lines) if l.startswith("papi_mpi: 2 ranks finished")]
    ends = [i for i, l in enumerate(lines) if l.startswith("papi_mpi: wrote ")]
    if not check(len(heads) == 1 and len(ends) == 1 and heads[0] < ends[0],
                 f"one banner, first and last line found: {heads} {ends}"):
        return verdict()
    b0, b1 = heads[0], ends[0]
    check(all(i < b0 for _, i in marks[0]), "rank 0's own lines come before its banner")
    inside = [i for _, i in marks[1] if b0 < i < b1]
    print(f"banner: lines {b0 + 1} to {b1 + 1}; {len(inside)} of rank 1's marker lines "
          f"among them (forwarded between the banner's pieces)")
    banner = [(i, l) for i, l in enumerate(lines[b0:b1 + 1], b0 + 1) if not MARK.fullmatch(l)]
    kinds, last = [], -1
    for i, line in banner:
        k = kind_of(line)
        if not check(k, f"line {i} is a whole banner line: {line!r}"):
            continue
        check(ORDER[k] >= last or k in ("metric", "novalue", "job", "socket"),
              f"line {i} ({k}) in the banner's order: {line!r}")
        last = max(last, ORDER[k])
        kinds.append(k)
    sites = [l for _, l in banner if SITE.fullmatch(l)]
    check(len(sites) == 200, f"200 whole lines of mpi_banner_lines.c's sites: {len(sites)}")
    for k in ("head", "compute", "metrics", "calls", "call", "waits", "pop", "top", "wrote"):
        check(k in kinds, f"the banner has its {k} line")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())

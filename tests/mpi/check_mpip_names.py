#!/usr/bin/env python3
"""Every call mpiP 3.5 wraps is wrapped wherever the MPI declares it: each name of
mpip_3.5_calls.txt that the configure probe found declared in this MPI's mpi.h (not in
its undeclared.txt) must be a function the built wrapper library defines, with its
Fortran forwarder (mpi_<name>_).
Usage: check_mpip_names.py NAMES LIBRARY UNDECLARED"""
import subprocess
import sys

from mpi_check import check, verdict


def main():
    names_file, lib, undeclared_file = sys.argv[1:4]
    names = [l.strip() for l in open(names_file, encoding="utf-8")
             if l.strip() and not l.startswith("#")]
    undeclared = {l.strip() for l in open(undeclared_file, encoding="utf-8") if l.strip()}
    nm = subprocess.run(["nm", "-D", "--defined-only", lib], stdout=subprocess.PIPE,
                        text=True, check=True).stdout
    defined = {f[2] for f in (l.split() for l in nm.splitlines()) if len(f) == 3 and f[1] == "T"}
    check(len(names) >= 170, f"mpiP 3.5's list has {len(names)} names (170 expected)")
    absent = 0
    for n in names:
        if n in undeclared:
            absent += 1
            continue
        check(n in defined, f"{n}: declared by this MPI, wrapped by mpiP 3.5, not defined by {lib}")
        check(n.lower() + "_" in defined, f"{n}: no Fortran forwarder {n.lower()}_ in {lib}")
    print(f"{len(names) - absent} of mpiP 3.5's {len(names)} calls declared by this MPI: "
          f"each checked in {lib}")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())

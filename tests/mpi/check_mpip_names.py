#!/usr/bin/env python3
"""Every call mpiP 3.5 wraps is wrapped wherever the MPI declares it.

What the MPI declares is read here from its own mpi.h, independently of the configure
probe: the header preprocessed with the MPI's compile flags (CC -E), every PMPI_<name>(
in it is a declaration. Then:
  - each name of mpip_3.5_calls.txt that the header declares is a function the built
    wrapper library defines, with its Fortran forwarder (mpi_<name>_);
  - the probe agrees with the header: a name in undeclared.txt (left out of the build)
    is one the header does not declare, and an mpiP name it declares is not in it;
  - the scan is not vacuous: the calls every MPI since 2.0 declares (Send, Recv, Bcast,
    Allreduce, Barrier, Comm_split, File_open, Win_create) are found declared;
  - the list is mpiP 3.5's: 170 distinct names.
Usage: check_mpip_names.py NAMES LIBRARY UNDECLARED CC [MPI_CFLAGS...]"""
import re
import subprocess
import sys

from mpi_check import check, verdict

MPI2_CORE = ["MPI_Send", "MPI_Recv", "MPI_Bcast", "MPI_Allreduce", "MPI_Barrier",
             "MPI_Comm_split", "MPI_File_open", "MPI_Win_create"]


def header_declares(cc, cflags):
    """The MPI_<name>s whose PMPI_<name> the preprocessed mpi.h declares."""
    pre = subprocess.run([cc, "-E", "-P", *cflags, "-"], input="#include <mpi.h>\n",
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, check=False)
    check(pre.returncode == 0, f"{cc} -E of mpi.h: {pre.stderr[:500]}")
    return {"MPI_" + m for m in re.findall(r"\bPMPI_(\w+)\s*\(", pre.stdout)}


def main():
    names_file, lib, undeclared_file, cc = sys.argv[1:5]
    cflags = sys.argv[5:]
    names = [l.strip() for l in open(names_file, encoding="utf-8")
             if l.strip() and not l.startswith("#")]
    undeclared = {l.strip() for l in open(undeclared_file, encoding="utf-8") if l.strip()}
    declared = header_declares(cc, cflags)
    print(f"mpi.h declares {len(declared)} PMPI_* functions")
    nm = subprocess.run(["nm", "-D", "--defined-only", lib], stdout=subprocess.PIPE,
                        text=True, check=True).stdout
    defined = {f[2] for f in (l.split() for l in nm.splitlines()) if len(f) == 3 and f[1] == "T"}
    check(len(names) == 170 and len(set(names)) == 170,
          f"mpiP 3.5's list: {len(set(names))} distinct of {len(names)} names (170 expected)")
    for n in MPI2_CORE:
        check(n in declared, f"the header scan finds {n} declared (it reads nothing otherwise)")
    for n in sorted(undeclared):
        check(n not in declared, f"{n}: the probe left it out, but mpi.h declares it")
    in_header = 0
    for n in names:
        if n not in declared:
            check(n in undeclared or n not in defined,
                  f"{n}: not declared by mpi.h, yet wrapped and not in undeclared.txt")
            continue
        in_header += 1
        check(n not in undeclared, f"{n}: declared by mpi.h, yet the probe left it out")
        check(n in defined, f"{n}: declared by this MPI, wrapped by mpiP 3.5, not defined by {lib}")
        check(n.lower() + "_" in defined, f"{n}: no Fortran forwarder {n.lower()}_ in {lib}")
    print(f"{in_header} of mpiP 3.5's {len(names)} calls declared by this mpi.h: each checked "
          f"in {lib}; {len(undeclared)} listed calls left out by the probe, none declared")
    return verdict()


if __name__ == "__main__":
    sys.exit(main())

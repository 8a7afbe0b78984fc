#!/usr/bin/env python3
"""Generate the classic Fortran include files from the compiled constant values.

  gen_include_files.py CONSTANTS OUTDIR

  fpapi.h    cpp #defines (for .F files: #include "fpapi.h")
  f77papi.h  INTEGER + PARAMETER statements (fixed and free form)
  f90papi.h  INTEGER, PARAMETER :: declarations (fixed and free form)
Lines start in column 7 and stay within 72 columns so fixed-form code can include them.
Comments are Fortran comment lines ("!" in column 1, valid in fixed and free form) even
in fpapi.h: LLVM flang's preprocessor keeps C comments in the source it compiles."""

import os
import sys
sys.dont_write_bytecode = True  # imports below live in the checkout: no __pycache__ there

import papif_api  # noqa: E402

BANNER = "Generated from papi.h by src-fortran/gen_include_files.py"


def main():
    constants_file, outdir = sys.argv[1:3]
    constants = papif_api.read_constant_values(constants_file)
    cpp = ["!     %s\n" % BANNER, "#ifndef PAPI_FPAPI_H\n#define PAPI_FPAPI_H\n"]
    f77 = ["!     %s\n" % BANNER]
    f90 = ["!     %s\n" % BANNER]
    for name, value in constants:
        lit = papif_api.fortran_int(value)
        cpp.append("#define %s %s\n" % (name, "(%d)" % value if 0 > value > -2**31 else lit))
        f77.append("      INTEGER %s\n      PARAMETER (%s=%s)\n" % (name, name, lit))
        f90.append("      INTEGER, PARAMETER :: %s = %s\n" % (name, lit))
    cpp.append("#endif\n")
    for text in (f77, f90):
        for line in "".join(text).splitlines():
            if len(line) > 72:
                raise SystemExit("line longer than 72 columns: " + line)
    for fname, text in (("fpapi.h", cpp), ("f77papi.h", f77), ("f90papi.h", f90)):
        papif_api.write_file(os.path.join(outdir, fname), "".join(text))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Write the names of the functions a set of object files defines, one per line.

  list_symbols.py NM OUT OBJECT...

The Fortran generators offer a PAPIF routine only once its C function is in libpapi,
so each routine comes alive when the C side lands. The objects are libpapi's C core
(not libpapi.so itself, which also holds the PAPIF_* shims generated from this list).
OUT is rewritten only on change."""

import subprocess
import sys
sys.dont_write_bytecode = True  # imports below live in the checkout: no __pycache__ there

import papif_api

nm, out = sys.argv[1:3]
res = subprocess.run([nm, "--defined-only", "--extern-only"] + sys.argv[3:], check=True,
                     capture_output=True, text=True)
names = sorted({f[2] for f in (line.split() for line in res.stdout.splitlines())
                if len(f) == 3 and f[1] in "TtWi"})
papif_api.write_if_changed(out, "".join(n + "\n" for n in names))

#!/usr/bin/env python3
"""Every routine of the description that libpapi supports has its four manglings in
libpapi itself, as in PAPI (papif_x_, papif_x, papif_x__, PAPIF_X; an extension's own
prefix for its routines: papimf_x_ ... PAPIMF_X), and its core for the module.

  check_manglings.py API.def LIBPAPI_SYMBOLS NM LIBPAPI"""

import os
import subprocess
import sys
sys.dont_write_bytecode = True  # imports below live in the checkout: no __pycache__ there

sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))
import papif_api  # noqa: E402

api, symbols, nm, lib = sys.argv[1:5]
routines, _, _ = papif_api.parse(api)
have = papif_api.available(routines, papif_api.read_symbols(symbols))
res = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True, text=True)
defined = {f[2] for f in (ln.split() for ln in res.stdout.splitlines()) if len(f) == 3}
missing = []
for r in have:
    p = r.prefix.lower()  # papif, or an extension's own (papimf)
    for name in ("%s_%s_" % (p, r.base), "%s_%s" % (p, r.base), "%s_%s__" % (p, r.base),
                 "%s_%s" % (r.prefix, r.base.upper()), r.core):
        if name not in defined:
            missing.append(name)
print("%d routines of %d available, %d entry points checked, missing: %s"
      % (len(have), len(routines), 5 * len(have), " ".join(missing) or "none"))
left_out = [r.name for r in routines if r not in have]
if left_out:
    print("left out until libpapi has their C functions: " + " ".join(left_out))
sys.exit(1 if missing or not have else 0)

"""pip install of the source tree (pyproject.toml): the package python/papi plus its two
generated files, made here as CMake makes them: _api.py by src-fortran/gen_python.py
(constants read from papi.h: no compiler) and _location.py naming the libpapi of an
installed papi-compat, found at build time: $PAPI_ROOT (`module load papi-compat` sets
it), else `pkg-config papi`. A libpapi that is not papi-compat's (Debian's PAPI 7 has no
PAPI_strerror_detail) is refused with the reason. Build files go to a temporary
directory, never into the checkout (its build/ is CMake's)."""

import atexit
import ctypes
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py

TOP = os.path.dirname(os.path.abspath(__file__))


def version():
    with open(os.path.join(TOP, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(papi-compat VERSION ([0-9.]+)", f.read()).group(1)


def candidates():
    root = os.environ.get("PAPI_ROOT")
    if root:
        yield from sorted(glob.glob(os.path.join(root, "lib*", "libpapi.so.7")))
        yield from sorted(glob.glob(os.path.join(root, "lib", "*", "libpapi.so.7")))
        return
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "papi"], check=True,
                                capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return
    yield os.path.join(libdir, "libpapi.so.7")


def find_libpapi():
    tried = []
    for path in candidates():
        path = os.path.abspath(path)
        try:
            ok = hasattr(ctypes.CDLL(path), "PAPI_strerror_detail")
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        if ok:
            return path
        tried.append("%s (not papi-compat's libpapi: no PAPI_strerror_detail)" % path)
    raise SystemExit("papi-compat: no installed papi-compat libpapi found%s; run `module load "
                     "papi-compat`, or set PAPI_ROOT to the install prefix"
                     % (": tried " + ", ".join(tried) if tried else
                        " (PAPI_ROOT unset and pkg-config knows no papi)"))


class generate(build_py):
    """Copy the package, then write _api.py and _location.py beside it."""

    def run(self):
        libpapi = find_libpapi()
        super().run()
        out = os.path.join(self.build_lib, "papi")
        gen = os.path.join(TOP, "src-fortran")
        subprocess.check_call([sys.executable, os.path.join(gen, "gen_python.py"),
                               os.path.join(gen, "papif_api.def"), "--header",
                               os.path.join(TOP, "src-c", "include", "papi.h"),
                               os.path.join(out, "_api.py")])
        with open(os.path.join(out, "_location.py"), "w", encoding="utf-8") as f:
            f.write('"""Where libpapi is (found by pip install at build time)."""\n'
                    "LIBPAPI = %r\n" % libpapi)


scratch = tempfile.mkdtemp(prefix="papi-compat-pip-")
atexit.register(shutil.rmtree, scratch, True)
setup(version=version(), cmdclass={"build_py": generate},
      options={"build": {"build_base": os.path.join(scratch, "build")},
               "egg_info": {"egg_base": scratch}})

"""build_backend.py: pip install of the source tree (pyproject.toml names this PEP 517
backend). It builds the wheel itself with the standard library alone, so an offline pip
needs neither setuptools nor wheel (setuptools 66, Debian 12's, builds wheels only with
the wheel package: "invalid command 'bdist_wheel'" in a venv without it).

The wheel holds the package python/papi plus its two generated files, made here as CMake
makes them: _api.py by src-fortran/gen_python.py (constants read from papi.h: no
compiler) and _location.py naming the libpapi of an installed papi-compat, found at
build time: $PAPI_ROOT (`module load papi-compat` sets it), else `pkg-config papi`. A
libpapi that is not papi-compat's (Debian's PAPI 7 has no PAPI_strerror_detail) is
refused with the reason. Nothing is written into the checkout."""

import base64
import ctypes
import glob
import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile

# pip imports this file from the checkout, and the import leaves a .pyc in python/
# __pycache__: taken out again, as the checkout stays as it was.
if __spec__ is not None and __spec__.cached and os.path.exists(__spec__.cached):
    os.remove(__spec__.cached)
    try:
        os.rmdir(os.path.dirname(__spec__.cached))
    except OSError:  # not empty: it held other files before
        pass

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME, DIST = "papi-compat", "papi_compat"
SUMMARY = "import papi: PAPI performance counters from Python (ctypes over papi-compat's libpapi)"
# What the sdist carries: enough to build the wheel again.
SDIST_FILES = ["pyproject.toml", "CMakeLists.txt", "python/build_backend.py", "python/README.md",
               "src-fortran/gen_python.py", "src-fortran/papif_api.py",
               "src-fortran/papif_api.def", "src-c/include/papi.h",
               "src-c/include/papiStdEventDefs.h",
               "src-c/include/papi_api_begin.h", "src-c/include/papi_api_end.h"]


def version():
    with open(os.path.join(TOP, "CMakeLists.txt"), encoding="utf-8") as f:
        return re.search(r"project\(papi-compat VERSION ([0-9.]+)", f.read()).group(1)


def metadata():
    with open(os.path.join(TOP, "python", "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n"
            "License: BSD-3-Clause\nRequires-Python: >=3.8\n"
            "Provides-Extra: numpy\nRequires-Dist: numpy; extra == \"numpy\"\n"
            "Provides-Extra: pandas\nRequires-Dist: pandas; extra == \"pandas\"\n"
            "Description-Content-Type: text/markdown\n\n%s"
            % (NAME, version(), SUMMARY, readme))


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


def package_files():
    """{path in the wheel: bytes} of the package papi."""
    files = {}
    for src in sorted(glob.glob(os.path.join(TOP, "python", "papi", "*.py"))):
        with open(src, "rb") as f:
            files["papi/" + os.path.basename(src)] = f.read()
    libpapi = find_libpapi()
    gen = os.path.join(TOP, "src-fortran")
    with tempfile.TemporaryDirectory(prefix="papi-compat-pip-") as tmp:
        out = os.path.join(tmp, "_api.py")
        subprocess.check_call([sys.executable, os.path.join(gen, "gen_python.py"),
                               os.path.join(gen, "papif_api.def"), "--header",
                               os.path.join(TOP, "src-c", "include", "papi.h"), out])
        with open(out, "rb") as f:
            files["papi/_api.py"] = f.read()
    files["papi/_location.py"] = ('"""Where libpapi is (found by pip install at build time)."""\n'
                                  "LIBPAPI = %r\n" % libpapi).encode()
    return files


def dist_info_files():
    wheel = "Wheel-Version: 1.0\nGenerator: papi-compat build_backend\nRoot-Is-Purelib: true\n" \
            "Tag: py3-none-any\n"
    return {"METADATA": metadata().encode(), "WHEEL": wheel.encode()}


def dist_info():
    return "%s-%s.dist-info" % (DIST, version())


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d\n" % (path, digest, len(data))


# The PEP 517 hooks.
def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    d = os.path.join(metadata_directory, dist_info())
    os.makedirs(d, exist_ok=True)
    for name, data in dist_info_files().items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    return dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = package_files()
    for name, data in dist_info_files().items():
        files[dist_info() + "/" + name] = data
    record = dist_info() + "/RECORD"
    text = "".join(record_line(p, d) for p, d in files.items()) + record + ",,\n"
    files[record] = text.encode()
    name = "%s-%s-py3-none-any.whl" % (DIST, version())
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files.items():
            z.writestr(zipfile.ZipInfo(path, (1980, 1, 1, 0, 0, 0)), data,
                       zipfile.ZIP_DEFLATED)
    return name


def build_sdist(sdist_directory, config_settings=None):
    base = "%s-%s" % (DIST, version())
    paths = SDIST_FILES + sorted(os.path.relpath(p, TOP) for p in
                                 glob.glob(os.path.join(TOP, "python", "papi", "*.py")))
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as t:
        for p in paths:
            t.add(os.path.join(TOP, p), arcname=base + "/" + p)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = metadata().encode()
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return name

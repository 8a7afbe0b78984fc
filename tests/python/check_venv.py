#!/usr/bin/env python3
"""import papi without PYTHONPATH, for Pythons that do not search <prefix>/lib/python3/
dist-packages (any prefix but /usr for Debian's python3; any venv; another interpreter):
  1. cmake --install into a temporary prefix; the install writes share/papi/python/
     papi-compat.pth naming its two module directories (papi and papi_report);
  2. the interpreter papi_report runs on (the #! line of the installed script, Debian's
     /usr/bin/python3): without the .pth, import papi fails; with it copied into that
     Python's user site (PYTHONUSERBASE: a temporary one), import papi and papi_report
     work and papi counts 100 fresh pages exactly, loading the install's libpapi;
  3. a venv of each Python found (that one, and python3 on PATH when it is another, such
     as pyenv's): `-m venv --without-pip`, no system site-packages, nothing downloaded:
     fails without the .pth, counts exactly with it copied into the venv's site-packages;
  4. pip's route into a venv, offline (--no-index --no-build-isolation --no-deps, with
     PAPI_ROOT naming the install; the backend is the checkout's python/build_backend.py,
     which needs neither setuptools nor wheel): into a plain venv made by ensurepip
     (python3-venv: pip and setuptools, and no wheel: setuptools' own backend failed there
     with "invalid command 'bdist_wheel'"), and into a --system-site-packages venv
     without pip of its own (Debian's python3-pip runs); each imports it from its own
     site-packages and counts exactly. Skipped only without venv/ensurepip or pip.
  5. the install moved (a copy left at the old prefix: another papi-compat there), with
     the moved .pth as site.addsitedir's directory, linked into a bare venv, and copied
     into one after relocate-modulefiles.sh: each imports the moved install's papi and
     loads its libpapi (the .pth named the old prefix: the other copy was imported);
Nothing is installed outside the temporary directory; the checkout is left unchanged.

  check_venv.py BUILD_DIR SOURCE_DIR"""

import os
import shutil
import subprocess
import sys
import tempfile

PROBE = """import mmap, sys, papi
def touch(n):
    m = mmap.mmap(-1, n * mmap.PAGESIZE)
    for i in range(n): m[i * mmap.PAGESIZE] = 1
    m.close()
touch(10)
with papi.EventSet(["perf::PAGE-FAULTS"]) as es:
    touch(100)
if "--report" in sys.argv:
    import papi_report
print(papi.__file__, papi.lib._name, es.values[0], sep="\\n")"""
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, fails  # noqa: E402 (tests/common/checks.py)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTHON") and k not in ("LD_LIBRARY_PATH", "VIRTUAL_ENV")}
    env.update(extra)
    return env


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, cwd="/", **kw)


def probe(python, env, prefix, site, what, report=False, pre=""):
    """import papi from site (a directory under prefix or a venv), 100 faults exactly;
    pre: code run first."""
    r = run([python, "-c", pre + PROBE] + (["--report"] if report else []), env=env)
    parts = r.stdout.strip().split("\n")  # one a line: a path may hold spaces
    print("%s: %s%s" % (what, " ".join(parts), r.stderr.strip()[-600:]))
    check(r.returncode == 0 and len(parts) == 3, "%s: import papi failed" % what)
    if len(parts) == 3:
        check(os.path.realpath(parts[0]).startswith(os.path.realpath(site) + "/"),
              "%s: papi imported from %s, not %s" % (what, parts[0], site))
        check(os.path.realpath(parts[1]).startswith(os.path.realpath(prefix) + "/"),
              "%s: libpapi %s is not the install's" % (what, parts[1]))
        check(parts[2] == "100", "%s: %s page faults for 100 pages" % (what, parts[2]))


def absent(python, env, what):
    r = run([python, "-c", "import papi"], env=env)
    check(r.returncode != 0 and "No module named 'papi'" in r.stderr,
          "%s: import papi worked without the .pth (the test proves nothing)" % what)


def site_of(python, env):
    return run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
               env=env).stdout.strip()


def interpreters(report_python):
    """papi_report's interpreter, then python3 on PATH when it is another one."""
    found = [report_python]
    other = shutil.which("python3")
    if other:
        r = run([other, "-c", "import sys; print(sys.executable)"], env=clean_env())
        exe = r.stdout.strip()
        same = os.path.realpath(exe) == os.path.realpath(report_python)
        if r.returncode == 0 and exe and not same:
            found.append(exe)
    return found


def status(src):
    return run(["git", "-C", src, "status", "--porcelain", "--ignored"]).stdout


def moved_install(python, prefix, work):
    """The .pth of a moved install imports the moved papi: as a site directory, through a
    link into a venv, and as a copy once the install's relocation script ran."""
    moved = os.path.join(work, "moved prefix")
    os.rename(prefix, moved)
    shutil.copytree(moved, prefix, symlinks=True)  # another papi-compat at the old place
    share = os.path.join(moved, "share", "papi", "python")
    site = os.path.join(moved, "lib", "python3", "dist-packages")
    probe(python, clean_env(), moved, site, "moved install, its share/papi/python as a site "
          "directory", pre="import site; site.addsitedir(%r)\n" % share)
    venv = os.path.join(work, "venv-moved")
    run([python, "-m", "venv", "--without-pip", venv], env=clean_env())
    vpy = os.path.join(venv, "bin", "python")
    link = os.path.join(site_of(vpy, clean_env()), "papi-compat.pth")
    os.symlink(os.path.join(share, "papi-compat.pth"), link)
    probe(vpy, clean_env(), moved, site, "moved install, its .pth linked into a venv")
    os.unlink(link)
    r = run(["sh", os.path.join(moved, "share", "papi-compat", "relocate-modulefiles.sh")])
    check(r.returncode == 0, "relocate-modulefiles.sh: " + r.stderr[-600:])
    shutil.copy(os.path.join(share, "papi-compat.pth"), link)
    probe(vpy, clean_env(), moved, site, "moved install, relocated, its .pth copied into a venv")


def pip_into_venv(report_python, src, prefix, work, skipped):
    """The checkout installed by pip, offline, into a plain venv without wheel and into a
    --system-site-packages one; each counts exactly from its own site-packages."""
    plain = os.path.join(work, "venv-pip-plain")
    r = run([report_python, "-m", "venv", plain], env=clean_env())
    if r.returncode != 0:
        skipped.append("pip into a plain venv: %s -m venv (ensurepip) failed: %s (Debian: "
                       "python3-venv)" % (report_python, r.stderr.strip()[-300:]))
        routes = []
    else:
        routes = [(plain, "pip install into a plain venv (no wheel)")]
        has = run([os.path.join(plain, "bin", "python"), "-c", "import importlib.util as u; "
                   "print(bool(u.find_spec('wheel')))"], env=clean_env()).stdout.strip()
        check(has == "False", "the plain venv has wheel (%s): the test proves nothing" % has)
    system_pip = run([report_python, "-c", "import pip"], env=clean_env()).returncode == 0
    if system_pip:
        venv = os.path.join(work, "venv-pip-system")
        run([report_python, "-m", "venv", "--system-site-packages", "--without-pip", venv],
            env=clean_env())
        routes.append((venv, "pip install into a --system-site-packages venv"))
    else:
        skipped.append("pip into a --system-site-packages venv: %s has no pip (Debian: "
                       "python3-pip)" % report_python)
    for venv, what in routes:
        vpy = os.path.join(venv, "bin", "python")
        before = status(src)
        env = clean_env(PAPI_ROOT=prefix, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
        r = run([vpy, "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation",
                 "--no-deps", src], env=env)
        check(r.returncode == 0, "%s: %s%s" % (what, r.stdout[-800:], r.stderr[-1500:]))
        probe(vpy, clean_env(), prefix, site_of(vpy, clean_env()), what)
        check(status(src) == before, "%s changed the checkout: %s" % (what, status(src)))


def main(build, src):
    work = tempfile.mkdtemp(prefix="papi-venv-")
    skipped = []
    try:
        prefix = os.path.join(work, "prefix")
        r = run(["cmake", "--install", build, "--prefix", prefix])
        if r.returncode != 0:
            print(r.stdout[-2000:] + r.stderr[-2000:])
            check(False, "cmake --install failed")
            return 1
        pth = os.path.join(prefix, "share", "papi", "python", "papi-compat.pth")
        site = os.path.join(prefix, "lib", "python3", "dist-packages")
        with open(pth) as f:
            text = f.read()
        share = os.path.join(prefix, "share", "papi", "python")
        check('fromhex("%s")' % os.fsencode(share).hex() in text,
              "papi-compat.pth does not name %s for its copies: %r" % (share, text))
        with open(os.path.join(prefix, "bin", "papi_report")) as f:
            report_python = f.readline()[2:].strip()
        print("papi_report runs on", report_python)

        # 2. papi_report's Python, through its user site.
        env = clean_env(PYTHONUSERBASE=os.path.join(work, "userbase"))
        absent(report_python, env, "papi_report's python3")
        user_site = run([report_python, "-m", "site", "--user-site"], env=env).stdout.strip()
        check(user_site.startswith(work + "/"), "user site %r is not the test's" % user_site)
        os.makedirs(user_site)
        shutil.copy(pth, user_site)
        probe(report_python, env, prefix, site, "papi_report's python3 (user site)",
              report=True)

        # 3. A bare venv of each Python found.
        for i, python in enumerate(interpreters(report_python)):
            venv = os.path.join(work, "venv%d" % i)
            r = run([python, "-m", "venv", "--without-pip", venv], env=clean_env())
            check(r.returncode == 0, "%s -m venv: %s" % (python, r.stderr[-400:]))
            vpy = os.path.join(venv, "bin", "python")
            what = "venv of %s" % python
            absent(vpy, clean_env(), what)
            shutil.copy(pth, site_of(vpy, clean_env()))
            probe(vpy, clean_env(), prefix, site, what)

        # 4. pip into a venv, offline: a plain venv (ensurepip's pip and setuptools, no
        # wheel), then one with the system's site-packages.
        pip_into_venv(report_python, src, prefix, work, skipped)

        # 5. The install moved, a copy of it left at the old prefix (another papi-compat).
        moved_install(report_python, prefix, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if fails:
        print("FAILED (%d checks)" % len(fails))
        return 1
    if skipped:
        print("SKIPPED: " + skipped[0])
        return 77
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

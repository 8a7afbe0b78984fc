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
     PAPI_ROOT naming the install): the venv is made with --system-site-packages because
     offline it has no pip, setuptools or wheel of its own (python3-venv's ensurepip would
     bring pip only, and pip would download the build backend): Debian's python3-pip,
     python3-setuptools and python3-wheel build and install it into the venv's own
     site-packages, and the venv imports it from there and counts exactly.
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
print(papi.__file__, papi.lib._name, es.values[0])"""
fails = []


def check(cond, msg):
    if not cond:
        fails.append(msg)
        print("FAIL:", msg)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTHON") and k not in ("LD_LIBRARY_PATH", "VIRTUAL_ENV")}
    env.update(extra)
    return env


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, cwd="/", **kw)


def probe(python, env, prefix, site, what, report=False):
    """import papi from site (a directory under prefix or a venv), 100 faults exactly."""
    r = run([python, "-c", PROBE] + (["--report"] if report else []), env=env)
    print("%s: %s%s" % (what, r.stdout.strip(), r.stderr.strip()[-600:]))
    parts = r.stdout.split()
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
            lines = f.read().split()
        check(lines == [site, os.path.join(prefix, "share", "papi", "python")],
              "papi-compat.pth holds %r" % lines)
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

        # 4. pip into a venv, offline.
        need = run([report_python, "-c", "import importlib.util as u; print(' '.join(m for m "
                    "in ('pip', 'setuptools', 'wheel') if not u.find_spec(m)))"],
                   env=clean_env()).stdout.split()
        if need:
            skipped.append("pip's route into a venv: %s has no %s (scripts/install-deps.sh "
                           "installs python3-pip, python3-setuptools and python3-wheel)"
                           % (report_python, ", ".join(need)))
        else:
            venv = os.path.join(work, "venv-pip")
            run([report_python, "-m", "venv", "--system-site-packages", "--without-pip",
                 venv], env=clean_env())
            vpy = os.path.join(venv, "bin", "python")
            before = status(src)
            env = clean_env(PAPI_ROOT=prefix, PIP_NO_INDEX="1",
                            PIP_DISABLE_PIP_VERSION_CHECK="1")
            r = run([vpy, "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation",
                     "--no-deps", src], env=env)
            check(r.returncode == 0,
                  "pip install into the venv: " + r.stdout[-800:] + r.stderr[-1500:])
            probe(vpy, clean_env(), prefix, site_of(vpy, clean_env()),
                  "pip install into a venv")
            check(status(src) == before, "pip install changed the checkout: " + status(src))
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

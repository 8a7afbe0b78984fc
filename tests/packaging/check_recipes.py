#!/usr/bin/env python3
"""check_recipes.py SRC VERSION: the Spack package and the EasyBuild easyconfigs of
packaging/ parse and agree with the project. Neither Spack nor EasyBuild is a Debian
package, so each recipe is executed against a small stand-in of the directives it uses
(spack.package, EasyBuild's constants): a syntax error, an unknown directive, a version
other than the project's, a CMake option the project does not define, or a utility the
sanity check names that the sources do not build, fails. When EasyBuild is importable
its own parser reads the easyconfigs too. Exit 0 pass, 1 fail."""
import glob
import os
import re
import sys
import types

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)


def cmake_options(src):
    """Every option() and cache variable the project's CMake files define."""
    names = set()
    for path in glob.glob(os.path.join(src, "**", "CMakeLists.txt"), recursive=True) + \
            glob.glob(os.path.join(src, "cmake", "*.cmake")):
        text = open(path, encoding="utf-8").read()
        names |= set(re.findall(r"\boption\((\w+)", text))
        names |= set(re.findall(r"\bset\((\w+)\s[^)]*\bCACHE\b", text))
    return names | {"CMAKE_INSTALL_LIBDIR", "CMAKE_BUILD_TYPE", "CMAKE_INSTALL_PREFIX"}


def spack_stub(record):
    """A stand-in for `from spack.package import *` that records each directive."""
    mod = types.ModuleType("spack.package")

    class CMakePackage:
        def define(self, name, value):
            return "-D%s=%s" % (name, "ON" if value is True else "OFF" if value is False else value)

        def define_from_variant(self, name, variant):
            record["variant_uses"].append(variant)
            return "-D%s=ON" % name

    def directive(kind):
        def f(*args, **kwargs):
            record[kind].append((args, kwargs))
        return f

    mod.CMakePackage = CMakePackage
    for kind in ("version", "variant", "depends_on", "conflicts", "requires", "maintainers",
                 "license", "provides", "patch", "run_after"):
        setattr(mod, kind, directive(kind))
    mod.run_after = lambda *a, **k: (lambda fn: fn)
    mod.join_path = os.path.join
    mod.find_libraries = lambda *a, **k: []
    return mod


def check_spack(src, version, options):
    path = os.path.join(src, "packaging", "spack", "packages", "papi-compat", "package.py")
    record = {k: [] for k in ("version", "variant", "depends_on", "conflicts", "requires",
                              "maintainers", "license", "provides", "patch", "variant_uses")}
    spack = types.ModuleType("spack")
    spack.package = spack_stub(record)
    sys.modules["spack"], sys.modules["spack.package"] = spack, spack.package
    ns = {}
    exec(compile(open(path, encoding="utf-8").read(), path, "exec"), ns)
    cls = ns.get("PapiCompat")
    check(cls is not None, "package.py defines no class PapiCompat")
    versions = [a[0] for a, _ in record["version"]]
    check(version in versions, "Spack versions %s lack the project's %s" % (versions, version))
    variants = {a[0] for a, _ in record["variant"]}
    for v in ("fortran", "mpi", "static"):
        check(v in variants, "Spack package has no variant %s" % v)
    check(set(record["variant_uses"]) <= variants, "cmake_args uses undeclared variants")
    if cls is not None:
        pkg = cls.__new__(cls)
        for flavour in ("none", "mpich", "openmpi"):
            spec = types.SimpleNamespace(variants={"mpi": types.SimpleNamespace(value=flavour)})
            pkg.spec = spec
            args = pkg.cmake_args()
            for a in args:
                name = a[2:].split("=")[0]
                check(name in options, "Spack cmake_args sets %s, which CMakeLists.txt does not define" % name)
    print("spack: %d variants, versions %s" % (len(variants), versions))


def check_easyconfigs(src, version, options):
    utils = {os.path.basename(p)[:-2] for p in glob.glob(os.path.join(src, "src-c", "utils", "papi_*.c"))}
    ecs = glob.glob(os.path.join(src, "packaging", "easybuild", "*.eb"))
    check(len(ecs) >= 1, "no easyconfig under packaging/easybuild")
    for path in ecs:
        ns = {"SOURCELOWER_TAR_GZ": "%(namelower)s-%(version)s.tar.gz", "SHLIB_EXT": "so"}
        exec(compile(open(path, encoding="utf-8").read(), path, "exec"), ns)
        for key in ("easyblock", "name", "version", "homepage", "description", "toolchain",
                    "sources", "dependencies", "sanity_check_paths", "moduleclass"):
            check(key in ns, "%s has no %s" % (path, key))
        check(ns.get("version") == version, "%s: version %s, project %s" % (path, ns.get("version"), version))
        tc = ns.get("toolchain", {})
        check(re.search(r"-%s-%s\.eb$" % (re.escape(tc.get("name", "?")), re.escape(tc.get("version", "?"))), path),
              "%s: file name does not match the toolchain %s" % (path, tc))
        for name in re.findall(r"-D(\w+)=", ns.get("configopts", "")):
            check(name in options, "%s sets -D%s, which CMakeLists.txt does not define" % (path, name))
        for f in ns.get("sanity_check_paths", {}).get("files", []):
            m = re.match(r"bin/(papi_\w+)$", f)
            if m and m.group(1) != "papi_mpi_collect":
                check(m.group(1) in utils, "%s checks bin/%s, which is not built" % (path, m.group(1)))
        try:  # EasyBuild's own parser, where it is installed
            from easybuild.framework.easyconfig.parser import EasyConfigParser
            EasyConfigParser(path).get_config_dict()
            print("%s: parsed by EasyBuild" % os.path.basename(path))
        except ImportError:
            pass
    print("easybuild: %d easyconfigs" % len(ecs))


def main():
    src, version = sys.argv[1], sys.argv[2]
    options = cmake_options(src)
    check_spack(src, version, options)
    check_easyconfigs(src, version, options)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("recipes: PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/bin/sh
# check_module_env.sh BUILD VERSION SRC: the modulefiles prepend and never replace, with
# what a build and a run need. Installed into a temporary prefix; for the Lua file and the
# Tcl file (each alone in a module tree, both read by Lmod) in a clean shell:
#   * MANPATH unset before: after the load `man -w ls` still finds the system's page and
#     `man -w PAPI_start` finds ours; after the unload MANPATH is unset again;
#   * MANPATH, LD_LIBRARY_PATH set before: the load prepends, the unload restores them;
#   * `cc pagefaults.c -lpapi` (no -I, no -L) builds against the install (CPATH,
#     LIBRARY_PATH) and runs with the install's library (LD_LIBRARY_PATH), not another PAPI;
#   * /usr/bin/python3 imports the install's `papi` (PYTHONPATH), which counts exactly
#     100 page faults; after the unload PYTHONPATH is unset again.
# Environment Modules' own modulecmd runs the same checks in the packaging lane
# (check_modulefiles.sh).
set -u
build=$1 version=$2 src=$3
fail() { echo "FAIL: $*"; exit 1; }
lmod_init=/usr/share/lmod/lmod/init/sh
[ -r "$lmod_init" ] || { echo "SKIPPED: Lmod is not installed (scripts/install-deps.sh installs lmod)"; exit 77; }
command -v man >/dev/null || { echo "SKIPPED: no man (man-db)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
mods=$prefix/share/modulefiles/papi-compat
mkdir -p "$work/lua/papi-compat" "$work/tcl/papi-compat"
cp "$mods/$version.lua" "$work/lua/papi-compat/"
cp "$mods/$version" "$work/tcl/papi-compat/"
# The system's own page for ls, as man finds it with MANPATH unset (Debian images that
# drop man pages have none: then the check is that man's default path is still searched).
ls_page=$(env -i PATH=/usr/bin:/bin man -w ls 2>/dev/null || true)
default_path=$(env -i PATH=/usr/bin:/bin manpath 2>/dev/null | cut -d: -f1)

# Python: the module's file and 100 page faults counted around 100 fresh pages.
py_faults='import mmap, papi
with papi.EventSet(["perf::PAGE-FAULTS"]) as es:
    m = mmap.mmap(-1, 100 * mmap.PAGESIZE)
    for i in range(100): m[i * mmap.PAGESIZE] = 1
print(papi.__file__, es.values[0])'

for kind in lua tcl; do
  out=$(env -i HOME=/nonexistent PATH=/usr/bin:/bin sh -c '
    . "$1"; module use "$2"; module load "papi-compat/$3" || exit 3
    printf "MANPATH=%s\n" "$MANPATH"
    printf "LD_LIBRARY_PATH=%s\nLIBRARY_PATH=%s\nCPATH=%s\n" "$LD_LIBRARY_PATH" "$LIBRARY_PATH" "$CPATH"
    printf "ls=%s\n" "$(man -w ls 2>/dev/null)"
    printf "manpath=%s\n" "$(manpath 2>/dev/null)"
    printf "PAPI_start=%s\n" "$(man -w PAPI_start 2>/dev/null)"
    cc -o "$4/pf_$5" "$6/examples/c/pagefaults.c" -lpapi 2>&1 || echo "BUILD FAILED"
    printf "lib=%s\n" "$(ldd "$4/pf_$5" | awk "/libpapi/ {print \$3}")"
    printf "run=%s\n" "$("$4/pf_$5" 100 2>&1 | tail -n 1)"
    printf "python=%s\n" "$(/usr/bin/python3 -c "$7" 2>&1 | tr "\n" " ")"
    module unload papi-compat
    printf "after_MANPATH=%s\nafter_LD=%s\nafter_PY=%s\n" "${MANPATH-unset}" "${LD_LIBRARY_PATH-unset}" "${PYTHONPATH-unset}"' \
    sh "$lmod_init" "$work/$kind" "$version" "$work" "$kind" "$src" "$py_faults") || fail "$kind: the shell failed: $out"
  echo "$out" | sed "s/^/  $kind: /"
  val() { echo "$out" | sed -n "s/^$1=//p"; }
  case $(val MANPATH) in "$prefix/share/man:"*) ;; *) fail "$kind: MANPATH '$(val MANPATH)' does not start with the install's";; esac
  if [ -n "$ls_page" ]; then
    [ "$(val ls)" = "$ls_page" ] || fail "$kind: man -w ls gives '$(val ls)' after the load, '$ls_page' before"
  elif [ -n "$default_path" ]; then
    case ":$(val manpath):" in *":$default_path:"*) ;; *) fail "$kind: man's default path $default_path is gone: $(val manpath)";; esac
  fi
  case $(val PAPI_start) in "$prefix/"*) ;; *) fail "$kind: man -w PAPI_start is '$(val PAPI_start)'";; esac
  for v in LD_LIBRARY_PATH LIBRARY_PATH CPATH; do
    case $(val $v) in "$prefix/"*) ;; *) fail "$kind: $v is '$(val $v)'";; esac
  done
  case $(val lib) in "$prefix/"*) ;; *) fail "$kind: cc -lpapi linked '$(val lib)', not the install's";; esac
  echo "$out" | grep -q "^run=.*100 page faults" || fail "$kind: the -lpapi program did not count 100 page faults"
  [ "$(val after_MANPATH)" = unset ] || fail "$kind: MANPATH after the unload is '$(val after_MANPATH)', was unset"
  [ "$(val after_LD)" = unset ] || fail "$kind: LD_LIBRARY_PATH after the unload is '$(val after_LD)', was unset"
  case $(val python) in "$prefix/"*"/papi/__init__.py 10"[0-9]" ") ;;
    *) fail "$kind: import papi gave '$(val python)', not the install's module counting 100 faults";; esac
  [ "$(val after_PY)" = unset ] || fail "$kind: PYTHONPATH after the unload is '$(val after_PY)', was unset"

  # Set before: prepended to, then restored.
  out=$(env -i HOME=/nonexistent PATH=/usr/bin:/bin MANPATH=/opt/site/man:/usr/share/man LD_LIBRARY_PATH=/opt/site/lib sh -c '
    . "$1"; module use "$2"; module load "papi-compat/$3" || exit 3
    printf "MANPATH=%s\nLD=%s\n" "$MANPATH" "$LD_LIBRARY_PATH"
    module unload papi-compat
    printf "after_MANPATH=%s\nafter_LD=%s\n" "$MANPATH" "$LD_LIBRARY_PATH"' sh "$lmod_init" "$work/$kind" "$version") ||
    fail "$kind: the shell failed: $out"
  case $(val MANPATH) in "$prefix/share/man:/opt/site/man:/usr/share/man"*) ;; *) fail "$kind: MANPATH replaced: $(val MANPATH)";; esac
  case $(val LD) in "$prefix/"*":/opt/site/lib") ;; *) fail "$kind: LD_LIBRARY_PATH replaced: $(val LD)";; esac
  [ "$(val after_MANPATH)" = /opt/site/man:/usr/share/man ] || fail "$kind: MANPATH after the unload: $(val after_MANPATH)"
  [ "$(val after_LD)" = /opt/site/lib ] || fail "$kind: LD_LIBRARY_PATH after the unload: $(val after_LD)"
  echo "$kind modulefile: prepends, keeps man's path, builds and runs against the install"
done
echo "check_module_env: PASSED"

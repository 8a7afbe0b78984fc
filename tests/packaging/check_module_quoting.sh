#!/bin/sh
# check_module_quoting.sh BUILD VERSION: the modulefiles name an install prefix holding
# any character. Installed into a prefix named with [ ] $ " & | ; ' { } and a space: Lmod
# loads the module in a clean shell and PAPI_ROOT is the prefix exactly, papi_avail is
# found in it, and no command named by a piece of the prefix ran (a '[' was a Tcl command
# before, a '"' broke both files); the Tcl file, evaluated by tclsh with stub module
# commands, gives the prefix exactly. The tree is then moved to a prefix that also holds a
# backslash, relocate-modulefiles.sh is run there, and both are checked again.
set -u
build=$1 version=$2
fail() { echo "FAIL: $*"; exit 1; }
lmod_init=/usr/share/lmod/lmod/init/sh
[ -r "$lmod_init" ] || { echo "SKIPPED: Lmod is not installed (scripts/install-deps.sh installs lmod)"; exit 77; }
command -v tclsh >/dev/null || { echo "SKIPPED: no tclsh (Lmod's dependency tcl)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix="$work/p[exec touch $work/ran]\$HOME\"c&d|e;f 'g{h}"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install into the hostile prefix"; }
moddir=$prefix/share/modulefiles

# check DIR PREFIX HOW: Lmod and the Tcl file both name PREFIX, exactly.
check() {
  dir=$1 want=$2 how=$3
  got=$(env -i HOME=/nonexistent PATH=/usr/bin:/bin sh -c '. "$1"; module use "$2" && module load "papi-compat/$3" >/dev/null 2>&1; printf "%s\n%s" "${PAPI_ROOT:-unset}" "$(command -v papi_avail)"' \
        sh "$lmod_init" "$dir" "$version") || fail "$how: the shell failed"
  root=$(printf '%s\n' "$got" | head -n 1)
  [ "$root" = "$want" ] || fail "$how: Lmod set PAPI_ROOT to '$root', want '$want'"
  [ "$(printf '%s\n' "$got" | tail -n 1)" = "$want/bin/papi_avail" ] || fail "$how: papi_avail is '$(printf '%s\n' "$got" | tail -n 1)'"
  tcl=$(cd "$work" && tclsh <<TCL
proc module-whatis {args} {}
proc conflict {args} {}
proc module-info {args} { return 0 }
proc setenv {name value} { if {\$name eq "PAPI_ROOT"} { puts -nonewline \$value } }
proc prepend-path {args} {}
source {$dir/papi-compat/$version}
TCL
) || fail "$how: tclsh could not evaluate the Tcl modulefile"
  [ "$tcl" = "$want" ] || fail "$how: the Tcl modulefile names '$tcl', want '$want'"
  [ ! -e "$work/ran" ] || fail "$how: a piece of the prefix was run as a command"
  echo "$how: Lmod and Tcl name the prefix exactly"
}
check "$moddir" "$prefix" "installed"

moved="$work/moved\\back[x]\$y\"z&;'{w} v"
mv "$prefix" "$moved" || fail "mv"
sh "$moved/share/papi-compat/relocate-modulefiles.sh" >"$work/reloc.log" 2>&1 ||
  { cat "$work/reloc.log"; fail "relocate-modulefiles.sh in the moved tree"; }
check "$moved/share/modulefiles" "$moved" "moved and relocated"
echo "check_module_quoting: PASSED"

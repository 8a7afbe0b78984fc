#!/bin/sh
# check_man_page.sh CMAKE BUILD PREFIX SECTION NAME TEXT: after `cmake --install BUILD
# --prefix PREFIX`, `man SECTION NAME` with MANPATH=PREFIX/share/man finds the installed
# page and shows TEXT (its usage, say). Exit 0 pass, 1 fail, 77 no man command.
set -u
cmake=$1 build=$2 prefix=$3 section=$4 name=$5 text=$6
command -v man >/dev/null || { echo "SKIPPED: no man command (install man-db)"; exit 77; }
rm -rf "$prefix"
"$cmake" --install "$build" --prefix "$prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
where=$(MANPATH="$prefix/share/man" man -w "$section" "$name") || { echo "FAIL: man -w $section $name found nothing"; exit 1; }
[ "$where" = "$prefix/share/man/man$section/$name.$section" ] || { echo "FAIL: man -w $section $name: $where"; exit 1; }
page=$(MANPATH="$prefix/share/man" MANWIDTH=200 man -P cat "$section" "$name" 2>/dev/null)
printf '%s\n' "$page" | grep -q "^$name($section)" || { echo "FAIL: man $section $name shows no page $name($section)"; exit 1; }
printf '%s\n' "$page" | grep -qF -- "$text" || { printf '%s\n' "$page" | head -40; echo "FAIL: man $section $name lacks: $text"; exit 1; }
echo "man $section $name: $where: PASSED"

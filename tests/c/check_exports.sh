#!/bin/sh
# check_exports.sh LIBPAPI_SO: the shared library exports PAPI_strerror_detail and its
# Fortran form, and none of the Fortran shims' internal helpers (papifh_*).
syms=$(nm -D --defined-only "$1" | awk '{print $3}') || { echo "FAILED: nm $1"; exit 1; }
bad=$(echo "$syms" | grep '^papifh_')
[ -z "$bad" ] || { echo "FAILED: internal helpers exported:"; echo "$bad"; exit 1; }
for s in PAPI_strerror_detail papif_strerror_detail_ PAPIF_STRERROR_DETAIL; do
    echo "$syms" | grep -qx "$s" || { echo "FAILED: $s is not exported"; exit 1; }
done
echo "PASSED: $(echo "$syms" | wc -l) symbols exported, no papifh_*, PAPI_strerror_detail and PAPIF_strerror_detail present"

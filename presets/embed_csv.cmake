# Build-time step: turn a CSV table (papi_events.csv, papi_metrics.csv) into a C array.
# Usage: cmake -DIN=papi_events.csv -DOUT=preset_builtin_csv.c [-DSYMBOL=name] -P embed_csv.cmake
# (SYMBOL, preset_builtin_csv by default, names the array; SYMBOL_len its length).
if(NOT SYMBOL)
  set(SYMBOL preset_builtin_csv)
endif()
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" nhex)
math(EXPR nbytes "${nhex} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Break the initialiser into lines of 16 bytes for readable diagnostics.
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.tmp"
"/* Generated from ${IN} by presets/embed_csv.cmake: do not edit. */
#include <stddef.h>
#define HIDDEN __attribute__((visibility(\"hidden\")))
extern const char ${SYMBOL}[] HIDDEN;
extern const size_t ${SYMBOL}_len HIDDEN;
const char ${SYMBOL}[] = {
${bytes}0x00};
const size_t ${SYMBOL}_len = ${nbytes};
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")

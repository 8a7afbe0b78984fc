# Build-time step: turn papi_events.csv into a C array (the built-in preset table).
# Usage: cmake -DIN=papi_events.csv -DOUT=preset_builtin_csv.c -P embed_csv.cmake
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
extern const char preset_builtin_csv[] HIDDEN;
extern const size_t preset_builtin_csv_len HIDDEN;
const char preset_builtin_csv[] = {
${bytes}0x00};
const size_t preset_builtin_csv_len = ${nbytes};
")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")

/* util_common.h: what the papi_* utilities share: library start-up, the hardware
 * header (text with PAPI 7's labels, and JSON), error details, option helpers. */
#ifndef UTIL_COMMON_H
#define UTIL_COMMON_H

#include <stdio.h>

#include "papi.h"
#include "json_writer.h"

#define UTIL_RULE "--------------------------------------------------------------------------------"
#define UTIL_BANNER "================================================================================"

/* PAPI_library_init; on failure prints why (with the library's detail) and returns 0. */
int util_init(const char *prog);

/* Start PAPI_get_hardware_info on another CPU (after util_init), for a utility that has
 * other work to do before it prints the header. */
void util_load_hardware_info_in_background(void);
/* PAPI_get_hardware_info, once a background load is done. */
const PAPI_hw_info_t *util_hardware_info(void);
/* The same; when there is none, says so on stderr for prog and returns NULL. */
const PAPI_hw_info_t *util_require_hardware_info(const char *prog);

/* Start a utility whose only option is --json (util_getopt: also --help, --version; any
 * other argument is bad usage, exit 2), then util_init. Returns -1 to go on (*json set), else the exit status. */
int util_start_json_only(int argc, char **argv, const char *prog, const char *usage, int *json);

/* The main of a utility that prints the hardware description, as text or with --json
 * (util_start_json_only): the exit status. */
int util_hardware_main(int argc, char **argv, const char *prog, const char *usage,
                       void (*text)(const PAPI_hw_info_t *), void (*json)(const PAPI_hw_info_t *));

/* A decimal number within [lo, hi]: returns 1 with *out set, or 0. */
int util_parse_long(const char *s, long lo, long hi, long *out);

/* The message the library recorded for this thread's last failure (e.g. why an event did
 * not open), or PAPI_strerror(code) when there is none. */
void util_error_detail(int code, char *buf, size_t len);
/* The same, whole whatever its length (heap: the caller frees it; NULL out of memory). */
char *util_error_detail_dup(int code);

/* Title, a rule, the hardware fields, a rule; then, when no hardware counter is usable,
 * a paragraph saying why and what can be counted instead. */
void util_print_header(FILE *f, const char *title);
/* The same facts as members "papi", "hardware" and "counters" of the current object. */
void util_json_header(struct jw *w);
/* Start the one JSON document a utility prints on stdout, with the header's members. */
void util_json_begin(struct jw *w);
/* The same facts as a stand-alone paragraph when counters are missing (empty otherwise). */
void util_print_no_counters(FILE *f);

/* Print text wrapped at width columns, each line starting with indent. */
void util_print_wrapped(FILE *f, const char *indent, const char *text, int width);
/* The same with a different prefix on the first line (e.g. "   \\-> Disabled: "). */
void util_print_hanging(FILE *f, const char *first, const char *rest, const char *text, int width);

/* Version string "7.0.0.0" of the library in use. */
void util_version_string(char *buf, size_t len);

#endif

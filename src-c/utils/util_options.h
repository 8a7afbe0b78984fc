/* util_options.h: command-line options of the papi_* utilities through getopt_long(3),
 * so every utility takes combined short flags (-ad), "--opt=value" and "--opt value",
 * and the options every utility shares: -h/--help, --version and --json. */
#ifndef UTIL_OPTIONS_H
#define UTIL_OPTIONS_H

#include <getopt.h>

/* Values getopt_long returns for long options without a short form. A utility's own
 * long-only options take values from UTIL_OPT_OWN on. */
enum {
    UTIL_OPT_VERSION = 0x100,
    UTIL_OPT_JSON,
    UTIL_OPT_OWN = 0x120
};

/* The entries every utility's option table ends with (before its {0} terminator). */
#define UTIL_COMMON_LONGOPTS                                   \
    {"help", no_argument, NULL, 'h'},                          \
    {"version", no_argument, NULL, UTIL_OPT_VERSION},          \
    {"json", no_argument, NULL, UTIL_OPT_JSON}

/* Name and usage text for the messages of util_getopt (call once, before it). */
void util_options(const char *prog, const char *usage);

/* The next option the utility itself handles, as getopt_long returns it (optarg set), or
 * -1 when the options end (optind is then the first operand). -h/--help prints the usage
 * and exits 0, --version prints the versions and exits 0; an unknown option or a missing
 * argument prints the reason and the usage on stderr and exits 2. "h" is added to
 * shortopts here. --json is returned as UTIL_OPT_JSON. */
int util_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

/* Bad usage found after the options (e.g. a number out of range): the reason and the
 * usage on stderr, exit status 2. */
_Noreturn void util_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* --version: this project's release and the PAPI API level, e.g.
 * "papi_avail (papi-compat) 1.0.0" and "PAPI API version 7.0.0.0". */
void util_print_version(const char *prog);

#endif

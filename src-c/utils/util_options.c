/* util_options.c: getopt_long(3) for every papi_* utility, with the shared options
 * (--help, --version) and one way of reporting bad usage (exit status 2, as before). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util_common.h"
#include "util_options.h"

static const char *g_prog = "papi";
static const char *g_usage = "";

void util_options(const char *prog, const char *usage)
{
    g_prog = prog;
    g_usage = usage;
    opterr = 0; /* the messages below name the utility and show its usage */
}

void util_print_version(const char *prog)
{
    char api[64];
    util_version_string(api, sizeof api);
    printf("%s (papi-compat) %s\nPAPI API version %s\n", prog, PAPI_compat_version(), api);
}

_Noreturn void util_usage_error(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", g_prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n\n%s", g_usage);
    exit(2);
}

/* The option getopt_long refused, as the user wrote it (argv[optind - 1] is the word it
 * was in; a short option inside "-xq" is named alone). */
static void refused(int argc, char **argv, int c)
{
    const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
    int missing = c == ':';
    if (optopt && optopt < 0x100 && strncmp(word, "--", 2) != 0)
        util_usage_error("%s option '-%c'", missing ? "missing argument for" : "unknown", optopt);
    util_usage_error("%s option '%s'",
                     missing ? "missing argument for" : "unknown or ambiguous", word);
}

int util_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    char opts[64];
    /* ':' first: a missing argument is told apart from an unknown option */
    /* a leading '+' (stop at the first operand) must stay first, before ':' */
    const char *plus = shortopts[0] == '+' ? "+" : "";
    if (snprintf(opts, sizeof opts, "%s:h%s", plus, shortopts + (*plus != 0)) >=
        (int)sizeof opts)
        util_usage_error("internal error: too many short options");
    int c = getopt_long(argc, argv, opts, longopts, NULL);
    switch (c) {
    case 'h':
        fputs(g_usage, stdout);
        exit(0);
    case UTIL_OPT_VERSION:
        util_print_version(g_prog);
        exit(0);
    case '?':
    case ':':
        refused(argc, argv, c);
        break;
    default:
        break;
    }
    return c;
}

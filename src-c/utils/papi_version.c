/* papi_version: the version of the PAPI library in use, as PAPI prints it. */
#include <string.h>

#include "util_common.h"

static const char usage[] =
    "Usage: papi_version [options]\n"
    "Print the version of the PAPI library in use (\"PAPI Version: 7.0.0.0\").\n\n"
    "Options:\n"
    "  --json       print the version as one JSON document\n"
    "  -h, --help   print this help\n";

int main(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (util_is_help(argv[i])) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--json"))
            json = 1;
        else {
            fprintf(stderr, "papi_version: unknown option '%s'\n\n%s", argv[i], usage);
            return 2;
        }
    }
    if (!util_init("papi_version"))
        return 1;
    char version[64];
    util_version_string(version, sizeof version);
    if (!json) {
        printf("PAPI Version: %s\n", version);
        return 0;
    }
    int v = PAPI_get_opt(PAPI_LIB_VERSION, NULL);
    struct jw w;
    jw_init(&w, stdout);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "version", version);
    jw_int(&w, "major", PAPI_VERSION_MAJOR(v));
    jw_int(&w, "minor", PAPI_VERSION_MINOR(v));
    jw_int(&w, "revision", PAPI_VERSION_REVISION(v));
    jw_int(&w, "increment", PAPI_VERSION_INCREMENT(v));
    jw_obj_end(&w);
    return jw_finish(&w) == 0 ? 0 : 1;
}

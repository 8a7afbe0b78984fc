/* papi_version: the version of the PAPI library in use, as PAPI prints it. */
#include "util_common.h"

static const char usage[] =
    "Usage: papi_version [options]\n"
    "Print the version of the PAPI library in use (\"PAPI Version: 7.0.0.0\").\n\n"
    "Options:\n"
    "  --json       print the version as one JSON document\n"
    "  -h, --help   print this help\n";

int main(int argc, char **argv)
{
    int json;
    int status = util_start_json_only(argc, argv, "papi_version", usage, &json);
    if (status >= 0)
        return status;
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

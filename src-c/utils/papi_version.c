/* papi_version: the version of the PAPI library in use, as PAPI prints it, and the
 * release of this library (papi-compat) that implements it: a support request names
 * both. */
#include "util_common.h"

static const char usage[] =
    "Usage: papi_version [options]\n"
    "Print the PAPI API version of the library in use (\"PAPI Version: 7.0.0.0\", the line\n"
    "PAPI's scripts read) and the papi-compat release that implements it.\n\n"
    "Options:\n"
    "  --json       print the version as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n";

int main(int argc, char **argv)
{
    int json;
    int status = util_start_json_only(argc, argv, "papi_version", usage, &json);
    if (status >= 0)
        return status;
    char version[64];
    util_version_string(version, sizeof version);
    if (!json) {
        printf("PAPI Version: %s\npapi-compat Version: %s\n", version, PAPI_compat_version());
        return 0;
    }
    int v = PAPI_get_opt(PAPI_LIB_VERSION, NULL);
    struct jw w;
    jw_init(&w, stdout);
    jw_obj_begin(&w, NULL);
    jw_str(&w, "version", version);
    jw_str(&w, "papi_compat_version", PAPI_compat_version());
    jw_int(&w, "major", PAPI_VERSION_MAJOR(v));
    jw_int(&w, "minor", PAPI_VERSION_MINOR(v));
    jw_int(&w, "revision", PAPI_VERSION_REVISION(v));
    jw_int(&w, "increment", PAPI_VERSION_INCREMENT(v));
    jw_obj_end(&w);
    return jw_finish(&w) == 0 ? 0 : 1;
}

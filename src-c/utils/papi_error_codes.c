/* papi_error_codes: every PAPI error code with its number and text, in PAPI's layout
 * ("Error code  -7: ..."), so scripts that map numbers from logs keep working. */

#include "util_common.h"

static const char usage[] =
    "Usage: papi_error_codes [options]\n"
    "List every PAPI error code with its number and text.\n\n"
    "Options:\n"
    "  --json       print the codes as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n";

/* The C names, indexed by -code (the numbers are PAPI's). */
static const char *const names[PAPI_NUM_ERRORS] = {
    "PAPI_OK",       "PAPI_EINVAL",   "PAPI_ENOMEM",    "PAPI_ESYS",          "PAPI_ECMP",
    "PAPI_ECLOST",   "PAPI_EBUG",     "PAPI_ENOEVNT",   "PAPI_ECNFLCT",       "PAPI_ENOTRUN",
    "PAPI_EISRUN",   "PAPI_ENOEVST",  "PAPI_ENOTPRESET", "PAPI_ENOCNTR",      "PAPI_EMISC",
    "PAPI_EPERM",    "PAPI_ENOINIT",  "PAPI_ENOCMP",    "PAPI_ENOSUPP",       "PAPI_ENOIMPL",
    "PAPI_EBUF",     "PAPI_EINVAL_DOM", "PAPI_EATTR",   "PAPI_ECOUNT",        "PAPI_ECOMBO",
    "PAPI_ECMP_DISABLED", "PAPI_EDELAY_INIT", "PAPI_EMULPASS",
};

static const char *text_of(int code)
{
    const char *s = PAPI_strerror(code);
    return s ? s : "(no text)";
}

int main(int argc, char **argv)
{
    int json;
    int status = util_start_json_only(argc, argv, "papi_error_codes", usage, &json);
    if (status >= 0)
        return status;
    char version[64];
    util_version_string(version, sizeof version);
    if (json) {
        struct jw w;
        jw_init(&w, stdout);
        jw_obj_begin(&w, NULL);
        jw_str(&w, "papi_version", version);
        jw_arr_begin(&w, "error_codes");
        for (int i = 0; i < PAPI_NUM_ERRORS; i++) {
            jw_obj_begin(&w, NULL);
            jw_int(&w, "code", -i);
            jw_str(&w, "name", names[i]);
            jw_str(&w, "text", text_of(-i));
            jw_obj_end(&w);
        }
        jw_arr_end(&w);
        jw_obj_end(&w);
        return jw_finish(&w) == 0 ? 0 : 1;
    }
    printf("\n----------------------------------\n");
    printf("For PAPI Version: %s\n", version);
    printf("----------------------------------\n");
    for (int i = 0; i < PAPI_NUM_ERRORS; i++)
        printf("Error code %4d: %s\n", -i, text_of(-i));
    printf("There are %d error codes defined\n", PAPI_NUM_ERRORS);
    printf("----------------------------------\n\n");
    return 0;
}

/* sample_spec.c: EVENT[@PERIOD|@FREQhz] split and read (sample_spec.h). One case rule for
 * all three producers: the frequency's unit in any case, as papi_run always took it (the
 * region API and the MPI wrapper took hz and Hz only; both spellings still work). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sample_spec.h"

int sample_spec_parse(const char *text, struct sample_spec *out)
{
    const char *at = strrchr(text, '@');
    out->event = text;
    out->event_len = at ? (size_t)(at - text) : strlen(text);
    out->n = SAMPLE_SPEC_DEFAULT_HZ;
    out->hz = 1;
    if (!at)
        return 0;
    char *end;
    int saved = errno;
    errno = 0;
    out->n = strtoll(at + 1, &end, 10);
    int overflow = errno != 0;
    errno = saved;
    out->hz = strcasecmp(end, "hz") == 0;
    if (end == at + 1 || overflow || (*end && !out->hz))
        return -1;
    return 0;
}

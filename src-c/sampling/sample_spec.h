/* sample_spec.h: the one parser of a sampling spec, EVENT[@PERIOD|@FREQhz] (sample_spec.c),
 * for PAPI_SAMPLE (the region API, the MPI wrapper) and papi_run --sample. Each caller
 * keeps its own limits and words for a refusal; the grammar is here only. */
#ifndef PAPI_SAMPLE_SPEC_H
#define PAPI_SAMPLE_SPEC_H

#include <stddef.h>

#define SAMPLE_SPEC_DEFAULT_HZ 999 /* EVENT alone: sampled at 999 Hz */

struct sample_spec {
    const char *event; /* into the text parsed: event_len bytes, not terminated */
    size_t event_len;  /* the text before the last '@' (all of it without one); may be 0 */
    long long n;       /* the period, or the frequency when hz; as written (sign kept) */
    int hz;            /* a frequency: the number ends in hz, in any case (Hz, HZ ...) */
};

/* Splits text at its last '@': EVENT, EVENT@N (a period) or EVENT@Nhz (a frequency).
 * Returns 0, or -1 when what follows '@' is not a decimal number (optionally followed by
 * hz) that fits in a long long; out is filled in either case. Never touches errno's
 * meaning for the caller (saved and restored). */
__attribute__((visibility("hidden"))) int sample_spec_parse(const char *text,
                                                            struct sample_spec *out);

#endif

/* util_events.h: event helpers the utilities share: describe one event (text or JSON)
 * and test whether an event can really be added to an event set. */
#ifndef UTIL_EVENTS_H
#define UTIL_EVENTS_H

#include "util_common.h"

/* Print every field of an event's PAPI_event_info_t (papi_avail -e, papi_native_avail -e). */
void util_event_describe_text(FILE *f, const PAPI_event_info_t *info);
void util_event_describe_json(struct jw *w, const char *key, const PAPI_event_info_t *info);

/* Resolve a name (preset or native) and fetch its info. Returns a PAPI error code and
 * fills why on failure. */
int util_event_lookup(const char *name, int *code, PAPI_event_info_t *info, char *why,
                      size_t whylen);

/* Create an event set with code alone (plus the codes in with[0..nwith)), then destroy it.
 * Returns PAPI_OK, or the error with its detail in why. */
int util_event_try_add(int code, const int *with, int nwith, char *why, size_t whylen);

/* Whether a preset's info says it is available here / derived. */
int util_preset_available(const PAPI_event_info_t *info);
/* The event's note whole: PAPI_event_info_t.note holds PAPI_HUGE_STR_LEN - 1 bytes of an
 * unavailable preset's reason; a longer one comes from PAPI_strerror_detail() after
 * PAPI_query_event fails. Valid until the next call. */
const char *util_event_note(const PAPI_event_info_t *info);
int util_preset_derived(const PAPI_event_info_t *info);

#endif

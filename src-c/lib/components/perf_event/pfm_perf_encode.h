/* pfm_perf_encode.h: libpfm4 event string -> kernel perf_event_attr bytes. */
#ifndef PFM_PERF_ENCODE_H
#define PFM_PERF_ENCODE_H
#include <stddef.h>

/* Encode name for privilege levels plm (PFM_PLM*). Returns a libpfm4 error code
 * (PFM_SUCCESS = 0). *fstr, when fstr is not NULL, receives the fully qualified name
 * (malloc'd, the caller frees). */
__attribute__((visibility("hidden"))) int pfm_perf_encode(const char *name, int plm, void *attr_out,
                                                          size_t attr_size, char **fstr, int *idx);
#endif

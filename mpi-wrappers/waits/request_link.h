/* request_link.h: which Wait/Test record completed which request (event_log.h), for the
 * wait states and the trace alike. */
#ifndef PAPI_MPI_REQUEST_LINK_H
#define PAPI_MPI_REQUEST_LINK_H

#include <stdint.h>

#include "event_record.h"

/* link[i] for the n records ev[0..n): for a record that made a request (an I-call, a
 * persistent start), the Wait record that completed it; for a Wait record, the record
 * whose request it completed; -1 otherwise. Returns 0, or -1 without memory (then every
 * link[i] is -1). */
int pmpi_link_requests(const struct pmpi_event *ev, long long n, int64_t *link);

#endif

/* region_file_head.h: the opening members of a region file in PAPI 7's schema
 * (papi_hl_report(5)), written alike by the region API's report and by papi_run. */
#ifndef REGION_FILE_HEAD_H
#define REGION_FILE_HEAD_H

#include <stddef.h>

#include "json_writer.h"
#include "run_identity.h"

/* One counted event: its name, the component that counts it, its type, "instant" or
 * "delta" (NULL: delta), its unit ("" none; NULL: not written) and scope, "thread" or
 * "device" (NULL: not written; see region.schema.json). */
struct region_file_event {
    const char *name, *component, *type, *units, *scope;
};

/* papi_version, papi_compat_version (release), event_definitions (each event's component,
 * type, "delta" unless said, units and scope where given), rank and rank_source (both left
 * out when rank < 0: the writer names the file by its "pid" then), and run:
 * {id, command, start, host, cpu, version} (left out when run is NULL). */
__attribute__((visibility("hidden"))) void region_file_head(struct jw *w, const char *release,
                                                            const struct region_file_event *ev,
                                                            int n, int rank,
                                                            const char *rank_source,
                                                            const struct run_identity *run);

#endif

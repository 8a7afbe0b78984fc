/* site_names.h: the names (file:line) of the call sites the event log file's records use
 * (site_names.c), written once each in the file's lines ("sites",
 * schema/mpi_event_log.schema.json), so papi_report names a dead job's sites as a
 * finished job's report does: a record's site is a return address in its rank's
 * process, which address-space randomisation makes differ between ranks and runs.
 *
 * Named in the rank, by the one symbolizer (recording/site_resolve.c, libdw), and only
 * where that is safe: by the checkpoint thread and by an exit path in normal context
 * (exit, MPI_Abort), never on a signal's exit path (libdw allocates and locks), nor on
 * the hot path. A site first used after the last append that could name left unnamed
 * (papi_report then shows its address). Only the append that holds the file's lock
 * (event_log_file.c's busy) calls these. */
#ifndef PAPI_MPI_SITE_NAMES_H
#define PAPI_MPI_SITE_NAMES_H

#include <stdint.h>

#include "json_writer.h"

/* A name's bytes: "file:line" (the file's last component), cut. */
#define PMPI_SITE_NAME 128

/* One call site's name (a return address in this process), "" unknown: normal context
 * only (the delay analysis's causes, at MPI_Finalize). */
void pmpi_site_name_of(uint64_t site, char out[PMPI_SITE_NAME]);
/* The sites of the finished records [lo, hi) not seen before, named (libdw): normal
 * context only. */
void pmpi_site_names_learn(long long lo, long long hi);
/* The names learnt and not yet written, as the line's "sites" member (none: nothing
 * written); at most a bounded number per line, the rest in later lines. */
void pmpi_site_names_put(struct jw *w);
/* The line pmpi_site_names_put wrote into is in the file: its names are not written again. */
void pmpi_site_names_sent(void);

#endif

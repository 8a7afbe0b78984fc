/* trace_export.h: PAPI_MPI_TRACE=json|otf2, the job's timeline written at MPI_Finalize
 * (trace_export.c) from every rank's event log (event_log.h), beside the report in
 * PAPI_MPI_OUTPUT_DIR, every rank writing its own part: papi_mpi_trace.ranks/ (a JSON
 * file per rank) with the index papi_mpi_trace.index.json (and, for at most 64 ranks,
 * papi_mpi_trace.json, the files as one), or the OTF2 archive papi_mpi_trace/ (anchor
 * papi_mpi_trace/traces.otf2), through the project's trace writer
 * (src-c/common/trace_writer.h). */
#ifndef PAPI_MPI_TRACE_EXPORT_H
#define PAPI_MPI_TRACE_EXPORT_H

/* Collective, at MPI_Finalize after the wait states were computed (the log's times on
 * rank 0's clock need the offsets measured then) and the log closed (log->on 0).
 * Every rank calls it; nothing is written unless PAPI_MPI_TRACE asks for a trace. A bad value, a log that is off, a missing libotf2 or a failed
 * write: one line from rank 0, and the report is written all the same. ns_per_tick:
 * the run's pmpi_ticks() ratio; report_failed: the report was not published (the lines
 * then say so, and a trace written says that it alone was); waits: pmpi_waits_compute's
 * result (not done: no trace, said). */
struct pmpi_wait_result;
struct pmpi_event_log;
/* At MPI_Finalize, before the finalize agreement round (finalize_agreement.h): whether
 * rank 0's PAPI_MPI_TRACE asks for a trace at all travels in it, so that a job without
 * one (the default) spends no broadcast on its format. Returns its handle, for
 * pmpi_trace_export (asked: -1, unprepared, is a broadcast always). */
int pmpi_trace_prepare(void);
void pmpi_trace_export(const struct pmpi_event_log *log, double ns_per_tick, int report_failed,
                       const struct pmpi_wait_result *waits, int asked);
/* The checkpoint thread, after the event log's append (PAPI_MPI_CHECKPOINT): with
 * PAPI_MPI_TRACE=otf2, this rank's records up to that append (those the log's file has)
 * as a serial OTF2 archive of its own, PAPI_MPI_OUTPUT_DIR/papi_mpi_trace.rank<N>.checkpoint/
 * (replaced whole at each checkpoint that has new records), so a rank killed after a
 * checkpoint leaves its locations up to it; MPI_Finalize removes it (the job's archive
 * follows). Off the MPI call path; a failure said once on stderr. */
void pmpi_trace_checkpoint(void);

#endif

/* event_log_file.h: the event log (event_log.h) appended to the rank's own file at each
 * checkpoint and by the exit path of a rank that dies (event_log_file.c), so a job killed
 * before MPI_Finalize still gives its wait states and a trace up to then
 * (papi_report --merge-trace DIR); at MPI_Finalize where PAPI_MPI_KEEP_EVENT_LOG=1, so a
 * finished job's give its root causes and critical path (papi_report --advise DIR). The
 * file is papi_mpi_rank<N>.events.jsonl: one JSON object per line
 * (schema/mpi_event_log.schema.json), each holding the records since the line before. */
#ifndef PAPI_MPI_EVENT_LOG_FILE_H
#define PAPI_MPI_EVENT_LOG_FILE_H

/* Appends the records not yet in the file to it, in the output directory dir; reason is
 * "checkpoint" or the exit path's reason. exit_path: 1 for an exit path (it waits up to
 * 1 s for a checkpoint's append to end), 0 for the checkpoint thread (which skips when an
 * exit path is appending). in_signal: 1 on a signal's exit path, where no call site is
 * named (site_names.h: libdw allocates); otherwise the new sites are named first.
 * Async-signal-safe when in_signal: no allocation, no lock, plain write(2).
 * Returns 0, or -1 when nothing could be written (said on stderr). */
int pmpi_log_file_append(int dir, const char *reason, int exit_path, int in_signal);
/* MPI_Finalize reached (the checkpoint thread stopped): the file removed, if this rank
 * made one; with PAPI_MPI_KEEP_EVENT_LOG=1 the records not yet in it appended instead
 * (reason "MPI_Finalize") and the file kept, so a finished job's logs give papi_report
 * --advise, the root causes and the merged trace's causes as a dead job's do. */
void pmpi_log_file_finished(int (*open_dir)(void));

#endif

/* region_file_head.c: the opening members of a region file (region_file_head.h). */
#include "region_file_head.h"

void region_file_head(struct jw *w, const char *release, const struct region_file_event *ev, int n,
                      int rank, const char *rank_source, const struct run_identity *run)
{
    jw_str(w, "papi_version", "7.0.0.0");
    jw_str(w, "papi_compat_version", release);
    jw_obj_begin(w, "event_definitions");
    for (int i = 0; i < n; i++) {
        jw_obj_begin(w, ev[i].name);
        jw_str(w, "component", ev[i].component);
        jw_str(w, "type", ev[i].type ? ev[i].type : "delta");
        if (ev[i].units)
            jw_str(w, "units", ev[i].units);
        if (ev[i].scope)
            jw_str(w, "scope", ev[i].scope);
        jw_obj_end(w);
    }
    jw_obj_end(w);
    if (rank >= 0) { /* none without MPI: the pid in the file's name is "pid", not a rank */
        jw_int(w, "rank", rank);
        jw_str(w, "rank_source", rank_source);
    }
    if (run) {
        jw_obj_begin(w, "run");
        jw_str(w, "id", run->id);
        jw_str(w, "command", run->command);
        jw_str(w, "start", run->start);
        jw_str(w, "host", run->host);
        jw_str(w, "cpu", run->cpu ? run->cpu : "");
        jw_str(w, "version", run->version ? run->version : "");
        jw_obj_end(w);
    }
}

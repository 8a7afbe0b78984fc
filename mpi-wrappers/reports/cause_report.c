/* cause_report.c: the report's root causes and critical path (cause_report.h), as the
 * ranks' replay at MPI_Finalize found them (waits/cause_replay.c): the "root_causes" and
 * "critical_path" members and the banner's lines, on rank 0. The rows' names and columns
 * are papi_report's tables' (mpi_root_causes.csv, mpi_critical_path.csv). */
#include <math.h>
#include <string.h>

#include "cause_report.h"
#include "cause_replay.h"
#include "json_writer.h"
#include "state.h"

/* A wait kind's name as the tables give it ("late_sender"): its report key without
 * the unit. */
static void kind_text(int kind, char *out, size_t cap)
{
    const char *k = kind >= 0 && kind < PMPI_WAIT_KINDS ? pmpi_wait_names[kind] : "?";
    size_t n = strlen(k);
    if (n > 2 && strcmp(k + n - 2, "_s") == 0)
        n -= 2;
    snprintf(out, cap, "%.*s", (int)n, k);
}

static const char *call_text(int call)
{
    return call >= 0 && call < PMPI_NCALLS ? pmpi_calls[call].name : "?";
}

static double imbalance(const struct pmpi_path_row *p)
{
    return p->path > p->mean ? p->path - p->mean : 0;
}

void pmpi_cause_report_json(struct jw *w, const struct pmpi_cause_result *c, const char *off)
{
    jw_obj_begin(w, "root_causes");
    jw_bool(w, "computed", c && c->computed);
    if (!c || !c->computed) {
        jw_str(w, "why", c ? (c->why ? c->why : "not computed") : off);
        jw_obj_end(w);
        return;
    }
    jw_fixed(w, "seconds", c->seconds, 6);
    jw_int(w, "messages", c->messages);
    jw_fixed(w, "waits_s", c->waits * 1e-9, 9);
    jw_fixed(w, "explained_s", c->explained * 1e-9, 9);
    jw_fixed(w, "residual_s", c->residual * 1e-9, 9);
    jw_bool(w, "conserved", pmpi_causes_conserved(c));
    jw_arr_begin(w, "rows");
    for (int i = 0; i < c->nrows; i++) {
        const struct pmpi_cause_row *r = &c->rows[i];
        char kind[64];
        kind_text(r->kind, kind, sizeof kind);
        jw_break(w, "\n  ");
        jw_obj_begin(w, NULL);
        jw_int(w, "cause_rank", r->cause_rank);
        jw_str(w, "cause", r->cause);
        jw_str(w, "cause_site", r->site);
        jw_str(w, "wait_kind", kind);
        jw_str(w, "wait_call", call_text(r->call));
        jw_str(w, "wait_ranks", r->ranks);
        jw_fixed(w, "direct_s", r->direct * 1e-9, 9);
        jw_fixed(w, "propagated_s", r->prop * 1e-9, 9);
        jw_fixed(w, "total_s", (r->direct + r->prop) * 1e-9, 9);
        jw_fixed(w, "waited_s", r->waited * 1e-9, 9);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    jw_break(w, "\n");
    jw_obj_begin(w, "critical_path");
    jw_fixed(w, "total_s", c->path_total * 1e-9, 9);
    jw_fixed(w, "wall_s", (c->end - c->first) * 1e-9, 9);
    jw_fixed(w, "start_up_s", (c->start - c->first) * 1e-9, 9);
    jw_fixed(w, "residual_s", c->path_residual * 1e-9, 9);
    jw_arr_begin(w, "rows");
    for (int i = 0; i < c->npath; i++) {
        const struct pmpi_path_row *p = &c->path[i];
        jw_break(w, "\n  ");
        jw_obj_begin(w, NULL);
        jw_str(w, "activity", p->activity);
        jw_str(w, "site", p->site);
        jw_str(w, "path_ranks", p->ranks);
        jw_fixed(w, "path_s", p->path * 1e-9, 9);
        jw_fixed(w, "mean_s", p->mean * 1e-9, 9);
        jw_fixed(w, "max_s", p->max * 1e-9, 9);
        jw_fixed(w, "imbalance_s", imbalance(p) * 1e-9, 9);
        jw_fixed(w, "saving_bound_s", imbalance(p) * 1e-9, 9);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

static int many(const char *ranks)
{
    return strchr(ranks, ',') || strchr(ranks, '-') || strstr(ranks, "others");
}

void pmpi_cause_report_print(FILE *out, const struct pmpi_cause_result *c)
{
    if (!c)
        return;
    if (!c->computed) {
        fprintf(out, "papi_mpi: root causes and critical path not computed: %s\n",
                c->why ? c->why : "?");
        return;
    }
    fprintf(out,
            "papi_mpi: root causes (backward replay at MPI_Finalize, %lld messages, %.3f ms): "
            "%.6f s of waiting, %.6f s explained, %.6f s residual%s\n",
            c->messages, c->seconds * 1e3, c->waits * 1e-9, c->explained * 1e-9, c->residual * 1e-9,
            pmpi_causes_conserved(c) ? "" : " (NOT CONSERVED: the costs do not add up)");
    for (int i = 0; i < c->nrows && i < 3; i++) {
        const struct pmpi_cause_row *r = &c->rows[i];
        char kind[64];
        kind_text(r->kind, kind, sizeof kind);
        fprintf(out,
                "papi_mpi: %.2f s of waiting in %s (%s) on rank%s %s is caused by `%s`%s%s%s on "
                "rank %d: %.2f s direct, %.2f s propagated\n",
                (r->direct + r->prop) * 1e-9, call_text(r->call), kind, many(r->ranks) ? "s" : "",
                r->ranks, r->cause, r->site[0] ? " (" : "", r->site, r->site[0] ? ")" : "",
                r->cause_rank, r->direct * 1e-9, r->prop * 1e-9);
    }
    fprintf(out,
            "papi_mpi: critical path: %.6f s on the path, the run's wall time %.6f s (first "
            "record to last), %.6f s of it start-up; clock residual %.6f s\n",
            c->path_total * 1e-9, (c->end - c->first) * 1e-9, (c->start - c->first) * 1e-9,
            c->path_residual * 1e-9);
    for (int i = 0; i < c->npath && i < 3; i++) {
        const struct pmpi_path_row *p = &c->path[i];
        fprintf(out,
                "papi_mpi: critical path: %.2f s in `%s`%s%s%s on rank%s %s; mean %.2f s per "
                "rank, imbalance %.2f s: removing it saves at most %.2f s\n",
                p->path * 1e-9, p->activity, p->site[0] ? " (" : "", p->site, p->site[0] ? ")" : "",
                many(p->ranks) ? "s" : "", p->ranks, p->mean * 1e-9, imbalance(p) * 1e-9,
                imbalance(p) * 1e-9);
    }
}

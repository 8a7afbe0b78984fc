/* validate_report.c: papi_validate's table (one line per check, so scripts can grep a
 * verdict) and its JSON document (the header of the other utilities' --json, the
 * kernels' ISA, the tolerances and every row). */
#include "validate_report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util_common.h"

int vo_open(struct vo_file *o, const char *path, char *why, size_t len)
{
    memset(o, 0, sizeof *o);
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    int dlen = slash ? (int)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    if (!*base || strlen(path) + 16 >= sizeof o->tmp) {
        snprintf(why, len, "--json %s: not a file name", path);
        return -1;
    }
    snprintf(o->path, sizeof o->path, "%s", path);
    snprintf(o->tmp, sizeof o->tmp, "%.*s/.%s.XXXXXX", slash == path ? 0 : dlen, dir, base);
    int fd = mkstemp(o->tmp);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        snprintf(why, len, "--json %s: cannot create a file in its directory: %s", path,
                 strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        return -1;
    }
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um); /* as a file the user created (mkstemp makes 0600) */
    return 0;
}

void vo_abort(struct vo_file *o)
{
    if (!o->f)
        return;
    fclose(o->f);
    unlink(o->tmp);
    o->f = NULL;
}

static void json_row(struct jw *w, const struct vr_row *r)
{
    jw_obj_begin(w, NULL);
    jw_str(w, "kernel", r->kernel);
    jw_str(w, "event", r->event);
    jw_str(w, "kind", r->is_metric ? "metric" : "preset");
    jw_int(w, "iterations", r->iterations);
    jw_double(w, "expected", r->expected);
    if (r->res.verdict == VD_NOT_COUNTABLE || r->res.verdict == VD_NO_KERNEL)
        jw_null(w, "counted");
    else
        jw_double(w, "counted", r->counted);
    jw_double(w, "ratio", r->res.ratio);
    jw_double(w, "tolerance", r->res.tolerance);
    if (r->is_metric)
        jw_double(w, "seconds", r->seconds);
    jw_str(w, "verdict", vd_verdict_name(r->res.verdict));
    jw_str(w, "reason", r->res.why);
    jw_obj_end(w);
}

static void json_document(struct jw *w, const struct vr_run *run, int status)
{
    jw_obj_begin(w, NULL);
    jw_str(w, "tool", "papi_validate");
    util_json_header(w);
    jw_str(w, "isa", vk_isa());
    jw_int(w, "iterations", run->iterations);
    jw_int(w, "repeats", run->repeats);
    jw_obj_begin(w, "exact_tolerance");
    jw_double(w, "events", VR_TOL_ABS);
    jw_double(w, "relative", VR_TOL_REL);
    jw_obj_end(w);
    jw_double(w, "cache_tolerance", VK_CACHE_TOL);
    jw_double(w, "bandwidth_tolerance", VK_BW_TOL);
    jw_double(w, "metric_tolerance", VR_METRIC_TOL_REL);
    if (vk_mem_assumed())
        jw_str(w, "cache_sizes", vk_mem_assumed());
    jw_str(w, "working_sets", vk_mem_cap());
    jw_arr_begin(w, "rows");
    for (int i = 0; i < run->n; i++)
        json_row(w, &run->rows[i]);
    jw_arr_end(w);
    jw_int(w, "passed", run->passed);
    jw_int(w, "failed", run->failed);
    jw_int(w, "not_countable", run->not_countable);
    jw_int(w, "no_kernel", run->no_kernel);
    jw_int(w, "exit_status", status);
    jw_obj_end(w);
}

int vo_commit(struct vo_file *o, const struct vr_run *run, int status, char *why, size_t len)
{
    struct jw w;
    jw_init(&w, o->f);
    json_document(&w, run, status);
    int bad = jw_finish(&w) != 0 || fflush(o->f) != 0 || fsync(fileno(o->f)) != 0;
    int err = errno;
    bad = (fclose(o->f) != 0) || bad;
    o->f = NULL;
    if (!bad && rename(o->tmp, o->path) == 0)
        return 0;
    err = bad ? err : errno;
    unlink(o->tmp);
    snprintf(why, len, "--json %s: not written: %s", o->path, strerror(err));
    return -1;
}

#define MACHINE_MARK "[no hardware counters: see above]"

/* The machine's reason for having no hardware counters (perf_event's), when some row's
 * reason holds it: said once above the table, each row then refers to it. */
static const char *machine_reason(const struct vr_run *run)
{
    const char *m = PAPI_num_cmp_hwctrs(0) > 0 ? NULL : PAPI_get_component_reason(0);
    if (!m || strlen(m) < 40)
        return NULL; /* a short reason costs less said on each row */
    for (int i = 0; i < run->n; i++)
        if (strstr(run->rows[i].res.why, m))
            return m;
    return NULL;
}

static void print_row(FILE *f, const struct vr_row *r, const char *machine)
{
    const char *v = vd_verdict_name(r->res.verdict);
    if (r->res.verdict == VD_NOT_COUNTABLE || r->res.verdict == VD_NO_KERNEL) {
        const char *why = r->res.why, *at = machine ? strstr(why, machine) : NULL;
        fprintf(f, "%-17s %-13s %14s %14s %7s %10s  %s (", r->kernel, r->event, "-", "-", "-", "-",
                v);
        fputs(at ? MACHINE_MARK : why, f); /* the whole reason stays in --json */
        fputs(")\n", f);
        return;
    }
    if (r->is_metric && fabs(r->expected) < 1e4) /* IPC 0.0625, a ratio: its digits */
        fprintf(f, "%-17s %-13s %14.6g %14.6g %7.3f %10.3g  %s", r->kernel, r->event, r->expected,
                r->counted, r->res.ratio, r->res.tolerance, v);
    else
        fprintf(f, "%-17s %-13s %14.0f %14.0f %7.3f %10.0f  %s", r->kernel, r->event, r->expected,
                r->counted, r->res.ratio, r->res.tolerance, v);
    if (r->res.verdict == VD_FAIL)
        fprintf(f, " (%s)", r->res.why);
    fputc('\n', f);
}

int vo_print_table(FILE *f, const struct vr_run *run)
{
    const char *machine = machine_reason(run);
    if (machine) {
        util_print_no_counters(f);
        fprintf(f,
                "Rows below say %s for this reason (--json FILE keeps each row's whole "
                "reason).\n%s\n",
                MACHINE_MARK, UTIL_RULE);
    }
    fprintf(f,
            "Counts: %ld and %ld iterations per kernel, differenced (median of %d); "
            "exact tolerance %.0f events + %.1f%% of expected\n"
            "Cache class (chase_*, tlb_pages, itlb_pages): within %.0f%% of the expected misses; "
            "bandwidth "
            "(stream_*): within %.0f%%\n",
            run->iterations, 2 * run->iterations, run->repeats, VR_TOL_ABS, VR_TOL_REL * 100,
            VK_CACHE_TOL * 100, VK_BW_TOL * 100);
    if (vk_mem_assumed())
        fprintf(f, "Cache sizes: %s\n", vk_mem_assumed());
    fprintf(f, "Working sets: %s\n", vk_mem_cap());
    fprintf(f,
            "Metrics: one run of %ld iterations; rates (per second) within the same tolerance; a "
            "formula on the kernel's known counts within %.1f%% (or its class's)\n\n",
            2 * run->iterations, VR_METRIC_TOL_REL * 100);
    fprintf(f, "%-17s %-13s %14s %14s %7s %10s  %s\n", "Kernel", "Event", "Expected", "Counted",
            "Ratio", "Tolerance", "Verdict");
    for (int i = 0; i < run->n; i++)
        print_row(f, &run->rows[i], machine);
    fprintf(f, "\n%d passed, %d failed, %d not countable here, %d metrics with no kernel\n",
            run->passed, run->failed, run->not_countable, run->no_kernel);
    return machine != NULL;
}

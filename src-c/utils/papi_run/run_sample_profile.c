/* run_sample_profile.c: a process's profile at its exit, in papi_run's output directory:
 * profile_RUNID_PID.json (profile_RUNID_PID_execN.json for the images it exec'd from;
 * schema/profile.schema.json: the run header, the sampled event
 * and its period or frequency, the call-graph mode, the frames named once, each thread's
 * distinct stacks with their counts, the drops) and .sample_RUNID_PID.txt, the same
 * stacks, counts and run header as a stacks block papi_run merges (run_sample_stacks.h,
 * written by handover_print). Both are written under a temporary name and renamed whole. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "handover_file.h"
#include "json_writer.h"
#include "output_file.h"
#include "profile_writer.h"
#include "run_identity.h"
#include "run_sample.h"
#include "run_sample_header.h"
#include "run_sample_profile.h"
#include "run_sample_stacks.h"

static FILE *open_new(int dirfd, const char *final, char *tmp, size_t len)
{
    int fd = output_file_create(dirfd, final, tmp, len);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (fd >= 0 && !f) {
        close(fd);
        output_file_discard(dirfd, tmp);
    }
    return f;
}

static void write_header(struct jw *w, const struct rs_config *c, const struct stack_table *t,
                         const char *note)
{
    struct run_identity r;
    const char *source;
    int rank = run_launcher_rank(&source);
    run_identity_self(&r, "", "");
    jw_str(w, "kind", "profile");
    jw_obj_begin(w, "run");
    jw_str(w, "id", c->id[0] ? c->id : r.id);
    jw_str(w, "command", r.command);
    jw_str(w, "start", r.start);
    jw_str(w, "host", r.host);
    jw_obj_end(w);
    jw_int(w, "pid", getpid());
    if (rank >= 0) {
        jw_int(w, "rank", rank);
        jw_str(w, "rank_source", source);
    } else {
        jw_null(w, "rank");
        jw_null(w, "rank_source");
    }
    jw_str(w, "sampled_event", c->name[0]);
    if (c->freq)
        jw_uint(w, "frequency_hz", c->value);
    else
        jw_uint(w, "period", c->value);
    jw_str(w, "call_graph", c->callchain == RS_CG_DWARF ? "dwarf" : c->callchain ? "fp" : "none");
    jw_str(w, "call_graph_reason", c->cg_reason);
    if (c->callchain == RS_CG_DWARF)
        jw_uint(w, "unwind_failures", t->unwind_failed);
    jw_bool(w, "kernel_frames", c->kernel);
    jw_arr_begin(w, "events");
    for (int i = 0; i <= c->nread; i++)
        jw_str(w, NULL, c->name[i]);
    jw_arr_end(w);
    jw_uint(w, "samples", t->samples);
    jw_uint(w, "lost_records", t->lost);
    jw_uint(w, "stack_cap", t->cap);
    jw_uint(w, "distinct_stacks", t->n);
    jw_uint(w, "dropped_samples", t->dropped);
    jw_uint(w, "dropped_weight", t->dropped_weight);
    jw_str(w, "notes", note);
    const char *metrics = env_get("PAPI_RUN_SAMPLE_METRICS");
    profile_metrics_write(w, metrics ? metrics : "", 1 + c->nread);
}

/* The frames' indices of every stack, root first, into idx (t->nips of them); -1 when
 * a name could not be stored. */
static int name_all(struct frame_names *s, const struct stack_table *t, long *idx)
{
    for (size_t k = 0; k < t->n; k++) {
        const struct stack_entry *st = &t->stack[k];
        for (uint32_t d = 0; d < st->depth; d++) {
            long i = frame_names_index(s, t->ips[st->first + d]);
            if (i < 0)
                return -1;
            idx[st->first + st->depth - 1 - d] = i;
        }
    }
    return 0;
}

static int write_json(FILE *f, const struct rs_config *c, const struct stack_table *t,
                      struct frame_names *s, const long *idx, const char *note)
{
    struct jw w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    write_header(&w, c, t, note);
    jw_arr_begin(&w, "frames");
    for (size_t i = 0; i < frame_names_count(s); i++) {
        const struct frame_name *fr = frame_names_get(s, i);
        profile_frame_write(&w, &(struct profile_frame){fr->name, fr->module, fr->file, fr->line});
    }
    jw_arr_end(&w);
    jw_arr_begin(&w, "stacks");
    for (size_t k = 0; k < t->n; k++) {
        const struct stack_entry *st = &t->stack[k];
        jw_obj_begin(&w, NULL);
        jw_int(&w, "tid", st->tid);
        jw_uint(&w, "samples", st->samples);
        profile_counts_write(&w, "counts", st->weight, 1 + c->nread);
        jw_arr_begin(&w, "frames");
        for (uint32_t d = 0; d < st->depth; d++)
            jw_int(&w, NULL, idx[st->first + d]);
        jw_arr_end(&w);
        jw_obj_end(&w);
    }
    jw_arr_end(&w);
    jw_obj_end(&w);
    return jw_finish(&w);
}

/* What the stacks block's items are written from (handover_save's ctx). */
struct block {
    const struct stack_table *t;
    struct frame_names *s;
    const long *idx;
    int nw;
    char **head; /* the items before the stacks, one line each */
    size_t nhead;
};

/* A stack's item (run_sample_stacks.h): its thread, samples, how many of the leaf name's
 * parts its leaf frame holds (code inlined into it: main;inlined_work), its weights and
 * names, then each name's place, ';' between them as between the names' parts: "" for the
 * outer names of an inlined chain and where debug information has none, else file:line. */
static void stack_item(FILE *f, const struct block *b, const struct stack_entry *st)
{
    const long *idx = b->idx + st->first;
    const struct frame_name *leaf = frame_names_get(b->s, (size_t)idx[st->depth - 1]);
    int parts = 1;
    for (const char *p = leaf->name; (p = strchr(p, ';')) != NULL; p++)
        parts++;
    fprintf(f, "stack %d %llu %d %u", st->tid, (unsigned long long)st->samples, parts,
            (unsigned)st->depth);
    for (int i = 0; i < b->nw; i++)
        fprintf(f, " %llu", (unsigned long long)st->weight[i]);
    for (uint32_t d = 0; d < st->depth; d++)
        fprintf(f, " %ld", idx[d]);
    fputc('\t', f);
    for (uint32_t d = 0; d < st->depth; d++) {
        const struct frame_name *fr = frame_names_get(b->s, (size_t)idx[d]);
        for (const char *p = fr->name; (p = strchr(p, ';')) != NULL; p++)
            fputc(';', f);
        if (fr->file)
            fprintf(f, "%s:%d", fr->file, fr->line);
        if (d + 1 < st->depth)
            fputc(';', f);
    }
    fputc('\n', f);
}

static const char *block_name(const void *ctx, int k)
{
    const struct block *b = ctx;
    return frame_names_get(b->s, (size_t)k)->name;
}

static void block_item(FILE *f, const void *ctx, size_t i)
{
    const struct block *b = ctx;
    if (i < b->nhead)
        fprintf(f, "%s\n", b->head[i]);
    else
        stack_item(f, b, &b->t->stack[i - b->nhead]);
}

/* The items before the stacks: the run's events, this process's counts, call graph, note
 * and rank, papi_run's run header and the -m metrics (run_sample_header.c), in text. */
static char *head_items(const struct rs_config *c, const struct stack_table *t, const char *note)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "events");
    for (int i = 0; i <= c->nread; i++)
        fprintf(f, "\t%s", c->name[i]);
    fprintf(f, "\ncounts %llu %llu %zu %llu\n", (unsigned long long)t->samples,
            (unsigned long long)t->lost, t->cap, (unsigned long long)t->dropped_weight);
    fprintf(f, "call_graph %s\t%s\n",
            c->callchain == RS_CG_DWARF ? "dwarf"
            : c->callchain              ? "fp"
                                        : "none",
            c->cg_reason);
    if (note[0])
        fprintf(f, "note %s\n", note);
    const char *source;
    fprintf(f, "rank %d\n", run_launcher_rank(&source));
    rs_header_write(f, env_get("PAPI_RUN_SAMPLE_RUN"), env_get("PAPI_RUN_SAMPLE_METRICS"));
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* .sample_RUNID_PID.txt's stacks block (run_sample_stacks.h) into f, the file's one block
 * (handover_print: the file is renamed whole, so no copy of it is made in memory first):
 * 0, or -1 when out of memory. */
static int write_block(FILE *f, const struct rs_config *c, const struct stack_table *t,
                       struct frame_names *s, const long *idx, const char *note)
{
    char *text = head_items(c, t, note);
    size_t n = 0;
    for (const char *p = text; p && (p = strchr(p, '\n')) != NULL; p++)
        n++;
    char **head = text ? malloc((n + 1) * sizeof *head) : NULL;
    int rc = -1;
    if (head) {
        char *save = NULL;
        size_t k = 0;
        for (char *l = strtok_r(text, "\n", &save); l && k < n; l = strtok_r(NULL, "\n", &save))
            head[k++] = l;
        struct block b = {t, s, idx, 1 + c->nread, head, k};
        handover_print(f, RS_STACKS_KIND, (long)getpid(), (int)frame_names_count(s), k + t->n,
                       t->dropped, block_name, block_item, &b);
        rc = 0;
    }
    free(head);
    free(text);
    return rc;
}

/* The files' names' end: "PID", or before an exec "PID_execN", the first N no earlier image
 * of this process took (its images run one after the other: no race). */
static void image_name(int dirfd, const struct rs_config *c, int before_exec, char *out, size_t len)
{
    snprintf(out, len, "%ld", (long)getpid());
    for (int n = 1; before_exec && n < 100000; n++) {
        char name[256];
        snprintf(out, len, "%ld_exec%d", (long)getpid(), n);
        snprintf(name, sizeof name, "profile_%s_%s.json", c->id, out);
        if (faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) != 0)
            break;
    }
}

static int write_profile(const struct rs_config *c, struct stack_table *t, const char *note,
                         int before_exec)
{
    char why[256], tmp[4096], final[256], all[2048], image[48];
    int dirfd = output_dir_open(c->dir, 0, why, sizeof why);
    if (dirfd < 0)
        return -1;
    struct frame_names *s = frame_names_open();
    long *idx = malloc((t->nips + 1) * sizeof *idx);
    int ret = -1;
    if (s && idx && name_all(s, t, idx) == 0) {
        snprintf(all, sizeof all, "%s%s%s", note, note[0] && frame_names_notes(s)[0] ? "; " : "",
                 frame_names_notes(s));
        ret = 0;
        image_name(dirfd, c, before_exec, image, sizeof image);
        for (int k = 0; k < 2; k++) {
            snprintf(final, sizeof final, k ? ".sample_%s_%s.txt" : "profile_%s_%s.json", c->id,
                     image);
            FILE *f = open_new(dirfd, final, tmp, sizeof tmp);
            if (!f) {
                ret = -1;
                continue;
            }
            int bad = k ? write_block(f, c, t, s, idx, all) : write_json(f, c, t, s, idx, all);
            if ((fclose(f) != 0) | bad || output_file_publish(dirfd, tmp, final) != 0) {
                output_file_discard(dirfd, tmp);
                ret = -1;
            }
        }
    }
    free(idx);
    frame_names_close(s);
    close(dirfd);
    return ret;
}

int rs_profile_write(const struct rs_config *c, struct stack_table *t, const char *note)
{
    return write_profile(c, t, note, 0);
}

int rs_profile_write_exec(const struct rs_config *c, struct stack_table *t, const char *note)
{
    return write_profile(c, t, note, 1);
}

/* lustre_component.c: the "lustre" component, a Lustre client's traffic per mounted file
 * system from its llite statistics, named as PAPI names them: lustre:::<fs>_llread and
 * lustre:::<fs>_llwrite (bytes: the sum column of the read_bytes and write_bytes lines of
 * llite/<fs>/stats) and lustre:::<fs>_wrong_readahead (pages read ahead and discarded:
 * "read but discarded" of read_ahead_stats), counted from PAPI_start. <fs> is the llite
 * directory's name (fsname-<superblock>). Lustre prints a line only once it has
 * samples: a missing line reads 0. The statistics are in /proc/fs/lustre/llite (Lustre
 * before 2.12), /sys/kernel/debug/lustre/llite or /sys/fs/lustre/llite (later): the
 * first that holds a file system is used. The engine is node_events.c. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "fsroot.h"
#include "node_events.h"

static const char *const llite_dirs[] = {
    "/proc/fs/lustre/llite",
    "/sys/kernel/debug/lustre/llite",
    "/sys/fs/lustre/llite",
};

struct lustre_stat {
    const char *suffix, *what, *file, *key, *units;
    int column;
};

/* PAPI's three events per file system; "read_bytes 4 samples [bytes] 1 4096 8192": the
 * sum is the 6th token. */
static const struct lustre_stat stats[] = {
    {"llread", "bytes read", "stats", "read_bytes", "bytes", 5},
    {"llwrite", "bytes written", "stats", "write_bytes", "bytes", 5},
    {"wrong_readahead", "pages read ahead and discarded", "read_ahead_stats", "read but discarded",
     "pages", 0},
};

/* One event of file system fs, when its file is there. */
static int add_stat(struct event_table *t, const char *dir, const char *fs,
                    const struct lustre_stat *st)
{
    char path[1024], name[512], descr[1280];
    snprintf(path, sizeof path, "%s/%s/%s", dir, fs, st->file);
    if (fsroot_access(path, 0) != 0)
        return PAPI_OK;
    snprintf(name, sizeof name, "%s_%s", fs, st->suffix);
    snprintf(descr, sizeof descr, "%s on this Lustre client (%s: '%s')", st->what, path, st->key);
    struct node_event ev = {.name = name,
                            .descr = descr,
                            .units = st->units,
                            .path = path,
                            .key = (char *)st->key,
                            .column = st->column,
                            .width = 64,
                            .scale = 1,
                            .absent_zero = 1};
    return node_table_add(t, &ev);
}

static int add_fs(struct event_table *t, const char *dir, const char *fs)
{
    int ret = PAPI_OK;
    for (size_t i = 0; i < sizeof stats / sizeof stats[0] && ret == PAPI_OK; i++)
        ret = add_stat(t, dir, fs, &stats[i]);
    return ret;
}

static int lustre_discover(struct event_table *t, char *reason, size_t len)
{
    int ret = PAPI_OK;
    for (size_t d = 0; d < sizeof llite_dirs / sizeof llite_dirs[0] && !t->n; d++) {
        struct dirent **list;
        int n = node_list_dir(llite_dirs[d], &list);
        for (int i = 0; i < n && ret == PAPI_OK; i++)
            ret = add_fs(t, llite_dirs[d], list[i]->d_name);
        if (n >= 0)
            node_free_list(list, n);
    }
    if (ret == PAPI_OK && t->n == 0) {
        snprintf(reason, len, "no Lustre client: no file system's stats under %s%s, %s%s or %s%s",
                 fsroot(), llite_dirs[0], fsroot(), llite_dirs[1], fsroot(), llite_dirs[2]);
        ret = PAPI_ECMP;
    }
    return ret;
}

static struct node_source lustre_source = {
    .common = {.prefix = "lustre:::",
               .description = "Lustre client file system traffic (llite stats)"},
    .discover = lustre_discover,
};

/* The instance the registry lists (components/registry.c). */
struct papi_component lustre_component PAPI_INTERNAL = NODE_COMPONENT("lustre", lustre_source);

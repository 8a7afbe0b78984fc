/* site_names.c: the event log file's names of call sites (site_names.h). A fixed table
 * (open addressing, SITE_CAP sites, no allocation): a site past it stays unnamed. Sites
 * are named in batches of one object file each (one libdw open per object and learn).
 * put() only reads the table and formats with no library call, so an exit path in a
 * signal handler that holds the file's lock may still write the names learnt before. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "event_log.h"
#include "site_names.h"
#include "site_resolve.h"

#define SITE_CAP       2048 /* sites a rank names (a power of two) */
#define SITE_NAME      PMPI_SITE_NAME
#define BATCH          64  /* sites named per libdw open */
#define SITES_PER_LINE 256 /* at most 256 x ~800 bytes (escaped): a fifth of a line */

enum { EMPTY, UNRESOLVED, PENDING, SENT, UNNAMED };

struct site_name {
    uint64_t site;
    int state;
    char name[SITE_NAME];
};

static struct site_name table[SITE_CAP];
static int in_line[SITES_PER_LINE]; /* the slots the last put() wrote */
static int n_in_line;

/* The slot of site: its own, or an empty one for it; -1 when the table is full. */
static int slot_of(uint64_t site)
{
    uint64_t h = site * 0x9e3779b97f4a7c15ULL;
    for (int k = 0; k < SITE_CAP; k++) {
        int i = (int)((h >> 40) + (uint64_t)k) & (SITE_CAP - 1);
        if (table[i].state == EMPTY || table[i].site == site)
            return i;
    }
    return -1;
}

/* The bytes of s that fit in cap - 1, cut back to a character's start (a name cut inside
 * a UTF-8 sequence would make the line unreadable as JSON text). */
static size_t fit(const char *s, size_t cap)
{
    size_t len = strnlen(s, cap - 1);
    if (s[len])
        while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
            len--;
    return len;
}

/* "file:line" (the file's last component, as the report's call sites), or the function
 * where there is no line table; "" when neither is known. */
static void name_of(const struct pmpi_where *w, char *out)
{
    const char *file = strrchr(w->file, '/');
    file = file ? file + 1 : w->file;
    out[0] = 0;
    if (w->line > 0 && strcmp(file, "??") != 0) {
        size_t len = fit(file, SITE_NAME - 17); /* room for ":LINE" */
        snprintf(out, SITE_NAME, "%.*s:%d", (int)len, file, w->line);
    } else if (strcmp(w->function, "??") != 0) {
        size_t len = fit(w->function, SITE_NAME);
        memcpy(out, w->function, len);
        out[len] = 0;
    }
}

/* One batch: the UNRESOLVED sites of the first object holding one; 0 when none is left. */
static int name_batch(void)
{
    static long long offsets[BATCH];
    static int slots[BATCH];
    static struct pmpi_where where[BATCH];
    static char obj[4096], other[4096];
    int n = 0;
    for (int i = 0; i < SITE_CAP && n < BATCH; i++) {
        if (table[i].state != UNRESOLVED)
            continue;
        /* the call instruction before the return address, as the report's sites */
        long long off = pmpi_locate((uintptr_t)table[i].site - 1, n ? other : obj, sizeof obj);
        if (strcmp(n ? other : obj, "?") == 0) {
            table[i].state = UNNAMED; /* in no loaded object */
            continue;
        }
        if (n && strcmp(other, obj) != 0)
            continue; /* another object's: a later batch */
        offsets[n] = off;
        slots[n++] = i;
    }
    if (n == 0)
        return 0;
    pmpi_resolve_object(obj, offsets, where, (size_t)n);
    for (int k = 0; k < n; k++) {
        struct site_name *s = &table[slots[k]];
        name_of(&where[k], s->name);
        s->state = s->name[0] ? PENDING : UNNAMED;
    }
    return 1;
}

void pmpi_site_name_of(uint64_t site, char out[PMPI_SITE_NAME])
{
    char obj[4096];
    struct pmpi_where where;
    out[0] = 0;
    if (!site)
        return;
    long long off = pmpi_locate((uintptr_t)site - 1, obj, sizeof obj);
    if (strcmp(obj, "?") == 0)
        return;
    pmpi_resolve_object(obj, &off, &where, 1);
    name_of(&where, out);
}

void pmpi_site_names_learn(long long lo, long long hi)
{
    int fresh = 0;
    for (long long i = lo; i < hi; i++) {
        const struct pmpi_event *e = &pmpi_log.ev[i];
        if (__atomic_load_n(&e->kind, __ATOMIC_ACQUIRE) == 0)
            break; /* unfinished: the next append's */
        if (e->site == 0)
            continue; /* a region's or a counter's record */
        int k = slot_of(e->site);
        if (k >= 0 && table[k].state == EMPTY) {
            table[k].site = e->site;
            table[k].state = UNRESOLVED;
            fresh = 1;
        }
    }
    while (fresh && name_batch())
        ;
}

void pmpi_site_names_put(struct jw *w)
{
    n_in_line = 0;
    for (int i = 0; i < SITE_CAP && n_in_line < SITES_PER_LINE; i++) {
        if (table[i].state != PENDING)
            continue;
        if (n_in_line == 0)
            jw_obj_begin(w, "sites");
        char key[19] = "0x";
        int n = 0;
        char digits[16];
        for (uint64_t v = table[i].site & 0x7fffffffffffffffULL; v || n == 0; v >>= 4)
            digits[n++] = "0123456789abcdef"[v & 15];
        for (int d = 0; d < n; d++)
            key[2 + d] = digits[n - 1 - d];
        key[2 + n] = 0;
        jw_str(w, key, table[i].name);
        in_line[n_in_line++] = i;
    }
    if (n_in_line)
        jw_obj_end(w);
}

void pmpi_site_names_sent(void)
{
    for (int k = 0; k < n_in_line; k++)
        table[in_line[k]].state = SENT;
    n_in_line = 0;
}

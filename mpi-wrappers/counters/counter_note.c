/* counter_note.c: the note that says which events did not open and why. Each reason is
 * PAPI's whole explanation; when the machine has no PMU, every hardware event's reason
 * ends with the same few sentences on the missing PMU (about 400 bytes), which the note
 * repeated for each event. Here the longest run of closing sentences that two or more
 * reasons share is said once, after the list, and each event refers to it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter_note.h"

/* Shared text shorter than this is left in place: a reference would save nothing. */
#define MIN_SHARED 32
/* The banner quotes at most this much of a cause (a path can make one 4 KiB long). */
#define MAX_CAUSE 120

void pmpi_failed_add(struct pmpi_failed *f, const char *name, const char *error, const char *reason)
{
    if (f->n >= PMPI_MAX_EVENTS)
        return;
    snprintf(f->name[f->n], PMPI_NAME_LEN, "%s", name);
    snprintf(f->err[f->n], sizeof f->err[f->n], "%s", error);
    if (asprintf(&f->why[f->n], "%s%s%s", error, reason && *reason ? ": " : "",
                 reason && *reason ? reason : "") < 0)
        f->why[f->n] = NULL;
    f->n++;
}

void pmpi_failed_free(struct pmpi_failed *f)
{
    for (int i = 0; i < f->n; i++)
        free(f->why[i]);
    f->n = 0;
}

/* s starts a sentence of text: at its start or after ". ". */
static int sentence_start(const char *text, const char *s)
{
    return s == text || (s - text >= 2 && s[-2] == '.' && s[-1] == ' ');
}

/* Does why end with the sentences `tail` (len bytes), starting a sentence of its own? */
static int ends_with(const char *why, const char *tail, size_t len)
{
    size_t n = why ? strlen(why) : 0;
    return n >= len && memcmp(why + n - len, tail, len) == 0 && sentence_start(why, why + n - len);
}

/* The longest closing sentences shared by two or more reasons, or NULL. */
static const char *shared_tail(const struct pmpi_failed *f)
{
    const char *best = NULL;
    size_t best_len = MIN_SHARED - 1;
    for (int i = 0; i < f->n; i++)
        for (const char *s = f->why[i]; s && *s; s++) {
            size_t len = strlen(s);
            if (len <= best_len || !sentence_start(f->why[i], s))
                continue;
            int holders = 0;
            for (int j = 0; j < f->n; j++)
                holders += ends_with(f->why[j], s, len);
            if (holders >= 2) {
                best = s;
                best_len = len;
            }
        }
    return best;
}

/* One event: "NAME (why)", its share of `tail` replaced by a reference. */
static void put_event(FILE *out, const struct pmpi_failed *f, int i, const char *tail)
{
    const char *why = f->why[i] ? f->why[i] : "no memory to say why";
    size_t len = strlen(why), cut = tail ? strlen(tail) : 0;
    if (!tail || !ends_with(why, tail, cut)) {
        fprintf(out, "%s (%s)", f->name[i], why);
        return;
    }
    size_t head = len - cut;
    while (head > 0 && (why[head - 1] == ' ' || why[head - 1] == '.'))
        head--; /* the sentence before the tail loses its full stop, not its words */
    fprintf(out, "%s (%.*s%ssee note 1)", f->name[i], (int)head, why, head ? "; " : "");
}

/* The first sentence of text, without its full stop: its length. */
static size_t first_sentence(const char *text)
{
    const char *e = strstr(text, ". ");
    size_t n = e ? (size_t)(e - text) : strlen(text);
    while (n > 0 && text[n - 1] == '.')
        n--;
    return n;
}

/* The root of a reason "A: B: C" (each part explains the one before): the first clause
 * of its last part outside parentheses, at most MAX_CAUSE bytes; its length, 0 if none. */
static size_t root_cause(const char *why, const char **start)
{
    int depth = 0;
    *start = NULL;
    for (const char *s = why; *s; s++) {
        depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
        if (depth == 0 && s[0] == ':' && s[1] == ' ')
            *start = s + 2;
    }
    if (!*start)
        return 0;
    size_t n = strcspn(*start, "(,;.");
    while (n > 0 && (*start)[n - 1] == ' ')
        n--;
    return n > MAX_CAUSE ? MAX_CAUSE : n;
}

/* The banner's list: the events of the shared reason first, under its first sentence,
 * then each other one with its error and root cause. */
static void put_banner(FILE *out, const struct pmpi_failed *f, const char *tail)
{
    size_t cut = tail ? strlen(tail) : 0;
    int listed = 0;
    fputs("not counted: ", out);
    if (tail) {
        for (int i = 0; i < f->n; i++)
            if (ends_with(f->why[i], tail, cut))
                fprintf(out, "%s%s", listed++ ? ", " : "", f->name[i]);
        size_t n = first_sentence(tail);
        fprintf(out, " (%.*s%s)", n > MAX_CAUSE ? MAX_CAUSE : (int)n, tail,
                n > MAX_CAUSE ? " [...]" : "");
    }
    for (int i = 0; i < f->n; i++) {
        if (tail && ends_with(f->why[i], tail, cut))
            continue;
        const char *root = NULL;
        size_t n = f->why[i] ? root_cause(f->why[i], &root) : 0;
        fprintf(out, "%s%s (%s%s%.*s)", listed++ ? ", " : "", f->name[i], f->err[i], n ? ": " : "",
                (int)n, n ? root : "");
    }
}

/* The note's list: every event with its whole reason, a shared tail said once after. */
static void put_note(FILE *out, const struct pmpi_failed *f, const char *tail)
{
    for (int i = 0; i < f->n; i++) {
        fputs(i ? ", " : "", out);
        put_event(out, f, i, tail);
    }
}

/* before, the list put_list writes, after and (for the note) the shared tail, on the
 * heap; NULL when out of memory. */
static char *failed_text(const struct pmpi_failed *f, const char *before, const char *after,
                         void (*put_list)(FILE *, const struct pmpi_failed *, const char *),
                         int tail_after)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return NULL;
    const char *tail = shared_tail(f);
    fputs(before, out);
    put_list(out, f, tail);
    fputs(after, out);
    if (tail && tail_after)
        fprintf(out, "; note 1: %s", tail);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

char *pmpi_failed_banner(const struct pmpi_failed *f, const char *after)
{
    return failed_text(f, "", after, put_banner, 0);
}

char *pmpi_failed_note(const struct pmpi_failed *f, const char *before, const char *after)
{
    return failed_text(f, before, after, put_note, 1);
}

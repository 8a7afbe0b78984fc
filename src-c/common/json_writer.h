/* json_writer.h: the one JSON writer of the project (library region report, utilities'
 * --json, MPI wrapper report). Strings are escaped as RFC 8259 asks, and bytes that are
 * not valid UTF-8 become U+FFFD, so every document we write parses.
 *
 * Streaming form: keys are given for members of an object and NULL for elements of an
 * array. To a stream (jw_init): two-space indent. To a sink (jw_init_sink): one line
 * (but where jw_break starts one), members apart by ", ", written through the caller's
 * put, a few bytes at a time, nothing held back: the MPI wrapper's fixed
 * buffer (mpi-wrappers/output/text_buffer.h), which never allocates and, on overflow,
 * stops and marks itself cut (a cut buffer is never written to a file). Through a sink
 * the integer, seconds, boolean, null and string forms use no stdio and no allocation,
 * so a row is formatted the same at MPI_Finalize and in a signal handler; the double
 * forms format with snprintf (not async-signal-safe).
 * Buffer form (json_escape): for callers that cannot use stdio (signal handlers). */
#ifndef JSON_WRITER_H
#define JSON_WRITER_H

#include <stddef.h>
#include <stdio.h>

#define JW_MAX_DEPTH 16

struct jw {
    FILE *f;                                         /* jw_init's stream, or */
    void (*put)(void *arg, const char *s, size_t n); /* jw_init_sink's sink */
    void *put_arg;
    const char *gap; /* a sink's: what follows the next member's comma (jw_break) */
    int tight;       /* a sink's: no space after commas and colons (jw_tight) */
    int depth;
    int count[JW_MAX_DEPTH]; /* members written at each depth (for commas) */
};

void jw_init(struct jw *w, FILE *f);
/* A one-line writer whose text goes to put(arg, s, n), a piece at a time. */
void jw_init_sink(struct jw *w, void (*put)(void *arg, const char *s, size_t n), void *arg);
/* The writer goes on inside an object or array that another writer (or another piece of
 * the same file) opened and wrote 'members' members of: the next one takes its comma,
 * and jw_obj_end/jw_arr_end closes that one. */
void jw_resume(struct jw *w, int members);
/* A sink's members apart by "," and keys by ":", no space: a line of a .jsonl file. */
void jw_tight(struct jw *w);
/* A sink's next member starts on a line of its own: text (a newline and its indent)
 * follows its comma in place of the space. */
void jw_break(struct jw *w, const char *text);
void jw_obj_begin(struct jw *w, const char *key);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);
void jw_str(struct jw *w, const char *key, const char *value);
void jw_int(struct jw *w, const char *key, long long value);
void jw_uint(struct jw *w, const char *key, unsigned long long value);
void jw_hex(struct jw *w, const char *key, unsigned long long value); /* as "0x..." string */
void jw_double(struct jw *w, const char *key, double value);
/* value with that many decimals (seconds to the ns, a share): null when not finite. */
void jw_fixed(struct jw *w, const char *key, double value, int decimals);
/* value with that many significant digits (%.*g): null when not finite. */
void jw_digits(struct jw *w, const char *key, double value, int digits);
/* ns as seconds, exactly 9 decimals (integer arithmetic: async-signal-safe). */
void jw_secs(struct jw *w, const char *key, long long ns);
void jw_bool(struct jw *w, const char *key, int value);
void jw_null(struct jw *w, const char *key);
/* json, a whole JSON value another of the project's writers wrote (another process's
 * file), as the member's value, as it is: the caller has checked that it is whole. */
void jw_raw(struct jw *w, const char *key, const char *json);
/* Ends the document with a newline and flushes; returns 0, or -1 when any write to the
 * stream failed (full disk: the caller must not treat the file as complete). */
int jw_finish(struct jw *w);

/* v in decimal, at least min_digits digits, at the end of buf (no stdio, no allocation:
 * async-signal-safe): where the digits start; they end at buf + JW_DECIMAL_MAX. The
 * writer's and the wrapper's text buffer's integers both. */
#define JW_DECIMAL_MAX 24
char *jw_decimal(char buf[JW_DECIMAL_MAX], unsigned long long v, int min_digits);

/* A quoted JSON string for s (NULL reads as ""), written to f. */
void json_put_string(FILE *f, const char *s);

/* The escaped form of s, without quotes, into dst (always terminated when cap > 0).
 * Never splits an escape or a character; async-signal-safe (no allocation, no locale).
 * Returns the length the whole escaped string needs (excluding the terminator): a
 * result >= cap means it was cut. */
size_t json_escape(char *dst, size_t cap, const char *s);

#endif

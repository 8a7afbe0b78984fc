/* test_text_spool.c: rank 0's wait-report tables kept past a bound in an unnamed file
 * (mpi-wrappers/output/text_spool.c) come back whole and in order: 20,000 rows of
 * varying length through a spool of 1000 bytes give the same text as a growing buffer,
 * copied into a growing buffer and into a 512-byte sink (rank 0's report tail), with at
 * most the bound and one row held in memory, the directory left empty and the file's
 * descriptor closed by ts_free; with no directory, or a "directory" that is a regular
 * file (no file can be made there), the same text held in memory. No MPI. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text_buffer.h"
#include "text_spool.h"

static int fails;

static void check(int ok, const char *what)
{
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
    fails += !ok;
}

static void take(void *arg, const char *s, size_t n)
{
    tb_put(arg, s, n);
}

/* The rows into the spool (settled after each, as the fold does) and into want; the
 * most the spool held at once after a settle. */
static size_t fill(struct text_spool *s, struct tbuf *want)
{
    size_t held = 0;
    for (int i = 0; i < 20000; i++) {
        struct tbuf *t[2] = {&s->t, want};
        for (int k = 0; k < 2; k++) {
            tb_fmt(t[k], "%s{\"rank\": %d, \"wall_s\": %.9f", i ? ",\n  " : "\n  ", i, i * 1e-3);
            tb_raw(t[k], ", \"name\": ");
            struct jw w;
            tb_jw(&w, t[k]);
            jw_str(&w, NULL, i % 7 ? "a" : "a \"quoted\" name\twith a tab, longer than most");
            tb_raw(t[k], "}");
        }
        ts_settle(s);
        held = s->t.len > held ? s->t.len : held;
    }
    return held;
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return d ? n : -1;
}

/* The spool over dir (-1: none): its text equal to a growing buffer's, through a growing
 * buffer and a sink; whether it went to a file (spilled) as expected. */
static void run(const char *what, int dir, int spills, const char *path)
{
    struct text_spool s;
    struct tbuf want, got, out;
    char line[256], sinkmem[512];
    ts_init(&s, dir, 1000);
    tb_init_growing(&want, 16);
    size_t held = fill(&s, &want);
    snprintf(line, sizeof line, "%s: %s a file (%lld bytes spilled, %zu held at most)", what,
             spills ? "spilled to" : "kept in memory, not in", s.spilled, held);
    check(spills ? s.spilled > 0 && held < 1000 + 200 : s.spilled == 0 && s.t.len == want.len,
          line);
    tb_init_growing(&got, 16);
    ts_copy(&s, &got);
    snprintf(line, sizeof line, "%s: copied whole, in order (%zu of %zu bytes)", what, got.len,
             want.len);
    check(!got.cut && !want.cut && got.len == want.len && memcmp(got.s, want.s, want.len) == 0,
          line);
    tb_init_growing(&out, 16);
    tb_init_sink(&got, sinkmem, sizeof sinkmem, take, &out);
    ts_copy(&s, &got);
    tb_flush(&got);
    snprintf(line, sizeof line, "%s: through a 512-byte sink, the same (%zu bytes)", what, out.len);
    check(!got.cut && out.len == want.len && memcmp(out.s, want.s, want.len) == 0, line);
    if (path) {
        snprintf(line, sizeof line, "%s: no name left in the directory (%d)", what, entries(path));
        check(entries(path) == 0, line);
    }
    int fd = s.fd;
    ts_free(&s);
    snprintf(line, sizeof line, "%s: ts_free closes its file", what);
    check(fd < 0 || (fcntl(fd, F_GETFD) == -1 && errno == EBADF), line);
    free(want.s);
    free(out.s);
}

int main(void)
{
    char dir[] = "/tmp/test_text_spool.XXXXXX";
    if (!mkdtemp(dir))
        return 2;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    run("a directory", dfd, 1, dir);
    run("no directory", -1, 0, NULL);
    char file[sizeof dir + 8];
    snprintf(file, sizeof file, "%s/plain", dir);
    int ffd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    run("a regular file as the directory", ffd, 0, NULL);
    close(ffd);
    unlink(file);
    close(dfd);
    rmdir(dir);
    printf("test_text_spool: %s\n", fails ? "FAILED" : "PASSED");
    return fails != 0;
}

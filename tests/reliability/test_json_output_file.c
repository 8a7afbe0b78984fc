/* test_json_output_file: the one JSON writer and the safe output files of src-c/common.
 * Escaping (RFC 8259; invalid UTF-8 as U+FFFD; json_escape never splits an escape), a
 * write error reported by jw_finish (/dev/full), and output files: exclusive temporaries
 * that never follow a planted symlink, publishing that replaces a symlink rather than
 * writing through it, and another user's directory refused with its name. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_writer.h"
#include "output_file.h"
#include "papi_test.h" /* CHECK and test_done only: no library call */

static void check_escape(const char *in, const char *want)
{
    char buf[256];
    size_t need = json_escape(buf, sizeof buf, in);
    CHECK(strcmp(buf, want) == 0 && need == strlen(want), "escape of %s: got '%s', want '%s'",
          in, buf, want);
}

static void escaping(void)
{
    check_escape("plain", "plain");
    check_escape("q\"b\\", "q\\\"b\\\\");
    check_escape("tab\tnl\n\x01", "tab\\tnl\\n\\u0001");
    check_escape("caf\xc3\xa9", "caf\xc3\xa9");                  /* valid UTF-8 kept */
    check_escape("bad\xff\xfe", "bad\\ufffd\\ufffd");             /* invalid bytes */
    check_escape("cut\xe2\x82", "cut\\ufffd\\ufffd");             /* truncated sequence */
    check_escape("\xc0\xaf", "\\ufffd\\ufffd");                   /* overlong '/' */
    check_escape("\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd");        /* a surrogate */
    /* A small buffer: cut before an escape, never inside it, and the length says so. */
    char small[8];
    size_t need = json_escape(small, sizeof small, "abcde\xff");
    CHECK(strcmp(small, "abcde") == 0 && need == 11, "cut: '%s' need %zu", small, need);
}

static void write_error(void)
{
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        printf("note: no /dev/full, write-error check skipped\n");
        return;
    }
    struct jw w;
    jw_init(&w, f);
    jw_obj_begin(&w, NULL);
    for (int i = 0; i < 10000; i++)
        jw_str(&w, "k", "a value long enough to fill the stdio buffer");
    jw_obj_end(&w);
    CHECK(jw_finish(&w) == -1, "jw_finish reported success on a full device");
    fclose(f);
}

static void output_files(void)
{
    char top[] = "/tmp/papi_outfile_XXXXXX", why[512], tmp[256], path[512];
    if (!mkdtemp(top)) {
        CHECK(0, "mkdtemp: %s", strerror(errno));
        return;
    }
    snprintf(path, sizeof path, "%s/a/b", top);
    int dfd = output_dir_open(path, 1, why, sizeof why);
    CHECK(dfd >= 0, "output_dir_open(create) failed: %s", why);
    /* A victim file and a symlink planted at the final name. */
    snprintf(path, sizeof path, "%s/victim", top);
    FILE *v = fopen(path, "w");
    fputs("precious\n", v);
    fclose(v);
    snprintf(path, sizeof path, "%s/a/b/report.json", top);
    char victim[512];
    snprintf(victim, sizeof victim, "%s/victim", top);
    CHECK(symlink(victim, path) == 0, "symlink: %s", strerror(errno));
    int fd = output_file_create(dfd, "report.json", tmp, sizeof tmp);
    CHECK(fd >= 0 && tmp[0] == '.', "output_file_create: %s (tmp %s)", strerror(errno), tmp);
    CHECK(write(fd, "{}\n", 3) == 3, "write");
    close(fd);
    CHECK(output_file_publish(dfd, tmp, "report.json") == 0, "publish: %s", strerror(errno));
    struct stat st;
    CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 3,
          "the report is not the regular file written");
    char buf[32] = "";
    v = fopen(victim, "r");
    CHECK(v && fgets(buf, sizeof buf, v) && strcmp(buf, "precious\n") == 0,
          "the symlink's target was written: '%s'", buf);
    if (v)
        fclose(v);
    /* A planted symlink at a temporary name is never opened: O_EXCL|O_NOFOLLOW. */
    CHECK(symlinkat(victim, dfd, ".x.planted") == 0, "symlinkat");
    fd = openat(dfd, ".x.planted", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    CHECK(fd < 0 && errno == EEXIST, "O_EXCL|O_NOFOLLOW opened a planted name");
    /* Discarded temporaries leave nothing. */
    fd = output_file_create(dfd, "other.json", tmp, sizeof tmp);
    close(fd);
    output_file_discard(dfd, tmp);
    CHECK(faccessat(dfd, tmp, F_OK, AT_SYMLINK_NOFOLLOW) != 0, "discarded %s still exists", tmp);
    close(dfd);
    /* Another user's directory: refused, named in the reason (needs root to chown). */
    snprintf(path, sizeof path, "%s/theirs", top);
    mkdir(path, 0777);
    if (geteuid() == 0 && chown(path, 65534, 65534) == 0) {
        dfd = output_dir_open(path, 1, why, sizeof why);
        CHECK(dfd < 0 && strstr(why, path) && strstr(why, "65534"),
              "another user's directory accepted or not named: %s", why);
        if (dfd >= 0)
            close(dfd);
    } else {
        printf("note: not root, the other-user directory check is left to check_hl_output_safety\n");
    }
    /* A name too long for the temporary buffer. */
    CHECK(output_file_create(AT_FDCWD, "x", tmp, 5) < 0 && errno == ENAMETOOLONG, "short tmp");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    CHECK(system(cmd) == 0, "cleanup");
}

int main(void)
{
    escaping();
    write_error();
    output_files();
    return test_done("test_json_output_file");
}

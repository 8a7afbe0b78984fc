/* test_tree.h: copy and remove a recorded machine's tree (tests/machines/NAME) for the
 * tests that replay it through PAPI_FSROOT and rewrite its files between start and read.
 * Header-only, for tests; needs papi_test.h's CHECK before it. */
#ifndef PAPI_TEST_TREE_H
#define PAPI_TEST_TREE_H

#include <dirent.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static inline void copy_file(const char *from, const char *to)
{
    char buf[4096];
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ssize_t n;
    while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
        CHECK(write(out, buf, (size_t)n) == n, "copy %s", to);
    CHECK(in >= 0 && out >= 0, "copy %s to %s", from, to);
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
}

/* The whole tree from (directories and regular files) into to. */
static inline void copy_tree(const char *from, const char *to)
{
    DIR *d = opendir(from);
    CHECK(d != NULL, "open %s", from);
    mkdir(to, 0755);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char src[1024], dst[1024];
        int long_src = snprintf(src, sizeof src, "%s/%s", from, e->d_name) >= (int)sizeof src;
        int long_dst = snprintf(dst, sizeof dst, "%s/%s", to, e->d_name) >= (int)sizeof dst;
        CHECK(!long_src && !long_dst, "path under %s fits", from);
        struct stat st;
        if (stat(src, &st) == 0 && S_ISDIR(st.st_mode))
            copy_tree(src, dst);
        else
            copy_file(src, dst);
    }
    if (d)
        closedir(d);
}

static inline void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[1024];
        if (snprintf(p, sizeof p, "%s/%s", path, e->d_name) >= (int)sizeof p)
            continue;
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            unlink(p);
    }
    if (d)
        closedir(d);
    rmdir(path);
}

/* A test's start (argc of main): argv[1] names the recorded machine(s) it replays (usage, exit 1 without
 * it), and dir (n bytes) becomes a fresh folder /tmp/<name>.XXXXXX for its copies (exit 1
 * if it cannot be made); the test removes it with remove_tree at its end. */
static inline void tree_scratch(int argc, const char *name, const char *arg, char *dir, size_t n)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s <%s>\n", name, arg);
        exit(1);
    }
    snprintf(dir, n, "/tmp/%s.XXXXXX", name);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
}

/* Write text to the file rel under root in place (a counter rewritten between reads). */
static inline void tree_vput(const char *root, const char *rel, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static inline void tree_vput(const char *root, const char *rel, const char *fmt, va_list ap)
{
    char p[2048];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL, "rewrite %s", p);
    if (!f)
        return;
    vfprintf(f, fmt, ap);
    fclose(f);
}

/* The copy in force: tree_use() makes it, tree_put() rewrites its files. */
static char tree_root[1024] __attribute__((unused));

/* A fresh copy of the recorded tree from at dir/name, made the root in force
 * (PAPI_FSROOT); returns its path. */
static inline const char *tree_use(const char *from, const char *dir, const char *name)
{
    snprintf(tree_root, sizeof tree_root, "%s/%s", dir, name);
    remove_tree(tree_root);
    copy_tree(from, tree_root);
    setenv("PAPI_FSROOT", tree_root, 1);
    return tree_root;
}

/* Write text to the file rel under the root in force, in place. */
static inline void tree_put(const char *rel, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static inline void tree_put(const char *rel, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tree_vput(tree_root, rel, fmt, ap);
    va_end(ap);
}

#endif

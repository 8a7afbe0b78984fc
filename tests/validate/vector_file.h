/* vector_file.h: the recorded count vectors' files of tests/validate, read line by line:
 * '#' lines and empty ones are comments, every other line must be a vector. */
#ifndef VECTOR_FILE_H
#define VECTOR_FILE_H

#include <stdio.h>

#include "papi_test.h"

/* Calls check(line, lineno) on each vector of path (it returns 1 for a vector) and
 * returns how many there were. */
static inline int vector_file_each(const char *path, int (*check)(const char *, int))
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    char line[512];
    int lineno = 0, vectors = 0;
    while (f && fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        CHECK(check(line, lineno), "line %d: not a vector: %s", lineno, line);
        vectors++;
    }
    if (f)
        fclose(f);
    return vectors;
}

#endif

/* case_file.h: a file of golden cases read line by line, as the C and Python sides of one
 * definition both read it (tests/metrics/metric_formula_cases.txt, tests/pop/
 * pop_factors_cases.txt; case_file.py is the Python reader): lines starting with '#' and
 * blank ones skipped, each case split at " | " into at most max fields, the first as
 * written (a formula's spaces count), the others trimmed. Header only, no PAPI. */
#ifndef PAPI_TEST_CASE_FILE_H
#define PAPI_TEST_CASE_FILE_H

#include <stdio.h>
#include <string.h>

/* line's fields (at most max), split at " | " in place; their count. */
static inline int case_file_split(char *line, char **field, int max)
{
    int n = 0;
    for (char *p = line; n < max && p;) {
        field[n++] = p;
        char *bar = strstr(p, " | ");
        if (bar)
            *bar = '\0';
        p = bar ? bar + 3 : NULL;
    }
    for (int i = 1; i < n; i++) {
        while (*field[i] == ' ')
            field[i]++;
        for (size_t k = strlen(field[i]); k && strchr(" \n", field[i][k - 1]); k--)
            field[i][k - 1] = '\0';
    }
    return n;
}

/* Each case of the file at path handed to check (its line number, fields and their
 * count, arg), which returns 1 for a case it counts; the cases counted, or -1 when the
 * file cannot be opened (said on stderr). */
static inline int case_file_each(const char *path, int max,
                                 int (*check)(int lineno, char **field, int n, void *arg),
                                 void *arg)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        return -1;
    }
    char line[4096], *field[16];
    int lineno = 0, cases = 0;
    if (max > 16)
        max = 16;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        cases += check(lineno, field, case_file_split(line, field, max), arg);
    }
    fclose(in);
    return cases;
}

#endif

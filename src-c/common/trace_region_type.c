/* trace_region_type.c: a region's type from its name (trace_region_type.h). */
#include <string.h>

#include "trace_region_type.h"

/* The regions' names of the roles: what the slices of each kind are called in a trace
 * (trace_omp_kind_name gives them; a parallel region's own name is its site's). */
static const char *const role_regions[TRACE_OMP_ROLES] = {
    "parallel region", "implicit task", "barrier", "join",     "taskwait",
    "taskgroup",       "explicit task", "loop",    "sections", "single",
    "workshare",       "critical",      "lock",    "ordered",  "atomic",
    "reduction",       "masked",        "target"};

static const char *const role_names[TRACE_OMP_ROLES] = {
    "parallel", "implicit_task", "barrier",  "implicit_barrier", "taskwait",  "taskgroup",
    "task",     "loop",          "sections", "single",           "workshare", "critical",
    "lock",     "ordered",       "atomic",   "reduction",        "masked",    "target"};

/* The JSON categories, "openmp." and the role's name (the schema's enum lists them). */
static const char *const role_cats[TRACE_OMP_ROLES] = {
    "openmp.parallel", "openmp.implicit_task", "openmp.barrier",   "openmp.implicit_barrier",
    "openmp.taskwait", "openmp.taskgroup",     "openmp.task",      "openmp.loop",
    "openmp.sections", "openmp.single",        "openmp.workshare", "openmp.critical",
    "openmp.lock",     "openmp.ordered",       "openmp.atomic",    "openmp.reduction",
    "openmp.masked",   "openmp.target"};

const char *trace_region_omp_name(enum trace_omp_role role)
{
    return (unsigned)role < TRACE_OMP_ROLES ? role_regions[role] : "OpenMP";
}

const char *trace_region_role_name(enum trace_omp_role role)
{
    return (unsigned)role < TRACE_OMP_ROLES ? role_names[role] : "unknown";
}

/* A named parallel region's "function (file:line)": the file and line into t, 1; else 0. */
static int parallel_site(const char *name, struct trace_region_type *t)
{
    size_t n = strlen(name);
    if (n < 6 || name[n - 1] != ')')
        return 0;
    size_t k = n - 1; /* the line's digits end before the ')' */
    int line = 0, digits = 0;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--, digits++;
    if (digits == 0 || digits > 9 || k == 0 || name[k - 1] != ':')
        return 0;
    for (size_t i = k; i < n - 1; i++)
        line = line * 10 + (name[i] - '0');
    const char *open = NULL; /* the first " (": a path may hold one, a function hardly */
    for (size_t i = 0; !open && i + 1 < k - 1; i++)
        if (name[i] == ' ' && name[i + 1] == '(')
            open = name + i;
    if (!open || open == name || open + 2 >= name + k - 1)
        return 0;
    t->file = open + 2;
    t->file_len = (size_t)(name + k - 1 - t->file);
    t->line = line;
    return 1;
}

struct trace_region_type trace_region_type_of(const char *name)
{
    struct trace_region_type t = {TRACE_REGION_USER, TRACE_OMP_ROLE_PARALLEL, NULL, 0, 0};
    if (!name)
        return t;
    if (strncmp(name, "MPI_", 4) == 0) {
        t.paradigm = TRACE_REGION_MPI;
        return t;
    }
    for (int k = 0; k < TRACE_OMP_ROLES; k++) {
        size_t n = strlen(role_regions[k]);
        if (strncmp(name, role_regions[k], n) != 0)
            continue;
        /* the role's own slices, or a construct's "ROLE function (file:line)" (its site
         * where the name has one; "ROLE (no code address)"); never a parallel region
         * forked in a function of the role's name, "single (a.c:3)" */
        size_t len = strlen(name);
        const char *rest = name + n + (name[n] == ' ');
        if (name[n] == '\0' ||
            (k >= TRACE_OMP_ROLE_LOOP && name[n] == ' ' && len > n + 2 && name[len - 1] == ')' &&
             (rest[0] != '(' || strcmp(rest, "(no code address)") == 0))) {
            if (name[n])
                parallel_site(name + n + 1, &t);
            t.paradigm = TRACE_REGION_OPENMP;
            t.role = (enum trace_omp_role)k;
            return t;
        }
    }
    if (parallel_site(name, &t))
        t.paradigm = TRACE_REGION_OPENMP; /* role: TRACE_OMP_ROLE_PARALLEL */
    return t;
}

const char *trace_region_category(const char *name)
{
    struct trace_region_type t = trace_region_type_of(name);
    if (t.paradigm == TRACE_REGION_MPI)
        return "mpi";
    if (t.paradigm == TRACE_REGION_OPENMP)
        return role_cats[t.role];
    return "region";
}

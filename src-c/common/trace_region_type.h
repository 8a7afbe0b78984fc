/* trace_region_type.h: what a trace region is, read from its name, the one place both
 * back ends (trace_json.c's "cat", trace_otf2_defs.c's paradigm, role and source) ask
 * (trace_region_type.c). Regions travel as names only (the builder, the MPI wrapper's
 * tables and its job-wide merge of names), so the type is the name's: an MPI call is
 * named "MPI_..."; an OpenMP slice is named as its role's region
 * (trace_region_omp_name: "implicit task", "join", ...; trace_openmp.c names its kinds
 * so) or, a named parallel region, "function (file:line)" as the OMPT tool names it;
 * a construct "ROLE function (file:line)" (the role's region name, a blank, its site);
 * every other region is the user's. A leaf of the trace writer (it includes no other
 * part of it). Not installed. */
#ifndef TRACE_REGION_TYPE_H
#define TRACE_REGION_TYPE_H

#include <stddef.h>

#include "trace_records.h" /* TW_HIDDEN */

enum trace_region_paradigm { TRACE_REGION_USER = 0, TRACE_REGION_MPI, TRACE_REGION_OPENMP };

/* An OpenMP region's role; the JSON category is "openmp." and its name
 * (trace_region_role_name). */
enum trace_omp_role {
    TRACE_OMP_ROLE_PARALLEL = 0,     /* a parallel region */
    TRACE_OMP_ROLE_IMPLICIT_TASK,    /* a thread's implicit task of a team */
    TRACE_OMP_ROLE_BARRIER,          /* an explicit barrier inside a region */
    TRACE_OMP_ROLE_IMPLICIT_BARRIER, /* the join: the region's barrier at its end */
    TRACE_OMP_ROLE_TASKWAIT,
    TRACE_OMP_ROLE_TASKGROUP, /* a taskgroup's end, waiting for its tasks */
    TRACE_OMP_ROLE_TASK,      /* an explicit task run by the thread */
    /* The constructs (issue 73), named "ROLE function (file:line)": worksharing from its
     * begin to its end, mutual exclusion from the acquire to the release. */
    TRACE_OMP_ROLE_LOOP, /* a worksharing loop, distribute, taskloop */
    TRACE_OMP_ROLE_SECTIONS,
    TRACE_OMP_ROLE_SINGLE,
    TRACE_OMP_ROLE_WORKSHARE, /* Fortran's workshare, scope */
    TRACE_OMP_ROLE_CRITICAL,
    TRACE_OMP_ROLE_LOCK, /* a lock or nest lock, by its init site */
    TRACE_OMP_ROLE_ORDERED,
    TRACE_OMP_ROLE_ATOMIC,
    TRACE_OMP_ROLE_REDUCTION,
    TRACE_OMP_ROLE_MASKED,
    TRACE_OMP_ROLE_TARGET,
    TRACE_OMP_ROLES
};

struct trace_region_type {
    enum trace_region_paradigm paradigm;
    enum trace_omp_role role; /* TRACE_REGION_OPENMP only */
    /* A named parallel region's site: file (file_len bytes of the name, not terminated)
     * and line; file_len 0 and line 0 when the name has none. */
    const char *file;
    size_t file_len;
    int line;
};

/* The type of the region named name (NULL: a user's); a construct's file and line are
 * its site's. */
TW_HIDDEN struct trace_region_type trace_region_type_of(const char *name);
/* The name of a role's regions: "parallel region" (one without a name of its own),
 * "implicit task", "barrier", "join", "taskwait", "taskgroup", "explicit task", and the
 * constructs' "loop", "sections", "single", "workshare", "critical", "lock", "ordered",
 * "atomic", "reduction", "masked", "target" (the prefix of a construct's name) ("OpenMP"
 * outside the enum). */
TW_HIDDEN const char *trace_region_omp_name(enum trace_omp_role role);
/* A role's name: "parallel", "implicit_task", "barrier", "implicit_barrier", "taskwait",
 * "taskgroup", "task", and the constructs' region names ("unknown" outside the enum). */
TW_HIDDEN const char *trace_region_role_name(enum trace_omp_role role);
/* The JSON trace's "cat" of a region: "region", "mpi", or "openmp.ROLE" (ROLE:
 * trace_region_role_name), as schema/trace_json.schema.json lists them. */
TW_HIDDEN const char *trace_region_category(const char *name);

#endif

/* ompt_names.h: a parallel region named as every output of the tool names it
 * (ompt_names.c): `function (file:line)` of its code address through the project's one
 * symbolizer (src-c/sampling/symbolizer.h), at finalize, never in a callback; the line
 * the directive's where gcc's outlined function says it; and its site, which tells apart
 * the regions of one name (issue 69 item 4: a fork inlined at several calls, or copied
 * by unrolling): the inlined calls that lead to it, and where the name and those are
 * still alike, its offset in its object. */
#ifndef PAPI_OMPT_NAMES_H
#define PAPI_OMPT_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "ompt_regions.h"
#include "symbolizer.h"

#define OMPT_NAME_LEN (3 * SYM_NAME_LEN)
#define OMPT_SITE_LEN 320

struct ompt_name {
    uintptr_t address;           /* the region's code address (OMPT_REGION_NO_ADDRESS: none) */
    int found;                   /* a module holds it */
    char name[OMPT_NAME_LEN];    /* "function (file:line)", the function alone without a
                                   * line table, "0x..." outside any module, "(no code
                                   * address)" */
    char function[SYM_NAME_LEN]; /* as the source reads it; "" when unknown */
    char file[SYM_NAME_LEN];
    int line;
    const char *module; /* the module's path (alive until sym_close), or NULL */
    uintptr_t offset;   /* the address less the module's lowest address (an unloaded
                         * object's: its file address) */
    /* "" for a fork not inlined; else each inlined call that leads to it, innermost
     * first, as "caller (file:line)" joined by " < "; ompt_names_apart adds
     * "module+0xOFFSET" where that is not enough. */
    char site[OMPT_SITE_LEN];
};

/* Names the region whose fork's code address (the runtime's codeptr_ra: the call's
 * return address) is address, with sym (NULL: unnamed, "0x..."); a region whose object
 * is no longer loaded where it was (a library unloaded with dlclose) from that object's
 * file (opened alone, once for the run), at the file address kept at its first instance
 * (ompt_regions.h). */
OMPT_HIDDEN void ompt_name_of(struct symbolizer *sym, uintptr_t address, struct ompt_name *n);
/* n's members in the object w writes: name, function, file, line, module, address, site. */
struct jw;
OMPT_HIDDEN void ompt_name_put(struct jw *w, const struct ompt_name *n);
/* The sites of n named regions made to tell apart those of one name and site at distinct
 * code addresses: each of those gets its offset in its object. */
OMPT_HIDDEN void ompt_names_apart(struct ompt_name *v, int n);

#endif

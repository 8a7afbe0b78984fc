/* papi_mem_info: the cache and TLB hierarchy of PAPI_get_hardware_info. */
#include <stdlib.h>

#include "util_common.h"

#define FULLY_ASSOCIATIVE 32767 /* SHRT_MAX, PAPI's marker for "fully associative" */

static const char usage[] =
    "Usage: papi_mem_info [options]\n"
    "Print the memory hierarchy PAPI sees: each level's TLBs (where the CPU reports them)\n"
    "and its data, instruction and unified caches.\n"
    "This machine's caches come from its sysfs files (PAPI_TOPOLOGY=hwloc asks hwloc);\n"
    "set HWLOC_XMLFILE=file.xml to describe a recorded machine instead of this one.\n\n"
    "Options:\n"
    "  --json       print the same information as one JSON document\n"
    "  -h, --help   print this help\n"
    "  --version    print the papi-compat release and the PAPI API level\n";

static const char *type_name(int type)
{
    switch (PAPI_MH_CACHE_TYPE(type)) {
    case PAPI_MH_TYPE_DATA: return "Data";
    case PAPI_MH_TYPE_INST: return "Instruction";
    case PAPI_MH_TYPE_UNIFIED: return "Unified";
    default: return "Unknown";
    }
}

static void print_assoc(int assoc)
{
    if (assoc == FULLY_ASSOCIATIVE)
        printf("  Associativity:       Full\n");
    else if (assoc <= 0)
        printf("  Associativity:       Unknown\n");
    else
        printf("  Associativity:    %7d\n", assoc);
}

static void print_text(const PAPI_hw_info_t *hw)
{
    const PAPI_mh_info_t *mh = &hw->mem_hierarchy;
    printf("Memory Cache and TLB Hierarchy Information.\n");
    printf("------------------------------------------------------------------------\n");
    printf("TLB Information.\n  There may be multiple descriptors for each level of TLB\n"
           "  if multiple page sizes are supported.\n\n");
    int tlbs = 0;
    for (int l = 0; l < mh->levels && l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
        for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
            const PAPI_mh_tlb_info_t *t = &mh->level[l].tlb[j];
            if (t->type == PAPI_MH_TYPE_EMPTY)
                continue;
            tlbs++;
            printf("L%d %s TLB:\n", l + 1, type_name(t->type));
            printf("  Page Size:       %7d KB\n", t->page_size);
            printf("  Number of Entries:%6d\n", t->num_entries);
            print_assoc(t->associativity);
            printf("\n");
        }
    if (!tlbs)
        printf("  This CPU does not report its TLBs to PAPI.\n\n");
    printf("\nCache Information.\n\n");
    int caches = 0;
    for (int l = 0; l < mh->levels && l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
        for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
            const PAPI_mh_cache_info_t *c = &mh->level[l].cache[j];
            if (c->type == PAPI_MH_TYPE_EMPTY)
                continue;
            caches++;
            printf("L%d %s Cache:\n", l + 1, type_name(c->type));
            printf("  Total size:      %7d KB\n", c->size / 1024);
            printf("  Line size:       %7d B\n", c->line_size);
            printf("  Number of Lines: %7d\n", c->num_lines);
            print_assoc(c->associativity);
            printf("\n");
        }
    if (!caches)
        printf("  No cache information is available.\n");
}

static void json_assoc(struct jw *w, int assoc)
{
    jw_int(w, "associativity", assoc == FULLY_ASSOCIATIVE ? 0 : assoc);
    jw_bool(w, "fully_associative", assoc == FULLY_ASSOCIATIVE);
}

static void print_json(const PAPI_hw_info_t *hw)
{
    const PAPI_mh_info_t *mh = &hw->mem_hierarchy;
    struct jw w;
    util_json_begin(&w);
    jw_int(&w, "levels", mh->levels);
    jw_arr_begin(&w, "tlbs");
    for (int l = 0; l < mh->levels && l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
        for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
            const PAPI_mh_tlb_info_t *t = &mh->level[l].tlb[j];
            if (t->type == PAPI_MH_TYPE_EMPTY)
                continue;
            jw_obj_begin(&w, NULL);
            jw_int(&w, "level", l + 1);
            jw_str(&w, "type", type_name(t->type));
            jw_int(&w, "page_size_kb", t->page_size);
            jw_int(&w, "entries", t->num_entries);
            json_assoc(&w, t->associativity);
            jw_obj_end(&w);
        }
    jw_arr_end(&w);
    jw_arr_begin(&w, "caches");
    for (int l = 0; l < mh->levels && l < PAPI_MAX_MEM_HIERARCHY_LEVELS; l++)
        for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
            const PAPI_mh_cache_info_t *c = &mh->level[l].cache[j];
            if (c->type == PAPI_MH_TYPE_EMPTY)
                continue;
            jw_obj_begin(&w, NULL);
            jw_int(&w, "level", l + 1);
            jw_str(&w, "type", type_name(c->type));
            jw_int(&w, "size_bytes", c->size);
            jw_int(&w, "line_size", c->line_size);
            jw_int(&w, "num_lines", c->num_lines);
            json_assoc(&w, c->associativity);
            jw_obj_end(&w);
        }
    jw_arr_end(&w);
    jw_obj_end(&w);
    jw_finish(&w);
}

int main(int argc, char **argv)
{
    return util_hardware_main(argc, argv, "papi_mem_info", usage, print_text, print_json);
}

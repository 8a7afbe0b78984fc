/* preset_catalog.c: the presets PAPI names (preset_catalog.def): each one's name,
 * categories and descriptions, and a name's index found by a binary search. A leaf of
 * events/: the CSV parser, the tables and the preset calls look names up in it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "preset_catalog.h"

const struct preset_catalog_entry preset_catalog[PAPI_END_idx] = {
#define PRESET(N, BITS, SHORT, LONG) [PAPI_##N##_idx] = {"PAPI_" #N, (BITS), SHORT, LONG},
#include "preset_catalog.def"
#undef PRESET
};

const char *preset_catalog_name(int idx)
{
    return idx >= 0 && idx < PAPI_END_idx ? preset_catalog[idx].name : NULL;
}

/* The catalog's indices in name order, for a binary search: the built-in table's ~600
 * PRESET lines each name a preset, and a linear search of ~110 names per line was a
 * tenth of papi_avail's instructions. */
static int by_name[PAPI_END_idx];
static pthread_once_t by_name_once = PTHREAD_ONCE_INIT;

static int cmp_index_name(const void *a, const void *b)
{
    return strcmp(preset_catalog[*(const int *)a].name, preset_catalog[*(const int *)b].name);
}

static void sort_by_name(void)
{
    for (int i = 0; i < PAPI_END_idx; i++)
        by_name[i] = i;
    qsort(by_name, PAPI_END_idx, sizeof by_name[0], cmp_index_name);
}

int preset_catalog_index(const char *name)
{
    pthread_once(&by_name_once, sort_by_name);
    int lo = 0, hi = PAPI_END_idx - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(name, preset_catalog[by_name[mid]].name);
        if (c == 0)
            return by_name[mid];
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

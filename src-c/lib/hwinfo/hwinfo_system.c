/* hwinfo_system.c: memory use (/proc/self/status), the executable's and the shared
 * libraries' address ranges (/proc/self/maps). The process's own files, read through
 * fsroot.h like every /proc file, are always this process's, also on a recorded machine. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsroot.h"
#include "papi_globals.h"

static PAPI_exe_info_t exe_info;
static int exe_info_valid;
static PAPI_shlib_info_t shlib_info;
static pthread_mutex_t info_lock = PTHREAD_MUTEX_INITIALIZER;

int PAPI_get_dmem_info(PAPI_dmem_info_t *d)
{
    PAPI_CHECK_INIT();
    if (!d)
        return papi_error(PAPI_EINVAL, "dmem pointer is NULL");
    FILE *f = fsroot_fopen("/proc/self/status");
    if (!f)
        return papi_error(PAPI_ESYS, "cannot open /proc/self/status");
    PAPI_dmem_info_t m;
    memset(&m, 0, sizeof m);
    /* The lines of the file that are reported, and where. */
    const struct {
        const char *key;
        long long *value;
    } fields[] = {
        {"VmPeak", &m.peak},           {"VmSize", &m.size},     {"VmRSS", &m.resident},
        {"VmHWM", &m.high_water_mark}, {"RssShmem", &m.shared}, {"VmExe", &m.text},
        {"VmLib", &m.library},         {"VmData", &m.heap},     {"VmLck", &m.locked},
        {"VmStk", &m.stack},           {"VmPTE", &m.pte},
    };
    char line[256];
    long long v;
    while (fgets(line, sizeof line, f)) {
        char key[64];
        if (sscanf(line, "%63[^:]: %lld", key, &v) != 2)
            continue;
        for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
            if (!strcmp(key, fields[i].key))
                *fields[i].value = v;
    }
    fclose(f);
    m.pagesize = sysconf(_SC_PAGESIZE);
    *d = m; /* values in KiB, as /proc reports them */
    return PAPI_OK;
}

struct mapping {
    unsigned long start, end;
    char perms[5];
    char path[PATH_MAX];
};

static int next_mapping(FILE *f, struct mapping *m)
{
    char line[PATH_MAX + 128];
    if (!fgets(line, sizeof line, f))
        return 0;
    m->path[0] = '\0';
    unsigned long off;
    int n = 0;
    if (sscanf(line, "%lx-%lx %4s %lx %*s %*s %n", &m->start, &m->end, m->perms, &off, &n) < 4)
        return -1;
    if (n > 0) {
        char *p = line + n;
        p[strcspn(p, "\n")] = '\0';
        papi_strcpy(m->path, sizeof m->path, p);
    }
    return 1;
}

static int load_exe_info(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return PAPI_ESYS;
    exe[n] = '\0';
    memset(&exe_info, 0, sizeof exe_info);
    papi_strcpy(exe_info.fullname, sizeof exe_info.fullname, exe);
    const char *base = strrchr(exe, '/');
    papi_strcpy(exe_info.name, sizeof exe_info.name, base ? base + 1 : exe);
    papi_strcpy(exe_info.address_info.name, sizeof exe_info.address_info.name, exe_info.name);
    FILE *f = fsroot_fopen("/proc/self/maps");
    if (!f)
        return PAPI_ESYS;
    struct mapping m;
    int r, after_data = 0;
    while ((r = next_mapping(f, &m)) != 0) {
        if (r < 0)
            continue;
        int ours = strcmp(m.path, exe) == 0;
        if (ours && m.perms[2] == 'x' && !exe_info.address_info.text_start) {
            exe_info.address_info.text_start = (vptr_t)m.start;
            exe_info.address_info.text_end = (vptr_t)m.end;
        } else if (ours && m.perms[1] == 'w') {
            if (!exe_info.address_info.data_start)
                exe_info.address_info.data_start = (vptr_t)m.start;
            exe_info.address_info.data_end = (vptr_t)m.end;
            after_data = 1;
            continue;
        } else if (after_data && m.path[0] == '\0' &&
                   (vptr_t)m.start == exe_info.address_info.data_end) {
            /* The anonymous mapping right after .data holds the rest of .bss. */
            exe_info.address_info.bss_start = (vptr_t)m.start;
            exe_info.address_info.bss_end = (vptr_t)m.end;
        }
        after_data = 0;
    }
    fclose(f);
    if (!exe_info.address_info.bss_start) {
        exe_info.address_info.bss_start = exe_info.address_info.data_end;
        exe_info.address_info.bss_end = exe_info.address_info.data_end;
    }
    papi_strcpy(exe_info.preload_info.lib_preload_env, sizeof exe_info.preload_info.lib_preload_env,
                "LD_PRELOAD");
    exe_info.preload_info.lib_preload_sep = ' ';
    papi_strcpy(exe_info.preload_info.lib_dir_env, sizeof exe_info.preload_info.lib_dir_env,
                "LD_LIBRARY_PATH");
    exe_info.preload_info.lib_dir_sep = ':';
    return PAPI_OK;
}

/* The library's lifecycle (papi_sdk.h): read again after a shutdown, kept by a forked
 * child (it runs the same executable with the same libraries). */
static void sysinfo_lifecycle(const struct papi_life *ev)
{
    if (ev->event != PAPI_LIFE_SHUTDOWN || ev->keep_machine)
        return;
    pthread_mutex_lock(&info_lock);
    free(shlib_info.map);
    memset(&shlib_info, 0, sizeof shlib_info);
    exe_info_valid = 0;
    pthread_mutex_unlock(&info_lock);
}

const PAPI_exe_info_t *PAPI_get_executable_info(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return NULL;
    pthread_mutex_lock(&info_lock);
    if (!exe_info_valid)
        exe_info_valid = load_exe_info() == PAPI_OK;
    papi_lifecycle_register(PAPI_LIFE_STAGE_MACHINE, sysinfo_lifecycle);
    pthread_mutex_unlock(&info_lock);
    return exe_info_valid ? &exe_info : NULL;
}

static int load_shlib_info(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    FILE *f = fsroot_fopen("/proc/self/maps");
    if (!f)
        return PAPI_ESYS;
    int cap = 16, count = 0;
    PAPI_address_map_t *map = calloc((size_t)cap, sizeof *map);
    if (!map) {
        fclose(f);
        return PAPI_ENOMEM;
    }
    struct mapping m;
    int r;
    PAPI_address_map_t *cur = NULL;
    while ((r = next_mapping(f, &m)) != 0) {
        if (r < 0 || m.path[0] != '/' || strcmp(m.path, exe) == 0)
            continue;
        if (!cur || strcmp(cur->name, m.path) != 0) {
            cur = NULL;
            for (int i = 0; i < count; i++)
                if (strcmp(map[i].name, m.path) == 0)
                    cur = &map[i];
            if (!cur) {
                if (count == cap) {
                    PAPI_address_map_t *nm = realloc(map, sizeof *map * (size_t)cap * 2);
                    if (!nm)
                        break;
                    map = nm;
                    memset(map + cap, 0, sizeof *map * (size_t)cap);
                    cap *= 2;
                }
                cur = &map[count++];
                papi_strcpy(cur->name, sizeof cur->name, m.path);
            }
        }
        if (m.perms[2] == 'x') {
            cur->text_start = (vptr_t)m.start;
            cur->text_end = (vptr_t)m.end;
        } else if (m.perms[1] == 'w') {
            if (!cur->data_start)
                cur->data_start = (vptr_t)m.start;
            cur->data_end = (vptr_t)m.end;
        }
    }
    fclose(f);
    shlib_info.map = map;
    shlib_info.count = count;
    return PAPI_OK;
}

const PAPI_shlib_info_t *PAPI_get_shared_lib_info(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return NULL;
    pthread_mutex_lock(&info_lock);
    if (!shlib_info.map)
        load_shlib_info();
    papi_lifecycle_register(PAPI_LIFE_STAGE_MACHINE, sysinfo_lifecycle);
    pthread_mutex_unlock(&info_lock);
    return shlib_info.map ? &shlib_info : NULL;
}

/* run_program.c: the program's file before it runs. A static or setuid program ignores
 * LD_PRELOAD: it is still counted from outside (inherited counters), with a note on what
 * is missing. A program linked with MPICH or Open MPI gets that MPI's wrapper library
 * preloaded (the launcher's environment decides when the file names neither), and with
 * --per-thread the library that splits the counts per thread; an OpenMP program, the
 * project's OMPT tool (run_openmp.c). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "env_list.h"
#include "run_modules.h"
#include "run_openmp.h"
#include "run_program.h"

#ifndef PAPI_RUN_LIBDIR
#define PAPI_RUN_LIBDIR "lib"
#endif

/* What a file that is not a regular one is, for the message (execve refuses them all). */
static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode))
        return "Is a directory";
    if (S_ISFIFO(mode))
        return "a FIFO, not a program file";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device, not a program file";
    if (S_ISSOCK(mode))
        return "a socket, not a program file";
    return NULL;
}

/* The file execvp would run: argv[0] itself when it holds a '/', else the first
 * executable regular file of that name on PATH. 0, or errno with *why set (a shell's
 * words: ENOENT is "not found", 127; anything else "cannot be executed", 126). The file
 * is only looked at (stat, access), never opened: a FIFO would block an open. */
static int resolve(const char *name, char *path, size_t len, const char **why)
{
    struct stat st;
    *why = NULL;
    if (strchr(name, '/')) {
        snprintf(path, len, "%s", name);
        if (stat(path, &st) != 0)
            return errno;
        if ((*why = kind_of(st.st_mode)) != NULL)
            return S_ISDIR(st.st_mode) ? EISDIR : EACCES;
        return access(path, X_OK) == 0 ? 0 : errno;
    }
    const char *p = env_get("PATH");
    char *copy = strdup(p && *p ? p : "/usr/local/bin:/usr/bin:/bin"), *save = NULL;
    int err = copy ? ENOENT : ENOMEM;
    for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save)) {
        snprintf(path, len, "%s/%s", *d ? d : ".", name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            err = access(path, X_OK) == 0 ? 0 : EACCES;
            if (err == 0)
                break;
        }
    }
    free(copy);
    return err;
}

struct image {
    const unsigned char *data;
    size_t size;
};

static int has(const struct image *im, const char *s)
{
    return im->data && memmem(im->data, im->size, s, strlen(s)) != NULL;
}

/* The 64-bit ELF header of the image, or NULL for a script or another format. */
static const Elf64_Ehdr *elf64(const struct image *im)
{
    if (!im->data || im->size < sizeof(Elf64_Ehdr) || memcmp(im->data, ELFMAG, SELFMAG) != 0 ||
        im->data[EI_CLASS] != ELFCLASS64)
        return NULL;
    return (const Elf64_Ehdr *)(const void *)im->data;
}

/* Program header i, or NULL when it lies past the file's end (a truncated file). */
static const Elf64_Phdr *phdr(const struct image *im, const Elf64_Ehdr *eh, int i)
{
    size_t off = eh->e_phoff + (size_t)i * eh->e_phentsize;
    if (off + sizeof(Elf64_Phdr) > im->size)
        return NULL;
    return (const Elf64_Phdr *)(const void *)(im->data + off);
}

/* An ELF file without PT_INTERP is static (the dynamic loader never runs in it). */
static int is_static_elf(const struct image *im)
{
    const Elf64_Ehdr *eh = elf64(im);
    if (!eh)
        return 0; /* a script or another format: its interpreter is dynamic */
    for (int i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph = phdr(im, eh, i);
        if (!ph || ph->p_type == PT_INTERP)
            return 0;
    }
    return 1;
}

/* The file offset of virtual address addr (a PT_LOAD segment's), or 0 when none holds it. */
static size_t file_offset(const struct image *im, const Elf64_Ehdr *eh, Elf64_Addr addr)
{
    for (int i = 0; i < eh->e_phnum; i++) {
        const Elf64_Phdr *ph = phdr(im, eh, i);
        if (!ph)
            return 0;
        if (ph->p_type == PT_LOAD && addr >= ph->p_vaddr && addr - ph->p_vaddr < ph->p_filesz)
            return (size_t)(ph->p_offset + (addr - ph->p_vaddr));
    }
    return 0;
}

/* Whether a DT_NEEDED entry of the program starts with prefix ("libgomp.so"): the
 * libraries it names itself (a runtime that only a library of it needs is not seen). */
static int needs(const struct image *im, const char *prefix)
{
    const Elf64_Ehdr *eh = elf64(im);
    if (!eh)
        return 0;
    const Elf64_Dyn *dyn = NULL;
    size_t ndyn = 0;
    for (int i = 0; i < eh->e_phnum && !dyn; i++) {
        const Elf64_Phdr *ph = phdr(im, eh, i);
        if (!ph)
            return 0;
        if (ph->p_type == PT_DYNAMIC && ph->p_offset < im->size &&
            ph->p_filesz <= im->size - ph->p_offset) {
            dyn = (const Elf64_Dyn *)(const void *)(im->data + ph->p_offset);
            ndyn = ph->p_filesz / sizeof *dyn;
        }
    }
    size_t strtab = 0;
    for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
        if (dyn[i].d_tag == DT_STRTAB)
            strtab = file_offset(im, eh, dyn[i].d_un.d_ptr);
    for (size_t i = 0; strtab && i < ndyn && dyn[i].d_tag != DT_NULL; i++) {
        size_t at = strtab + dyn[i].d_un.d_val;
        if (dyn[i].d_tag != DT_NEEDED || at >= im->size)
            continue;
        const char *name = (const char *)im->data + at; /* terminated inside the file */
        if (strnlen(name, im->size - at) < im->size - at &&
            strncmp(name, prefix, strlen(prefix)) == 0)
            return 1;
    }
    return 0;
}

/* The OpenMP runtime the program names: libgomp (gcc, gfortran), LLVM's or Intel's. */
static enum run_omp_runtime omp_runtime(const struct image *im)
{
    if (needs(im, "libgomp.so"))
        return RUN_OMP_GOMP;
    return needs(im, "libomp.so") || needs(im, "libiomp5.so") ? RUN_OMP_LLVM : RUN_OMP_NONE;
}

/* The MPI of the program: its needed libraries first, then the launcher's variables. */
static const char *mpi_flavor(const struct image *im)
{
    int mpich = has(im, "libmpich.so") || has(im, "libmpichfort.so");
    int ompi = has(im, "libmpi.so.4") || has(im, "libmpi_mpifh.so") ||
               has(im, "libmpi_usempif08.so") || has(im, "libmpi_cxx.so");
    if (mpich != ompi)
        return mpich ? "mpich" : "openmpi";
    if (env_get("OMPI_COMM_WORLD_RANK"))
        return "openmpi";
    if (env_get("PMI_RANK") || env_get("HYDI_CONTROL_FD"))
        return "mpich";
    return "";
}

/* Puts lib in front of LD_PRELOAD; 0, or -1 when the library is not installed. */
static int preload(const char *lib)
{
    char path[PATH_MAX + 128];
    return run_find_module(lib, path, sizeof path) == 0 ? env_list_add("LD_PRELOAD", path, 1) : -1;
}

static void note(struct run_state *s, const char *text)
{
    size_t n = strlen(s->note);
    snprintf(s->note + n, sizeof s->note - n, "%s%s", n ? "; " : "", text);
}

/* The events as a list: their names, or (counted) the names the CPU component's events
 * are counted under (the per-thread split: the other components' count the node or the
 * process, not a thread). */
static void join_events(const struct run_state *s, int counted, char *list, size_t len)
{
    list[0] = 0;
    for (int i = 0; i < s->opt.nevents; i++) {
        size_t n = strlen(list);
        if (counted && s->opt.cidx[i] != 0)
            continue;
        snprintf(list + n, len - n, "%s%s", n ? "," : "",
                 counted ? s->opt.counted[i] : s->opt.events[i]);
    }
}

static void set_mpi(struct run_state *s, const char *flavor)
{
    char lib[64], events[RUN_MAX_EVENTS * RUN_NAME_LEN];
    snprintf(lib, sizeof lib, "libpapi_mpi_%s.so", flavor);
    if (preload(lib) != 0) {
        note(s, "the MPI wrapper library for this MPI is not installed: no MPI report");
        return;
    }
    snprintf(s->mpi, sizeof s->mpi, "%s", flavor);
    join_events(s, 0, events, sizeof events);
    setenv("PAPI_MPI_EVENTS", events, 0);
    if (s->opt.nmetrics > 0) { /* -m: the same metrics per rank in the MPI report */
        char metrics[RUN_MAX_METRICS * PAPI_MIN_STR_LEN] = "";
        for (int i = 0; i < s->opt.nmetrics; i++) {
            size_t n = strlen(metrics);
            snprintf(metrics + n, sizeof metrics - n, "%s%s", i ? "," : "", s->opt.metrics[i]);
        }
        setenv("PAPI_MPI_METRICS", metrics, 0);
    }
    setenv("PAPI_MPI_OUTPUT_DIR", s->opt.outdir, 0);
    const char *trace = s->opt.trace ? env_get("PAPI_TRACE") : NULL; /* --trace, accepted */
    if (trace) /* the wrapper writes the job's trace too (trace_export.c) */
        setenv("PAPI_MPI_TRACE", trace, 0);
}

static void set_per_thread(struct run_state *s)
{
    char events[RUN_MAX_EVENTS * RUN_NAME_LEN];
    if (preload("libpapi_run_threads.so") != 0) {
        note(s, "libpapi_run_threads.so is not installed: no per-thread split");
        return;
    }
    join_events(s, 1, events, sizeof events);
    if (!events[0]) {
        note(s, "no event of the CPU component: no per-thread split");
        return;
    }
    setenv("PAPI_RUN_EVENTS", events, 1);
    setenv("PAPI_RUN_THREADS_FILE", s->threads_file, 1);
}

/* --gpu: the GPU activity layer in the program (run_gpu_preload.c), on whether or not
 * the program has loaded CUDA yet (PAPI_GPU_ACTIVITY=1 unless the user chose). */
static void set_gpu(struct run_state *s)
{
    if (preload("libpapi_run_gpu.so") != 0) {
        note(s, "libpapi_run_gpu.so is not installed: no GPU activity");
        return;
    }
    setenv("PAPI_GPU_ACTIVITY", "1", 0);
    setenv("PAPI_RUN_GPU_DIR", s->dir, 1);
    if (s->opt.gpu_counters)
        setenv("PAPI_RUN_GPU_COUNTERS", s->opt.gpu_counters, 1);
}

int run_program_prepare(struct run_state *s)
{
    char path[PATH_MAX];
    const char *why;
    int err = resolve(s->opt.argv[0], path, sizeof path, &why);
    if (err) {
        fprintf(stderr, "papi_run: %s: %s (%s)\n", s->opt.argv[0], why ? why : strerror(err),
                err == ENOENT ? "not found" : "cannot be executed");
        return err == ENOENT ? 127 : 126;
    }
    struct stat st;
    struct image im = {0};
    memset(&st, 0, sizeof st);
    /* O_NONBLOCK: should the file have become a FIFO since resolve, the open still returns */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            im.data = m;
            im.size = (size_t)st.st_size;
        }
    }
    if (fd < 0) /* execute-only: it runs (as from a shell), but its file is not looked into */
        note(s, "the program's file cannot be read: not checked for static linking or MPI");
    int secure = fd >= 0 && (st.st_mode & (S_ISUID | S_ISGID));
    int stat_prog = im.data && is_static_elf(&im);
    if (stat_prog || secure) {
        note(s, stat_prog ? "static program: counted from outside only (no per-thread split, "
                            "no MPI wrapper, its regions not joined)"
                          : "setuid/setgid program: the loader ignores LD_PRELOAD: counted "
                            "from outside only (no per-thread split, no MPI wrapper)");
        if (s->opt.sampling)
            note(s, "not sampled: the sampling library cannot enter it");
        if (s->opt.gpu)
            note(s, "no GPU activity: its library cannot enter it");
    } else {
        /* The program's own region files (papi_hl_output) go to -o's directory too, beside
         * papi_run_output, unless the user chose a place: one run, one directory. */
        setenv("PAPI_OUTPUT_DIRECTORY", s->opt.outdir, 0);
        const char *flavor = mpi_flavor(&im);
        if (*flavor)
            set_mpi(s, flavor);
        if (s->opt.per_thread)
            set_per_thread(s);
        if (s->opt.gpu)
            set_gpu(s);
        run_openmp_prepare(s, omp_runtime(&im));
        if (s->opt.sampling && preload("libpapi_run_sample.so") != 0)
            note(s, "libpapi_run_sample.so is not installed: not sampled");
    }
    if (im.data)
        munmap((void *)im.data, im.size);
    if (fd >= 0)
        close(fd);
    return 0;
}

/* stack_unwind.c: --call-graph dwarf (stack_unwind.h). Each sample brings the thread's user registers
 * and a copy of the top of its user stack (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER);
 * the drain thread unwinds it with libdw's CFI unwinder on the process's own modules, so
 * that frames built without frame pointers still have their callers. The stack copy
 * serves the reads inside it; other addresses are read from the process's own memory
 * with process_vm_readv (a bad address fails the read, never faults), two pages at a
 * time: the callers above the copy (main's, libc's start) have most registers saved
 * there, and each system call costs microseconds on a VM. Called by one thread at a
 * time (papi_run's, under its sampling lock: run_sample_preload.c): one unwinder per process, made on first use,
 * made again in a forked child and when a frame falls outside the modules it knows (a
 * library dlopen'ed since; at most once per SU_REFRESH_NS). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elfutils/libdwfl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "stack_unwind.h"

#define SU_REFRESH_NS 100000000LL /* at most one re-read of the maps per 100 ms */
/* reads outside the stack copy: SU_BLOCKS aligned blocks of SU_BLOCK bytes (a page at
 * most, so each is mapped whole or not at all) in one system call, kept for the rest of
 * the sample's reads; the read stops at the first unmapped block */
#define SU_BLOCK  4096
#define SU_BLOCKS 2

struct unwinder {
    Dwfl *dwfl;
    pid_t pid;           /* the process the Dwfl describes */
    int broken;          /* could not be made: no unwinding in this process */
    long long refreshed; /* CLOCK_MONOTONIC ns of the last re-read of the maps */
    int missed;          /* a frame fell outside every known module */
    /* the sample being unwound */
    pid_t tid;
    const uint64_t *regs;
    const unsigned char *stack;
    uint64_t sp, size;
    uint64_t *ip;
    uint32_t n, max;
    uint64_t block_at, block_len; /* the live stack read for this sample (len 0: none) */
    unsigned char block[SU_BLOCK * SU_BLOCKS];
};

static struct unwinder uw;
/* getpid() is a system call: known once per process (0 again in a forked child) */
static pid_t self;

static void forget_pid(void)
{
    self = 0;
}

static pid_t self_pid(void)
{
    static int registered;
    if (!registered)
        registered = pthread_atfork(NULL, NULL, forget_pid) == 0;
    if (!self || !registered)
        self = getpid();
    return self;
}

uint64_t stack_unwind_regs_mask(void)
{
    return STACK_UNWIND_REGS_MASK;
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
    (void)dwfl;
    (void)arg;
    (void)thread_arg;
    return 0; /* threads are named one at a time (get_thread) */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_arg)
{
    (void)dwfl;
    *thread_arg = arg;
    return tid == ((struct unwinder *)arg)->tid;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
    (void)dwfl;
    struct unwinder *u = arg;
    if (addr >= u->sp && addr - u->sp <= u->size && u->size - (addr - u->sp) >= sizeof *result) {
        memcpy(result, u->stack + (addr - u->sp), sizeof *result);
        return true;
    }
    if (addr < u->block_at || addr - u->block_at + sizeof *result > u->block_len) {
        uint64_t at = addr & ~(uint64_t)(SU_BLOCK - 1);
        struct iovec local = {u->block, sizeof u->block}, remote[SU_BLOCKS];
        for (int i = 0; i < SU_BLOCKS; i++)
            remote[i] = (struct iovec){(void *)(uintptr_t)(at + (uint64_t)i * SU_BLOCK), SU_BLOCK};
        ssize_t got = process_vm_readv(u->pid, &local, 1, remote, SU_BLOCKS, 0);
        u->block_at = at;
        u->block_len = got > 0 ? (uint64_t)got : 0;
    }
    if (addr >= u->block_at && addr - u->block_at + sizeof *result <= u->block_len) {
        memcpy(result, u->block + (addr - u->block_at), sizeof *result);
        return true;
    }
    struct iovec local = {result, sizeof *result},
                 remote = {(void *)(uintptr_t)addr, sizeof *result};
    return process_vm_readv(u->pid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof *result;
}

/* perf's registers (in mask order) as DWARF numbers them. */
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
    const uint64_t *r = ((struct unwinder *)arg)->regs;
#if defined(__x86_64__)
    /* DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip; r[]: AX BX CX DX SI DI BP SP IP
     * R8..R15 */
    Dwarf_Word d[17] = {r[0], r[3], r[2], r[1], r[4], r[5], r[6], r[7]};
    for (int i = 0; i < 8; i++)
        d[8 + i] = r[9 + i];
    d[16] = r[8];
    dwfl_thread_state_register_pc(thread, r[8]);
    return dwfl_thread_state_registers(thread, 0, 17, d);
#elif defined(__aarch64__)
    /* DWARF: x0..x30 0..30, sp 31; the pc apart. */
    Dwarf_Word d[32];
    for (int i = 0; i < 32; i++)
        d[i] = r[i];
    dwfl_thread_state_register_pc(thread, r[32]);
    return dwfl_thread_state_registers(thread, 0, 32, d);
#else
    (void)thread;
    (void)r;
    return false;
#endif
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
    .next_thread = next_thread,
    .get_thread = get_thread,
    .memory_read = memory_read,
    .set_initial_registers = set_initial_registers,
};

/* No search for separate debug files: the unwinder needs the CFI of .eh_frame (and a
 * module's own .debug_frame), and the search checksums whole files (most of the
 * unwinder's start-up); the names at exit still find them (frame_names.c). */
static int no_debuginfo(Dwfl_Module *m, void **user, const char *name, Dwarf_Addr base,
                        const char *file, const char *link, GElf_Word crc, char **found)
{
    (void)m, (void)user, (void)name, (void)base, (void)file, (void)link, (void)crc;
    *found = NULL;
    return -1;
}

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = no_debuginfo,
};

/* A Dwfl of this process's maps with the sample's thread attached; made again when a
 * frame falls outside its modules (a library dlopen'ed since): reporting again into an
 * attached Dwfl left libdw's address lookup stale. */
static int ready(struct unwinder *u, int again)
{
    if (u->dwfl && (again || u->pid != self_pid())) { /* a forked child: the parent's goes */
        dwfl_end(u->dwfl);
        u->dwfl = NULL;
    }
    if (u->dwfl || u->broken || STACK_UNWIND_REGS_N == 0)
        return u->dwfl != NULL;
    u->pid = self_pid();
    u->refreshed = now_ns();
    u->missed = 0;
    u->dwfl = dwfl_begin(&callbacks);
    if (!u->dwfl || dwfl_linux_proc_report(u->dwfl, u->pid) != 0 ||
        dwfl_report_end(u->dwfl, NULL, NULL) != 0 ||
        !dwfl_attach_state(u->dwfl, NULL, u->pid, &thread_callbacks, u)) {
        if (u->dwfl)
            dwfl_end(u->dwfl);
        u->dwfl = NULL;
        u->broken = 1;
    }
    return u->dwfl != NULL;
}

/* Whether pc lies in a module of d: libdw's lookup also gives the module below an address
 * past the last one's end, so the range is checked too. */
static int known(Dwfl *d, Dwarf_Addr pc)
{
    Dwfl_Module *m = dwfl_addrmodule(d, pc);
    Dwarf_Addr lo = 0, hi = 0;
    return m && dwfl_module_info(m, NULL, &lo, &hi, NULL, NULL, NULL, NULL) && pc >= lo && pc < hi;
}

static int frame(Dwfl_Frame *f, void *arg)
{
    struct unwinder *u = arg;
    Dwarf_Addr pc;
    bool activation;
    if (u->n >= u->max || !dwfl_frame_pc(f, &pc, &activation) || pc == 0)
        return DWARF_CB_ABORT;
    /* a caller's frame holds its return address: the call is the byte before */
    u->ip[u->n++] = activation ? pc : pc - 1;
    if (!known(u->dwfl, pc)) {
        u->missed = 1;
        dwfl_errno(); /* not the unwinder's error: cleared so its end reads as one */
    }
    return DWARF_CB_OK;
}

uint32_t stack_unwind(pid_t tid, const uint64_t *regs, uint64_t nregs, const unsigned char *stack,
                      uint64_t size, uint64_t *ip, uint32_t max, int *failed)
{
    struct unwinder *u = &uw;
    *failed = 0;
    if (max == 0 || nregs < STACK_UNWIND_REGS_N || !ready(u, 0))
        return 0;
#if defined(__x86_64__)
    uint64_t pc = regs[8], sp = regs[7];
#elif defined(__aarch64__)
    uint64_t pc = regs[32], sp = regs[31];
#else
    uint64_t pc = 0, sp = 0;
#endif
    if ((u->missed || !known(u->dwfl, pc)) && now_ns() - u->refreshed > SU_REFRESH_NS &&
        !ready(u, 1))
        return 0;
    u->tid = tid;
    u->regs = regs;
    u->stack = stack;
    u->sp = sp;
    u->size = size;
    u->ip = ip;
    u->n = 0;
    u->max = max;
    u->block_len = 0;
    int rc = dwfl_getthread_frames(u->dwfl, tid, frame, u);
    /* -1: a frame libdw could not unwind (no CFI, an unreadable stack slot) before the
     * outermost one; its stack ends there */
    *failed = rc == -1 && u->n < max;
    return u->n;
}

void stack_unwind_end(void)
{
    if (uw.dwfl && uw.pid == getpid())
        dwfl_end(uw.dwfl);
    memset(&uw, 0, sizeof uw);
}

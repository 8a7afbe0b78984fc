/* stack_unwind.h: a sampled thread's user stack unwound with libdw's CFI unwinder
 * (perf_event's --call-graph dwarf: the registers and the top of the user stack copied
 * with each sample). papi_run's sampling library drains its rings through it; it links
 * libdw, so it is compiled apart from papi_sampling (libpapi keeps to libpfm4 and libc). */
#ifndef STACK_UNWIND_H
#define STACK_UNWIND_H

#include <stdint.h>
#include <sys/types.h>

/* The registers perf copies (sample_regs_user, bit i: perf's register i) and how many
 * DWARF registers libdw gets from them. */
#if defined(__x86_64__)
/* perf's x86 order: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15 */
#define STACK_UNWIND_REGS_MASK (((1ULL << 9) - 1) | (0xffULL << 16)) /* AX..IP, R8..R15: 17 */
#define STACK_UNWIND_REGS_N    17
#elif defined(__aarch64__)
#define STACK_UNWIND_REGS_MASK ((1ULL << 33) - 1) /* x0..x30, sp, pc: 33 values */
#define STACK_UNWIND_REGS_N    33
#else
#define STACK_UNWIND_REGS_MASK 0ULL /* no mapping: dwarf falls back to the sampled address */
#define STACK_UNWIND_REGS_N    0
#endif

/* STACK_UNWIND_REGS_MASK (0 where no mapping to DWARF's numbers is built in). */
uint64_t stack_unwind_regs_mask(void);
/* One sample's frames, leaf first (callers' return addresses less 1), into ip: regs as
 * perf copied them (nregs), the stack copy from the sampled SP (size bytes). The count;
 * *failed = 1 when the unwinding broke before the outermost frame. One caller at a time
 * (the unwinder is the process's one, made on first use). */
uint32_t stack_unwind(pid_t tid, const uint64_t *regs, uint64_t nregs, const unsigned char *stack,
                      uint64_t size, uint64_t *ip, uint32_t max, int *failed);
/* Frees the unwinder (at exit). */
void stack_unwind_end(void);

#endif

/* validate_kernels_arm64.c: papi_validate's arm64 kernels. Each loop iteration ends with
 * "subs x0, x0, #1; b.ne 1b" (2 instructions, 1 conditional branch taken); the bodies
 * hold integer adds, branches taken and not taken, loads and stores, and scalar, NEON
 * (128-bit) and SVE adds, multiplies and FMAs on zeroed registers. Arm's VFP_SPEC (the
 * tables' PAPI_FP_INS) counts scalar FP instructions and ASE_SPEC (PAPI_VEC_INS)
 * Advanced SIMD ones, so each kernel states the one its instructions fall under; FP
 * operation counts take an FMA as two per lane. */
#if defined(__aarch64__)
#include "validate_kernels.h"

#include <stddef.h>
#include <sys/auxv.h>

#ifndef HWCAP_SVE
#define HWCAP_SVE (1 << 22)
#endif

#define VK_FP_CLOBBERS "cc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"
#define VK_ZERO_V                                                                  \
    "movi v0.16b, #0\n\tmovi v1.16b, #0\n\tmovi v2.16b, #0\n\tmovi v3.16b, #0\n\t" \
    "movi v4.16b, #0\n\tmovi v5.16b, #0\n\tmovi v6.16b, #0\n\tmovi v7.16b, #0\n\t" \
    "movi v8.16b, #0\n\tmovi v9.16b, #0\n\t"
#define VK_LOOP_END "subs %0, %0, #1\n\tb.ne 1b\n\t"

/* 4 adds and 4 multiplies on registers "r0".."r8" with suffix s ("d", ".2d" ...). */
#define VK_OP3(op, pre, s, d) op " " pre d s ", " pre d s ", " pre "8" s "\n\t"
#define VK_ADDMUL4(add, mul, pre, s)                                                    \
    "1:\n\t" VK_OP3(add, pre, s, "0") VK_OP3(add, pre, s, "1") VK_OP3(add, pre, s, "2") \
        VK_OP3(add, pre, s, "3") VK_OP3(mul, pre, s, "4") VK_OP3(mul, pre, s, "5")      \
            VK_OP3(mul, pre, s, "6") VK_OP3(mul, pre, s, "7") VK_LOOP_END
/* 4 scalar FMAs (fmadd d0, d8, d9, d0) or NEON/SVE ones (fmla v0.2d, v8.2d, v9.2d). */
#define VK_FMADD(p, d) "fmadd " p d ", " p "8, " p "9, " p d "\n\t"
#define VK_SCALAR_FMA4(p) \
    "1:\n\t" VK_FMADD(p, "0") VK_FMADD(p, "1") VK_FMADD(p, "2") VK_FMADD(p, "3") VK_LOOP_END
#define VK_FMLA(pre, s, d) "fmla " pre d s ", " pre "8" s ", " pre "9" s "\n\t"
#define VK_NEON_FMA4(s)                                                                          \
    "1:\n\t" VK_FMLA("v", s, "0") VK_FMLA("v", s, "1") VK_FMLA("v", s, "2") VK_FMLA("v", s, "3") \
        VK_LOOP_END
/* SVE: unpredicated adds/multiplies; predicated fmla under an all-true p0. */
#define VK_SVE_FMLA(s, d) "fmla z" d s ", p0/m, z8" s ", z9" s "\n\t"
#define VK_SVE_FMA4(s, ptrue)                                                                      \
    ptrue "1:\n\t" VK_SVE_FMLA(s, "0") VK_SVE_FMLA(s, "1") VK_SVE_FMLA(s, "2") VK_SVE_FMLA(s, "3") \
        VK_LOOP_END

#define VK_FP_KERNEL(fn, prefix, body)                                        \
    static void fn(long n)                                                    \
    {                                                                         \
        __asm__ volatile(prefix VK_ZERO_V body : "+r"(n) : : VK_FP_CLOBBERS); \
    }
#define VK_SVE ".arch_extension sve\n\t"
#define VK_SVE_KERNEL(fn, body)                                                     \
    static void fn(long n)                                                          \
    {                                                                               \
        __asm__ volatile(VK_SVE VK_ZERO_V body : "+r"(n) : : VK_FP_CLOBBERS, "p0"); \
    }

VK_FP_KERNEL(sp_scalar_addmul, "", VK_ADDMUL4("fadd", "fmul", "s", ""))
VK_FP_KERNEL(dp_scalar_addmul, "", VK_ADDMUL4("fadd", "fmul", "d", ""))
VK_FP_KERNEL(sp_128_addmul, "", VK_ADDMUL4("fadd", "fmul", "v", ".4s"))
VK_FP_KERNEL(dp_128_addmul, "", VK_ADDMUL4("fadd", "fmul", "v", ".2d"))
VK_FP_KERNEL(sp_scalar_fma, "", VK_SCALAR_FMA4("s"))
VK_FP_KERNEL(dp_scalar_fma, "", VK_SCALAR_FMA4("d"))
VK_FP_KERNEL(sp_128_fma, "", VK_NEON_FMA4(".4s"))
VK_FP_KERNEL(dp_128_fma, "", VK_NEON_FMA4(".2d"))
VK_SVE_KERNEL(sp_sve_addmul, VK_ADDMUL4("fadd", "fmul", "z", ".s"))
VK_SVE_KERNEL(dp_sve_addmul, VK_ADDMUL4("fadd", "fmul", "z", ".d"))
VK_SVE_KERNEL(sp_sve_fma, VK_SVE_FMA4(".s", "ptrue p0.s\n\t"))
VK_SVE_KERNEL(dp_sve_fma, VK_SVE_FMA4(".d", "ptrue p0.d\n\t"))

/* 6 adds: 8 instructions, 1 conditional branch (taken). */
static void int_adds(long n)
{
    __asm__ volatile("1:\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
                     "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t" VK_LOOP_END
                     : "+r"(n)
                     :
                     : "cc", "x9");
}

/* 3 conditional branches: cbnz on zero (not taken), cbz on zero to the next instruction
 * (taken), the loop's b.ne (taken): 4 instructions. */
static void branches(long n)
{
    __asm__ volatile("mov x10, #0\n\t"
                     "1:\n\tcbnz x10, 9f\n\tcbz x10, 2f\n2:\n\t" VK_LOOP_END "9:\n\t"
                     : "+r"(n)
                     :
                     : "cc", "x10");
}

/* An unconditional branch to the next instruction (taken) and the loop's b.ne: 3
 * instructions, 2 branches of which 1 conditional (PAPI_BR_TKN counts only that one). */
static void uncond_jumps(long n)
{
    __asm__ volatile("1:\n\tb 2f\n2:\n\t" VK_LOOP_END : "+r"(n) : : "cc");
}

/* 2 loads and 1 store to a buffer of our own: 5 instructions. */
static void loads_stores(long n)
{
    static long buf[4];
    __asm__ volatile("1:\n\tldr x9, [%1]\n\tldr x10, [%1, #8]\n\tstr x9, [%1, #16]\n\t" VK_LOOP_END
                     : "+r"(n)
                     : "r"(buf)
                     : "cc", "x9", "x10", "memory");
}

static const char *need_sve(void)
{
    return (getauxval(AT_HWCAP) & HWCAP_SVE) ? NULL : "SVE";
}

/* Lanes of an SVE vector: 64-bit (cntd) and 32-bit (cntw) elements. */
static double sve_lanes_d(void)
{
    unsigned long v;
    __asm__ volatile(VK_SVE "cntd %0" : "=r"(v));
    return (double)v;
}
static double sve_lanes_s(void)
{
    unsigned long v;
    __asm__ volatile(VK_SVE "cntw %0" : "=r"(v));
    return (double)v;
}

/* Scalar add/mul: 10 instructions, 8 scalar FP instructions (PAPI_FP_INS). */
#define VK_SCALAR(name, what, P)                                                                \
    {                                                                                           \
#name, what, vk_need_none, name, NULL,                                                  \
        {                                                                                       \
            {"PAPI_TOT_INS", 10, 0}, VK_BRANCH_1, {"PAPI_FP_INS", 8, 0}, {"PAPI_FP_OPS", 8, 0}, \
            {                                                                                   \
                "PAPI_" P "_OPS", 8, 0                                                          \
            }                                                                                   \
        }                                                                                       \
    }
/* NEON add/mul: 10 instructions, 8 Advanced SIMD instructions (PAPI_VEC_INS). */
#define VK_NEON(name, what, P, l)                                         \
    {                                                                     \
#name, what, vk_need_none, name, NULL,                            \
        {                                                                 \
            {"PAPI_TOT_INS", 10, 0}, VK_BRANCH_1, {"PAPI_VEC_INS", 8, 0}, \
                {"PAPI_FP_OPS", 8 * l, 0}, {"PAPI_" P "_OPS", 8 * l, 0},  \
            {                                                             \
                "PAPI_VEC_" P, 8 * l, 0                                   \
            }                                                             \
        }                                                                 \
    }
/* 4 FMAs: 6 instructions, 8 operations per lane. */
#define VK_FMA(name, what, P, l, vec, vins)                                               \
    {                                                                                     \
#name, what, vk_need_none, name, NULL,                                            \
        {                                                                                 \
            {"PAPI_TOT_INS", 6, 0}, VK_BRANCH_1, {vins, 4, 0}, {"PAPI_FP_OPS", 8 * l, 0}, \
                {"PAPI_" P "_OPS", 8 * l, 0},                                             \
            {                                                                             \
                "PAPI_VEC_" P, vec, 0                                                     \
            }                                                                             \
        }                                                                                 \
    }
/* SVE: operation counts per lane of the CPU's vector length. */
#define VK_SVE_K(name, what, P, lanes, ins, fp)                           \
    {                                                                     \
#name, what, need_sve, name, lanes,                               \
        {                                                                 \
            {"PAPI_TOT_INS", ins, 0}, VK_BRANCH_1, {"PAPI_FP_OPS", 8, 1}, \
                {"PAPI_" P "_OPS", 8, 1}, {"PAPI_VEC_" P, 8, 1},          \
            {                                                             \
                "PAPI_VEC_INS", fp, 0                                     \
            }                                                             \
        }                                                                 \
    }

static const struct vk_kernel kernels[] = {
    VK_INTEGER_KERNELS(8, 4, 3, 5),
    VK_SCALAR(sp_scalar_addmul, "fadd/fmul s registers, 4 each", "SP"),
    VK_SCALAR(dp_scalar_addmul, "fadd/fmul d registers, 4 each", "DP"),
    VK_NEON(sp_128_addmul, "NEON fadd/fmul .4s (4 lanes), 4 each", "SP", 4),
    VK_NEON(dp_128_addmul, "NEON fadd/fmul .2d (2 lanes), 4 each", "DP", 2),
    VK_FMA(sp_scalar_fma, "fmadd s registers, 4", "SP", 1, 0, "PAPI_FP_INS"),
    VK_FMA(dp_scalar_fma, "fmadd d registers, 4", "DP", 1, 0, "PAPI_FP_INS"),
    VK_FMA(sp_128_fma, "NEON fmla .4s (4 lanes), 4", "SP", 4, 32, "PAPI_VEC_INS"),
    VK_FMA(dp_128_fma, "NEON fmla .2d (2 lanes), 4", "DP", 2, 16, "PAPI_VEC_INS"),
    VK_SVE_K(sp_sve_addmul, "SVE fadd/fmul z .s (vector length), 4 each", "SP", sve_lanes_s, 10, 8),
    VK_SVE_K(dp_sve_addmul, "SVE fadd/fmul z .d (vector length), 4 each", "DP", sve_lanes_d, 10, 8),
    VK_SVE_K(sp_sve_fma, "SVE fmla z .s (vector length), 4", "SP", sve_lanes_s, 6, 4),
    VK_SVE_K(dp_sve_fma, "SVE fmla z .d (vector length), 4", "DP", sve_lanes_d, 6, 4),
};

const struct vk_kernel *vk_isa_kernels(int *n)
{
    *n = (int)(sizeof kernels / sizeof kernels[0]);
    return kernels;
}

const char *vk_isa(void)
{
    return "arm64";
}
#endif

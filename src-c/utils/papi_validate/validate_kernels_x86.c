/* validate_kernels_x86.c: papi_validate's x86-64 kernels. Each loop iteration ends with
 * "dec %rcx; jnz 1b" (2 instructions, 1 conditional branch taken); the bodies hold
 * integer adds, branches taken and not taken, loads and stores, and SSE/AVX/AVX-512
 * adds, multiplies and FMAs on zeroed registers (no denormals, no exceptions). Intel's
 * FP_ARITH events count an FMA instruction twice, so FMA kernels are judged on
 * operations only (an FMA is two per lane), never on instruction counts. */
#if defined(__x86_64__)
#include "validate_kernels.h"

#include <stddef.h>

/* Clobbers of the FP kernels (xmm names also cover ymm and zmm). */
#define VK_FP_CLOBBERS \
    "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9"
#define VK_ZERO_SSE                                                            \
    "xorps %%xmm0, %%xmm0\n\txorps %%xmm1, %%xmm1\n\txorps %%xmm2, %%xmm2\n\t" \
    "xorps %%xmm3, %%xmm3\n\txorps %%xmm4, %%xmm4\n\txorps %%xmm5, %%xmm5\n\t" \
    "xorps %%xmm6, %%xmm6\n\txorps %%xmm7, %%xmm7\n\txorps %%xmm8, %%xmm8\n\t" \
    "xorps %%xmm9, %%xmm9\n\t"
/* A VEX xor of the xmm register zeroes the whole ymm/zmm register. */
#define VK_ZERO_AVX                                                      \
    "vxorps %%xmm0, %%xmm0, %%xmm0\n\tvxorps %%xmm1, %%xmm1, %%xmm1\n\t" \
    "vxorps %%xmm2, %%xmm2, %%xmm2\n\tvxorps %%xmm3, %%xmm3, %%xmm3\n\t" \
    "vxorps %%xmm4, %%xmm4, %%xmm4\n\tvxorps %%xmm5, %%xmm5, %%xmm5\n\t" \
    "vxorps %%xmm6, %%xmm6, %%xmm6\n\tvxorps %%xmm7, %%xmm7, %%xmm7\n\t" \
    "vxorps %%xmm8, %%xmm8, %%xmm8\n\tvxorps %%xmm9, %%xmm9, %%xmm9\n\t"
#define VK_LOOP_END "dec %%rcx\n\tjnz 1b\n\t"

/* 4 adds and 4 multiplies, SSE (two operands). */
#define VK_SSE_ADDMUL(add, mul)                                                                \
    "1:\n\t" add " %%xmm8, %%xmm0\n\t" add " %%xmm8, %%xmm1\n\t" add " %%xmm8, %%xmm2\n\t" add \
    " %%xmm8, %%xmm3\n\t" mul " %%xmm8, %%xmm4\n\t" mul " %%xmm8, %%xmm5\n\t" mul              \
    " %%xmm8, %%xmm6\n\t" mul " %%xmm8, %%xmm7\n\t" VK_LOOP_END
/* The same, VEX/EVEX (three operands) on registers of prefix r (ymm, zmm). */
#define VK_AVX_OP(op, r, d) op " %%" r "8, %%" r d ", %%" r d "\n\t"
#define VK_AVX_ADDMUL(add, mul, r)                                                \
    "1:\n\t" VK_AVX_OP(add, r, "0") VK_AVX_OP(add, r, "1") VK_AVX_OP(add, r, "2") \
        VK_AVX_OP(add, r, "3") VK_AVX_OP(mul, r, "4") VK_AVX_OP(mul, r, "5")      \
            VK_AVX_OP(mul, r, "6") VK_AVX_OP(mul, r, "7") VK_LOOP_END
/* 4 FMAs (FMA3; EVEX for zmm). */
#define VK_FMA_OP(op, r, d) op " %%" r "9, %%" r "8, %%" r d "\n\t"
#define VK_FMA4(op, r)                                                         \
    "1:\n\t" VK_FMA_OP(op, r, "0") VK_FMA_OP(op, r, "1") VK_FMA_OP(op, r, "2") \
        VK_FMA_OP(op, r, "3") VK_LOOP_END

#define VK_FP_KERNEL(fn, zero, body, after)                             \
    static void fn(long n)                                              \
    {                                                                   \
        __asm__ volatile(zero body after : "+c"(n) : : VK_FP_CLOBBERS); \
    }

VK_FP_KERNEL(sp_scalar_addmul, VK_ZERO_SSE, VK_SSE_ADDMUL("addss", "mulss"), "")
VK_FP_KERNEL(dp_scalar_addmul, VK_ZERO_SSE, VK_SSE_ADDMUL("addsd", "mulsd"), "")
VK_FP_KERNEL(sp_128_addmul, VK_ZERO_SSE, VK_SSE_ADDMUL("addps", "mulps"), "")
VK_FP_KERNEL(dp_128_addmul, VK_ZERO_SSE, VK_SSE_ADDMUL("addpd", "mulpd"), "")
VK_FP_KERNEL(sp_256_addmul, VK_ZERO_AVX, VK_AVX_ADDMUL("vaddps", "vmulps", "ymm"), "vzeroupper")
VK_FP_KERNEL(dp_256_addmul, VK_ZERO_AVX, VK_AVX_ADDMUL("vaddpd", "vmulpd", "ymm"), "vzeroupper")
VK_FP_KERNEL(sp_512_addmul, VK_ZERO_AVX, VK_AVX_ADDMUL("vaddps", "vmulps", "zmm"), "vzeroupper")
VK_FP_KERNEL(dp_512_addmul, VK_ZERO_AVX, VK_AVX_ADDMUL("vaddpd", "vmulpd", "zmm"), "vzeroupper")
VK_FP_KERNEL(sp_scalar_fma, VK_ZERO_AVX, VK_FMA4("vfmadd231ss", "xmm"), "vzeroupper")
VK_FP_KERNEL(dp_scalar_fma, VK_ZERO_AVX, VK_FMA4("vfmadd231sd", "xmm"), "vzeroupper")
VK_FP_KERNEL(sp_128_fma, VK_ZERO_AVX, VK_FMA4("vfmadd231ps", "xmm"), "vzeroupper")
VK_FP_KERNEL(dp_128_fma, VK_ZERO_AVX, VK_FMA4("vfmadd231pd", "xmm"), "vzeroupper")
VK_FP_KERNEL(sp_256_fma, VK_ZERO_AVX, VK_FMA4("vfmadd231ps", "ymm"), "vzeroupper")
VK_FP_KERNEL(dp_256_fma, VK_ZERO_AVX, VK_FMA4("vfmadd231pd", "ymm"), "vzeroupper")
VK_FP_KERNEL(sp_512_fma, VK_ZERO_AVX, VK_FMA4("vfmadd231ps", "zmm"), "vzeroupper")
VK_FP_KERNEL(dp_512_fma, VK_ZERO_AVX, VK_FMA4("vfmadd231pd", "zmm"), "vzeroupper")

/* 6 adds: 8 instructions, 1 conditional branch (taken). */
static void int_adds(long n)
{
    __asm__ volatile("1:\n\tadd $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\t"
                     "add $1, %%rax\n\tadd $1, %%rax\n\tadd $1, %%rax\n\t" VK_LOOP_END
                     : "+c"(n)
                     :
                     : "cc", "rax");
}

/* 3 conditional branches: jnz on zero (not taken), jz on zero to the next instruction
 * (taken), the loop's jnz (taken): 6 instructions. */
static void branches(long n)
{
    __asm__ volatile("xor %%edx, %%edx\n\t"
                     "1:\n\ttest %%rdx, %%rdx\n\tjnz 9f\n\ttest %%rdx, %%rdx\n\tjz 2f\n"
                     "2:\n\t" VK_LOOP_END "9:\n\t"
                     : "+c"(n)
                     :
                     : "cc", "rdx");
}

/* An unconditional jump to the next instruction (taken) and the loop's jnz: 3
 * instructions, 2 branches of which 1 conditional. PAPI_BR_TKN counts conditional
 * branches taken, so a definition that counts every taken branch reads 2 here, not 1. */
static void uncond_jumps(long n)
{
    __asm__ volatile("1:\n\tjmp 2f\n2:\n\t" VK_LOOP_END : "+c"(n) : : "cc");
}

/* 2 loads and 1 store to a buffer of our own: 5 instructions. */
static void loads_stores(long n)
{
    static long buf[4];
    __asm__ volatile(
        "1:\n\tmov (%1), %%rax\n\tmov 8(%1), %%rax\n\tmov %%rax, 16(%1)\n\t" VK_LOOP_END
        : "+c"(n)
        : "r"(buf)
        : "cc", "rax", "memory");
}

static const char *need_avx(void)
{
    return __builtin_cpu_supports("avx") ? NULL : "AVX";
}
static const char *need_fma(void)
{
    return __builtin_cpu_supports("fma") ? NULL : "FMA3";
}
static const char *need_avx512(void)
{
    return __builtin_cpu_supports("avx512f") ? NULL : "AVX-512F";
}

/* add/mul kernel: 10 instructions, 8 FP instructions of lanes l, precision P. */
#define VK_ADDMUL(name, what, need, P, l, packed_ins, packed_ops)            \
    {                                                                        \
#name, what, need, name, NULL,                                       \
        {                                                                    \
            {"PAPI_TOT_INS", 10, 0}, VK_BRANCH_1, {"PAPI_FP_INS", 8, 0},     \
                {"PAPI_FP_OPS", 8 * (l), 0}, {"PAPI_" P "_OPS", 8 * (l), 0}, \
                {"PAPI_VEC_INS", packed_ins, 0},                             \
            {                                                                \
                "PAPI_VEC_" P, packed_ops, 0                                 \
            }                                                                \
        }                                                                    \
    }
/* FMA kernel: 6 instructions, 4 FMAs = 8 operations per lane. */
#define VK_FMA(name, what, need, P, l, packed_ops)                            \
    {                                                                         \
#name, what, need, name, NULL,                                        \
        {                                                                     \
            {"PAPI_TOT_INS", 6, 0}, VK_BRANCH_1, {"PAPI_FP_OPS", 8 * (l), 0}, \
                {"PAPI_" P "_OPS", 8 * (l), 0},                               \
            {                                                                 \
                "PAPI_VEC_" P, packed_ops, 0                                  \
            }                                                                 \
        }                                                                     \
    }

static const struct vk_kernel kernels[] = {
    VK_INTEGER_KERNELS(8, 6, 3, 5),
    VK_ADDMUL(sp_scalar_addmul, "SSE addss/mulss, 4 each", vk_need_none, "SP", 1, 0, 0),
    VK_ADDMUL(dp_scalar_addmul, "SSE addsd/mulsd, 4 each", vk_need_none, "DP", 1, 0, 0),
    VK_ADDMUL(sp_128_addmul, "SSE addps/mulps (4 lanes), 4 each", vk_need_none, "SP", 4, 8, 32),
    VK_ADDMUL(dp_128_addmul, "SSE addpd/mulpd (2 lanes), 4 each", vk_need_none, "DP", 2, 8, 16),
    VK_ADDMUL(sp_256_addmul, "AVX vaddps/vmulps ymm (8 lanes), 4 each", need_avx, "SP", 8, 8, 64),
    VK_ADDMUL(dp_256_addmul, "AVX vaddpd/vmulpd ymm (4 lanes), 4 each", need_avx, "DP", 4, 8, 32),
    VK_ADDMUL(sp_512_addmul, "AVX-512 vaddps/vmulps zmm (16 lanes), 4 each", need_avx512, "SP", 16,
              8, 128),
    VK_ADDMUL(dp_512_addmul, "AVX-512 vaddpd/vmulpd zmm (8 lanes), 4 each", need_avx512, "DP", 8, 8,
              64),
    VK_FMA(sp_scalar_fma, "FMA3 vfmadd231ss, 4", need_fma, "SP", 1, 0),
    VK_FMA(dp_scalar_fma, "FMA3 vfmadd231sd, 4", need_fma, "DP", 1, 0),
    VK_FMA(sp_128_fma, "FMA3 vfmadd231ps xmm (4 lanes), 4", need_fma, "SP", 4, 32),
    VK_FMA(dp_128_fma, "FMA3 vfmadd231pd xmm (2 lanes), 4", need_fma, "DP", 2, 16),
    VK_FMA(sp_256_fma, "FMA3 vfmadd231ps ymm (8 lanes), 4", need_fma, "SP", 8, 64),
    VK_FMA(dp_256_fma, "FMA3 vfmadd231pd ymm (4 lanes), 4", need_fma, "DP", 4, 32),
    VK_FMA(sp_512_fma, "AVX-512 vfmadd231ps zmm (16 lanes), 4", need_avx512, "SP", 16, 128),
    VK_FMA(dp_512_fma, "AVX-512 vfmadd231pd zmm (8 lanes), 4", need_avx512, "DP", 8, 64),
};

const struct vk_kernel *vk_isa_kernels(int *n)
{
    *n = (int)(sizeof kernels / sizeof kernels[0]);
    return kernels;
}

const char *vk_isa(void)
{
    return "x86-64";
}
#endif

/* run_sample_fpcheck.c: --call-graph auto (the default). Before the program's main, each
 * process decides whether its main executable keeps frame pointers, from what its DWARF
 * says, and takes dwarf stacks where it does not (the kernel's frame-pointer walk then
 * finds one or two frames). Facts, in order, per compile unit:
 * - DW_AT_producer: gcc records its switches there (-gno-record-gcc-switches aside), clang
 *   with -grecord-command-line: the last of -fno-omit-frame-pointer / -fomit-frame-pointer
 *   decides; else the -O level: -O0 keeps them, -O1 and above omit them on x86-64, while
 *   arm64's compilers keep AAPCS64 frame records in non-leaf functions at any level.
 * - else the functions' DW_AT_frame_base: clang says the frame pointer (rbp, x29) or the
 *   stack pointer (rsp, sp) there; gcc says DW_OP_call_frame_cfa, which tells nothing.
 * One unit without frame pointers makes the program's choice dwarf (its callers are lost
 * otherwise). A program without DWARF (stripped, a system tool) gets the architecture's
 * default, said as an assumption. Only the main executable is read: shared libraries are
 * not judged. The cost, before main: about 0.2 ms for one unit, 3 ms for 119 (warm). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_sample.h"
#include "run_sample_fpcheck.h"

#define MAX_UNITS     256 /* compile units read at most: about 25 us each (their DIE) */
#define MAX_FUNCTIONS 64  /* functions' frame bases read per unit without switches */

enum { FP_UNKNOWN, FP_KEPT, FP_OMITTED };

#if defined(__x86_64__)
#define ARCH       "x86_64"
#define ARCH_OMITS 1 /* gcc and clang omit frame pointers at -O1 and above */
#define FP_REG     6 /* DWARF's rbp */
#define SP_REG     7 /* DWARF's rsp */
/* gcc 12: a leaf needing no stack frame stays frameless even with that flag */
#define LEAF_FLAG 0
#elif defined(__aarch64__)
#define ARCH       "aarch64"
#define ARCH_OMITS 0 /* AAPCS64: frame records kept in non-leaf functions */
#define FP_REG     29
#define SP_REG     31
#define LEAF_FLAG  1 /* -mno-omit-leaf-frame-pointer frames the leaves too */
#else
#define ARCH       "this CPU"
#define ARCH_OMITS 0 /* (dwarf has no register mapping here: fp either way) */
#define FP_REG     -1
#define SP_REG     -1
#define LEAF_FLAG  1
#endif

/* The unit's verdict from the switches its producer recorded; why gets the switch. */
static int from_switches(const char *producer, char *why, size_t len)
{
    int flag = FP_UNKNOWN, level = -1, recorded = 0, leaves = 0;
    char olevel[16] = "";
    const char *p = producer;
    while (*p) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, " \t");
        if (n > 1 && p[0] == '-' && p[1] != ' ')
            recorded = 1;
        if (n == 23 && strncmp(p, "-fno-omit-frame-pointer", n) == 0)
            flag = FP_KEPT;
        else if (n == 20 && strncmp(p, "-fomit-frame-pointer", n) == 0)
            flag = FP_OMITTED;
        else if (n == 28 && strncmp(p, "-mno-omit-leaf-frame-pointer", n) == 0)
            leaves = 1;
        else if (n >= 2 && strncmp(p, "-O", 2) == 0) {
            level = !(n == 3 && p[2] == '0');
            snprintf(olevel, sizeof olevel, "%.*s", (int)(n < 15 ? n : 15), p);
        }
        p += n;
    }
    /* optimised, gcc leaves a leaf function without a frame unless told (and on x86_64
     * one that needs no stack frame even then): the kernel's walk misses its caller */
    const char *leaf = level > 0 && !(leaves && LEAF_FLAG)
                           ? " (a leaf function without a frame loses its "
                             "caller)"
                           : "";
    if (flag != FP_UNKNOWN) {
        snprintf(why, len, "%s%s",
                 flag == FP_KEPT ? "-fno-omit-frame-pointer" : "-fomit-frame-pointer",
                 flag == FP_KEPT ? leaf : "");
        return flag;
    }
    if (!recorded)
        return FP_UNKNOWN;
    if (level <= 0) {
        snprintf(why, len, "%s, which keeps them", level < 0 ? "no -O" : "-O0");
        return FP_KEPT;
    }
    snprintf(why, len, "%s, which %s them on %s%s", olevel, ARCH_OMITS ? "omits" : "keeps", ARCH,
             ARCH_OMITS ? "" : leaf);
    return ARCH_OMITS ? FP_OMITTED : FP_KEPT;
}

/* The unit's verdict from its functions' DW_AT_frame_base (clang's: a register). */
static int from_frame_base(Dwarf_Die *cu, char *why, size_t len)
{
    Dwarf_Die child;
    int kept = 0, omitted = 0, seen = 0;
    if (FP_REG < 0 || dwarf_child(cu, &child) != 0)
        return FP_UNKNOWN;
    do {
        Dwarf_Attribute attr;
        Dwarf_Op *expr;
        size_t n;
        if (dwarf_tag(&child) != DW_TAG_subprogram ||
            !dwarf_attr(&child, DW_AT_frame_base, &attr) ||
            dwarf_getlocation(&attr, &expr, &n) != 0 || n != 1)
            continue;
        seen++;
        kept += expr[0].atom == DW_OP_reg0 + FP_REG;
        omitted += expr[0].atom == DW_OP_reg0 + SP_REG;
    } while (seen < MAX_FUNCTIONS && dwarf_siblingof(&child, &child) == 0);
    if (!kept && !omitted)
        return FP_UNKNOWN;
    /* a function framed by the frame pointer: the unit keeps them (leaves may not) */
    snprintf(why, len, "DW_AT_frame_base is the %s pointer in %d of %d functions",
             kept ? "frame" : "stack", kept ? kept : omitted, seen);
    return kept ? FP_KEPT : FP_OMITTED;
}

/* A unit's source file's base name, or "?". */
static const char *unit_name(Dwarf_Die *cu)
{
    const char *name = dwarf_diename(cu), *slash = name ? strrchr(name, '/') : NULL;
    return slash ? slash + 1 : name ? name : "?";
}

static int decide(const char *path, char *reason, size_t len)
{
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    char exe[4096], first[512] = "", why[200] = "";
    ssize_t n = readlink(path, exe, sizeof exe - 1);
    if (n > 0) { /* /proc/self/exe: the program's own name */
        exe[n] = 0;
        base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    Dwarf *dw = fd >= 0 ? dwarf_begin(fd, DWARF_C_READ) : NULL;
    int units = 0, kept = 0, omitted = 0, more = 0;
    Dwarf_CU *cu = NULL;
    Dwarf_Die die;
    uint8_t type;
    while (dw && dwarf_get_units(dw, cu, &cu, NULL, &type, &die, NULL) == 0) {
        if (type != DW_UT_compile)
            continue;
        if (units == MAX_UNITS) {
            more = 1;
            break;
        }
        Dwarf_Attribute attr;
        const char *producer = dwarf_formstring(dwarf_attr(&die, DW_AT_producer, &attr));
        Dwarf_Word lang;
        if (!producer || strncmp(producer, "GNU AS", 6) == 0 ||
            (dwarf_formudata(dwarf_attr(&die, DW_AT_language, &attr), &lang) == 0 &&
             lang == DW_LANG_Mips_Assembler))
            continue; /* assembly says nothing of the compiler's frames */
        units++;
        char w[200] = "";
        int v = from_switches(producer, w, sizeof w);
        if (v == FP_UNKNOWN)
            v = from_frame_base(&die, w, sizeof w);
        kept += v == FP_KEPT;
        omitted += v == FP_OMITTED;
        /* the reason quotes the first unit that decides: one without frame pointers */
        if (v != FP_UNKNOWN && (!first[0] || (v == FP_OMITTED && omitted == 1))) {
            snprintf(why, sizeof why, "%s", w);
            snprintf(first, sizeof first, "%s: %.300s", unit_name(&die), producer);
        }
    }
    if (dw)
        dwarf_end(dw);
    if (fd >= 0)
        close(fd);
    if (omitted || kept) {
        snprintf(reason, len,
                 "auto: %s built %s frame pointers (%d of %s%d compile units; %s; "
                 "DW_AT_producer %s)",
                 base, omitted ? "without" : "with", omitted ? omitted : kept,
                 more ? "the first " : "", units, why, first);
        return omitted ? RS_CG_DWARF : RS_CG_FP;
    }
    snprintf(reason, len,
             "auto: %s has %s: assumed built %s frame pointers (%s compilers %s them at -O1 "
             "and above)",
             base, units ? "no compile unit that says how it was built" : "no DWARF compile units",
             ARCH_OMITS ? "without" : "with", ARCH, ARCH_OMITS ? "omit" : "keep");
    return ARCH_OMITS ? RS_CG_DWARF : RS_CG_FP;
}

int rs_fp_decide(const char *path, char *reason, size_t len)
{
    int cg = decide(path, reason, len);
    for (char *c = reason; *c; c++) /* one line in the folded file's header */
        if ((unsigned char)*c < ' ')
            *c = ' ';
    return cg;
}

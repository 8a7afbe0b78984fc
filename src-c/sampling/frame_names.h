/* frame_names.h: the table naming a process's sampled addresses at exit, each once, as the
 * folded format's frames (papi_run's sampling library: frame_names.c). */
#ifndef FRAME_NAMES_H
#define FRAME_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* The address standing for the kernel's frames of a stack (named "[kernel]"). */
#define FRAME_KERNEL 1ULL

struct frame_name {
    const char *name;   /* function (demangled, mod::proc), or module+0xOFFSET */
    const char *module; /* the file's base name, "[kernel]" for the kernel */
    const char *file;   /* source file, NULL when unknown */
    int line;           /* 0 when unknown */
};
struct frame_names;
/* The maps of this process (/proc/self/maps) through the symbolizer; NULL on failure. */
struct frame_names *frame_names_open(void);
/* The index of addr's frame, named on its first lookup (each address is named once);
 * -1 when out of memory. frame_names_get gives the frame of an index < frame_names_count. */
long frame_names_index(struct frame_names *s, uint64_t addr);
size_t frame_names_count(const struct frame_names *s);
const struct frame_name *frame_names_get(const struct frame_names *s, size_t index);
/* Notes on what could not be named (stripped modules, kernel frames), "" when none. */
const char *frame_names_notes(const struct frame_names *s);
void frame_names_close(struct frame_names *s);

#endif

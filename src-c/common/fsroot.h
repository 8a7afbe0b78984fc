/* fsroot.h: the one way the library reads the machine's description from /sys and /proc.
 *
 * Every path is given as on the live system ("/sys/bus/event_source/devices",
 * "/proc/cpuinfo") and resolved under one root: "" for this machine, or the directory of
 * a recorded machine named by PAPI_FSROOT (as hwloc's HWLOC_FSROOT), so a whole recorded
 * machine (its CPU PMUs, perf_event_paranoid, cpuinfo, cpufreq, caches, powercap zones)
 * is one directory and is replayed by every reader at once. It is the only root: no
 * reader has a variable of its own (PAPI_HWINFO_ROOT and PAPI_POWERCAP_DIR are gone).
 *
 * The process's own files (/proc/self/..., /proc/thread-self/..., /proc/<pid>/...)
 * describe this process, never a recorded machine: they are always read live. The
 * variable is read at each call (these reads happen at initialisation and enumeration,
 * never while counting), so a program may switch machines between PAPI_shutdown and
 * PAPI_library_init.
 *
 * Not under the root: libpfm4 reads /proc/cpuinfo and /sys itself to detect which PMUs
 * this CPU has, so its detection is always this machine's. A replay never trusts it: the
 * perf_event component takes a recorded machine's core PMU and preset table from the
 * recording's own sysfs tree and cpuinfo (native_events.c, sysfs_cpu_model.c). hwloc
 * reads under the root only when it is handed HWLOC_FSROOT (hwinfo_topology.c does so
 * for a recording with /sys/devices/system/cpu). */
#ifndef PAPI_FSROOT_H
#define PAPI_FSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Read with env_get (env.h): ignored in a privileged process. */
#define PAPI_FSROOT_ENV "PAPI_FSROOT"

#define FSROOT_HIDDEN __attribute__((visibility("hidden")))

/* The root in force: "" for this machine, else the recorded machine's directory. */
FSROOT_HIDDEN const char *fsroot(void);
/* Whether a recorded machine is being replayed (the root is not ""). */
FSROOT_HIDDEN bool fsroot_replaying(void);

/* abs (an absolute live path) under root ("" = this machine) into out; -1 when it does
 * not fit or abs is not absolute. fsroot_path uses the root in force. */
FSROOT_HIDDEN int fsroot_path_in(const char *root, const char *abs, char *out, size_t len);
FSROOT_HIDDEN int fsroot_path(const char *abs, char *out, size_t len);

/* fopen(.., "re") / opendir / open(O_RDONLY|O_CLOEXEC) / access of abs under the root in
 * force; NULL or -1 with errno set as those calls do (ENAMETOOLONG when it does not fit,
 * EINVAL for what is no regular file: below). */
FSROOT_HIDDEN FILE *fsroot_fopen(const char *abs);
FSROOT_HIDDEN FILE *fsroot_fopen_in(const char *root, const char *abs);
FSROOT_HIDDEN DIR *fsroot_opendir(const char *abs);
FSROOT_HIDDEN int fsroot_open(const char *abs, int flags);
FSROOT_HIDDEN int fsroot_access(const char *abs, int mode);

/* Only regular files are read, of at most FSROOT_MAX_FILE bytes: a FIFO in a recorded
 * tree would block the open, a device (a cpuinfo that links to /dev/zero) the reads.
 * Anything else fails (EISDIR for a directory, EFBIG past the bound, else EINVAL), and
 * the first refusal but a directory is said once on stderr. */
#define FSROOT_MAX_FILE      (64L << 20)
#define FSROOT_MAX_FILE_TEXT "64 MiB"

/* open(O_CLOEXEC) / fopen(.., "re") of a path already resolved (fsroot_path), with the
 * checks above: for readers that keep a directory of the tree (powercap). */
FSROOT_HIDDEN int fsroot_open_file(const char *path, int flags);
FSROOT_HIDDEN FILE *fsroot_fopen_file(const char *path);

/* The first line of a small file, without its newline: 0, or -1 when it is missing,
 * empty or unreadable. */
FSROOT_HIDDEN int fsroot_read_line(const char *abs, char *buf, size_t len);
FSROOT_HIDDEN int fsroot_read_line_in(const char *root, const char *abs, char *buf, size_t len);
/* The start of a small file (up to len - 1 bytes, NUL-terminated after them): the
 * number of bytes read, or -1 when it cannot be opened (buf then holds "", len > 0). */
FSROOT_HIDDEN long fsroot_read_file(const char *abs, char *buf, size_t len);
/* fscanf of exactly one value from a small file: 0 when it was there. */
FSROOT_HIDDEN int fsroot_scan(const char *abs, const char *fmt, ...)
    __attribute__((format(scanf, 2, 3)));

#endif

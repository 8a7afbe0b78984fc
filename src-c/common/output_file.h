/* output_file.h: files the library and the MPI wrapper write into directories users
 * name (PAPI_OUTPUT_DIRECTORY, PAPI_MPI_OUTPUT_DIR), safe in shared directories.
 *
 * A report is written under a fresh temporary name created with O_EXCL|O_NOFOLLOW (so a
 * planted symlink or file is never followed or truncated), completely, then renamed into
 * place: readers see the old file or the whole new one, never a truncated one. The
 * directory must be one we created or one the effective user owns; another user's
 * directory is refused, with its name in the reason. */
#ifndef OUTPUT_FILE_H
#define OUTPUT_FILE_H

#include <stddef.h>

/* Opens path as a directory for output (O_DIRECTORY), creating it and its missing
 * parents (mode 0755 before umask) when create is set. Returns the directory's fd, or -1
 * with why filled in (not a directory, owned by uid N, cannot create: errno text). */
int output_dir_open(const char *path, int create, char *why, size_t whylen);

/* Creates a new empty file in dirfd for the final name (tmp receives its name,
 * ".<final>.XXXXXX"); returns its fd (O_WRONLY|O_CLOEXEC) or -1 with errno set.
 * Async-signal-safe: no allocation, no stdio, no lock. */
int output_file_create(int dirfd, const char *final, char *tmp, size_t tmplen);

/* Writes all len bytes of p to fd, again after EINTR and short writes. 0, or -1 with
 * errno set (0 written counts as an error: a full disk must not loop). Async-signal-safe. */
int output_file_write(int fd, const void *p, size_t len);

/* Renames tmp over final in dirfd (atomic); on failure removes tmp. Returns 0 or -1 with
 * errno set. Async-signal-safe. */
int output_file_publish(int dirfd, const char *tmp, const char *final);

/* Gives tmp the name final only when no file has it (link, then tmp removed): a file
 * another writer published is never replaced. 0, or -1 with errno (EEXIST: the name is
 * taken) and tmp left in place for another name or output_file_discard. */
int output_file_publish_new(int dirfd, const char *tmp, const char *final);

/* Removes a temporary that will not be published. Async-signal-safe. */
void output_file_discard(int dirfd, const char *tmp);

#endif

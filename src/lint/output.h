/* output.h - writing a command's result to a path the user named: whole or
 * not at all for files (temporary file beside the target, then rename),
 * straight into devices and pipes, through symlinks to their target.  It
 * does not build the output; callers hand it the finished bytes. */
#ifndef HLO_OUTPUT_H
#define HLO_OUTPUT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes data to path:
 *   "-", /dev/stdout, /dev/fd/1, /proc/self/fd/1   standard output;
 *   a character device, FIFO or socket, or a /proc or /dev/fd link
 *                                                 written into directly
 *                                                 (append), never renamed;
 *   a symlink                                      followed to its final
 *                                                 target (like sed -i
 *                                                 --follow-symlinks), the
 *                                                 link itself kept;
 *   a regular file or a new path                   a temporary file in the
 *                                                 same directory, fsync'd
 *                                                 and renamed over it,
 *                                                 keeping the old mode.
 * On failure prints "hlolint: error: cannot write WHAT 'path': reason" (what
 * may be NULL) and leaves the target as it was (for files); returns false.
 * Refuses (output_allowed) a file this run read and a read-only one.
 * A killed run's temporary file for path is removed, with a note. */
bool output_write(const char *path, const char *data, size_t n, const char *what);
/* The same for the input itself (annotate --in-place): only read-only refused. */
bool output_write_in_place(const char *path, const char *data, size_t n);
/* Whether a result may replace path, else says why: never a regular file
 * this run read (source_is_input, through any name or link) unless
 * in_place, never a read-only one unless output_set_force(true) (--force).
 * Commands call it before their work too, to fail early. */
bool output_allowed(const char *path, bool in_place);
void output_set_force(bool force);
/* Before any input is read: false, after saying so, when path is one of
 * the n inputs named (through any name or link). */
bool output_not_input(const char *path, const char *const *inputs, uint32_t n);
/* Whether a and b name the same file (the same string, or the same device
 * and inode through any name or link). */
bool output_same_file(const char *a, const char *b);

/* For the driver, once at start-up: SIGXFSZ is ignored (write fails with
 * EFBIG instead of killing the process with a temporary file left), and
 * SIGINT, SIGTERM and SIGHUP remove a temporary file being written before
 * the process dies of the signal. */
void output_init_signals(void);
#endif

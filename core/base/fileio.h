/* fileio.h — reading a whole file, and writing one so that a failure never
 * leaves it half-written. The only file I/O in core/; the model never calls it. */
#ifndef ROOFTOP_FILEIO_H
#define ROOFTOP_FILEIO_H

#include <stddef.h>

#include "jsonio.h"

#define RT_MAX_FILE_BYTES (16u << 20)

/* Reads all of path into a new buffer (NUL-terminated; *len excludes the
 * NUL; free it). Returns 0, or -1 with "PATH: reason" in err: it does not
 * exist, "is a directory", "not a regular file (a fifo)" (or a character
 * device, a block device, a socket: refused without reading, so a fifo
 * never blocks and /dev/zero is never read), it is larger than 16 MiB, a
 * read failed. Never waits for a writer. */
int read_file(const char *path, char **text, size_t *len, char *err, size_t errsize);

/* The most a profiler's export may hold (a full rocprof-compute counter set
 * of ~600 columns reaches 16 MiB at ~3,000 dispatches). */
#define RT_MAX_PROFILE_BYTES (512u << 20)

/* read_file with a limit of max bytes instead of 16 MiB. */
int read_file_limit(const char *path, size_t max, char **text, size_t *len, char *err, size_t errsize);

/* Writes len bytes to path atomically: into a temporary file in the same
 * folder, flushed to disk, then renamed over path. Returns 0; or -1 with
 * "PATH: reason" in err (no permission, disk full ...) and then path is
 * untouched and no temporary file is left; the message says "the old file
 * is untouched" only when there was one. New files get mode 0666 less the
 * umask; an existing file keeps its mode, and its owner and group where the
 * writer may give them (root may; for anyone else the file becomes the
 * writer's, as an editor's save would). A symbolic link is followed (the
 * file it points to is replaced, the link stays); a path that is not a plain
 * file (a device such as /dev/null, a folder, a fifo) is refused. */
int write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errsize);

/* The temporary file a write is filling, kept where a signal handler can
 * reach it, so that a signal that ends the program in the middle of a save
 * does not leave ".NAME.XXXXXX" behind. write_file_atomic() records and
 * forgets its own temporary file; other callers need not call this.
 * path: the file's name, shorter than FILEIO_TEMP_PATH_MAX bytes, or NULL to
 * forget the recorded one. Returns 0; or -1 when path is too long, and then
 * nothing is recorded. One slot for the process: a second call replaces it.
 * Not async-signal-safe: call it with the signals that end the program
 * blocked, or accept that one arriving during the call leaves the file. */
#define FILEIO_TEMP_PATH_MAX 4096
int fileio_temp_path_set(const char *path);

/* Removes (unlink(2)) the temporary file recorded by fileio_temp_path_set()
 * and forgets it. Async-signal-safe: for signal handlers that end the
 * program. Returns 1 when a file was removed, 0 when none was recorded, -1
 * when unlink failed (e.g. it was already gone); errno is left unchanged. */
int fileio_temp_cleanup_signal_safe(void);

/* Loads one file's text; returns 0, or -1 with a message in err. */
typedef int (*json_file_loader)(const char *path, const char *text, size_t len, void *ctx, char *err,
                                size_t errsize);

/* Hands every *.json file of folder dir (not hidden ones), in name order, to
 * load. A file that cannot be read (not a regular file: a fifo is skipped,
 * never waited on), whose path is longer than 4095 bytes, or that load
 * refuses is skipped with a warning in w ("PATH: reason (file skipped)"); a
 * missing folder is nothing to load. For the user's chips and themes
 * folders. */
void load_json_folder(const char *dir, json_file_loader load, void *ctx, struct load_warnings *w);

/* The path as messages show it: whole up to 160 bytes; longer, its first
 * 60 and last 90 bytes around "...", so that a message about a very long
 * path still fits its line and keeps its reason. Writes into buf (size >=
 * 160) and returns it, or returns path itself when it is short. */
const char *path_shown(char *buf, size_t size, const char *path);

#endif

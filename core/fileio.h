/* fileio.h — reading a whole file, and writing one so that a failure never
 * leaves it half-written. The only file I/O in core/; the model never calls it. */
#ifndef ROOFTOP_FILEIO_H
#define ROOFTOP_FILEIO_H

#include <stddef.h>

#define RT_MAX_FILE_BYTES (16u << 20)

/* Reads all of path into a new buffer (NUL-terminated; *len excludes the
 * NUL; free it). Returns 0, or -1 with "PATH: reason" in err: it does not
 * exist, it is a directory, it is larger than 16 MiB, a read failed. */
int read_file(const char *path, char **text, size_t *len, char *err, size_t errsize);

/* Writes len bytes to path atomically: into a temporary file in the same
 * folder, flushed to disk, then renamed over path. Returns 0; or -1 with
 * "PATH: reason" in err (no permission, disk full ...) and then path is
 * untouched and no temporary file is left. New files get mode 0666 less the
 * umask; an existing file keeps its mode. A symbolic link is followed (the
 * file it points to is replaced, the link stays); a path that is not a plain
 * file (a device such as /dev/null, a folder, a fifo) is refused. */
int write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errsize);

#endif

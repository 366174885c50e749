/* fileio.c — whole-file reads and atomic writes. */
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file that is not a regular one is, in words, for messages. */
static const char *file_kind(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a fifo";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "an unknown kind of file";
}

int read_file(const char *path, char **text, size_t *len, char *err, size_t errsize)
{
    return read_file_limit(path, RT_MAX_FILE_BYTES, text, len, err, errsize);
}

int read_file_limit(const char *path, size_t max, char **text, size_t *len, char *err, size_t errsize)
{
    char shown_buf[200];
    const char *shown = path_shown(shown_buf, sizeof shown_buf, path); /* for messages */
    *text = NULL;
    *len = 0;
    /* O_NONBLOCK: opening a fifo for reading waits for a writer, forever;
     * with it the open returns at once and fstat tells what it is. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        snprintf(err, errsize, "%s: %s", shown, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err, errsize, "%s: %s", shown, strerror(errno));
        close(fd);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errsize, "%s: is a directory", shown);
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errsize, "%s: not a regular file (%s)", shown, file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            if (cap >= max) {
                /* exactly the limit is within it: only a byte past it refuses the file */
                char one;
                ssize_t more;
                while ((more = read(fd, &one, 1)) < 0 && errno == EINTR)
                    ;
                if (more == 0)
                    break;
                snprintf(err, errsize, "%s: larger than %zu MiB; refused", shown, max >> 20);
                free(buf);
                close(fd);
                return -1;
            }
            cap *= 2;
            char *bigger = realloc(buf, cap + 1);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, errsize, "%s: %s", shown, strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (!buf) {
        snprintf(err, errsize, "%s: out of memory", shown);
        return -1;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* The temporary file being written, for fileio_temp_cleanup_signal_safe():
 * the name, and whether it holds one (set only once the name is complete). */
static char temp_path[FILEIO_TEMP_PATH_MAX];
static volatile sig_atomic_t temp_path_recorded;

int fileio_temp_path_set(const char *path)
{
    temp_path_recorded = 0;
    if (path == NULL)
        return 0;
    size_t n = strlen(path);
    if (n >= sizeof temp_path)
        return -1;
    memcpy(temp_path, path, n + 1);
    temp_path_recorded = 1;
    return 0;
}

int fileio_temp_cleanup_signal_safe(void)
{
    if (!temp_path_recorded)
        return 0;
    temp_path_recorded = 0;
    int saved_errno = errno;
    int rc = unlink(temp_path) == 0 ? 1 : -1;
    errno = saved_errno;
    return rc;
}

/* mkstemp(tmpl), and the name recorded for a signal handler, with every
 * signal held back in between so that none can leave the file unrecorded. */
static int mkstemp_recorded(char *tmpl)
{
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, &old);
    int fd = mkstemp(tmpl);
    int saved_errno = errno;
    if (fd >= 0)
        fileio_temp_path_set(tmpl);
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = saved_errno;
    return fd;
}

int write_file_atomic(const char *path, const char *data, size_t len, char *err, size_t errsize)
{
    char shown_buf[200];
    const char *shown = path_shown(shown_buf, sizeof shown_buf, path); /* for messages */
    /* Write where a symbolic link points, and never replace what is not a
     * plain file: renaming over /dev/null or a fifo would destroy it. */
    char resolved[PATH_MAX];
    struct stat target;
    if (lstat(path, &target) == 0 && S_ISLNK(target.st_mode)) {
        if (!realpath(path, resolved)) {
            snprintf(err, errsize, "%s: not written: the link leads nowhere (%s)", shown, strerror(errno));
            return -1;
        }
        path = resolved;
    }
    bool existed = stat(path, &target) == 0;
    if (existed && !S_ISREG(target.st_mode)) {
        snprintf(err, errsize, "%s: not written: it is not a plain file (a device, folder or pipe); give a file path",
                 shown);
        return -1;
    }
    char tmp[4096];
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    if (snprintf(tmp, sizeof tmp, "%.*s.%s.XXXXXX", dir_len, path, slash ? slash + 1 : path) >= (int)sizeof tmp) {
        snprintf(err, errsize, "%s: path too long", shown);
        return -1;
    }
    int fd = mkstemp_recorded(tmp);
    if (fd < 0) {
        snprintf(err, errsize, "%s: not written: cannot create a temporary file beside it (%s)", shown,
                 strerror(errno));
        return -1;
    }
    mode_t mode;
    if (existed) {
        mode = target.st_mode & 07777;
    } else {
        mode_t mask = umask(022);
        umask(mask);
        mode = 0666 & ~mask;
    }
    const char *p = data;
    size_t left = len;
    int saved = 0;
    while (left > 0) {
        ssize_t put = write(fd, p, left);
        if (put < 0 && errno == EINTR)
            continue;
        if (put < 0) {
            saved = errno;
            break;
        }
        p += put;
        left -= (size_t)put;
    }
    /* The replacement keeps the old file's owner (root saving over a user's
     * file must not take it from them), then its mode: chown first, as it
     * may clear set-id bits. Only root may give a file away; anyone else
     * gets EPERM and the file becomes theirs, as any editor's save would. */
    if (!saved && existed && fchown(fd, target.st_uid, target.st_gid) != 0 && !(errno == EPERM && geteuid() != 0))
        saved = errno;
    if (!saved && fchmod(fd, mode) != 0)
        saved = errno;
    if (!saved && fsync(fd) != 0)
        saved = errno;
    if (close(fd) != 0 && !saved)
        saved = errno;
    if (!saved && rename(tmp, path) != 0)
        saved = errno;
    int left_behind = 0; /* errno of a temporary file that could not be removed */
    if (saved && unlink(tmp) != 0 && errno != ENOENT)
        left_behind = errno;
    fileio_temp_path_set(NULL); /* renamed or removed: nothing for a handler to clean */
    if (saved) {
        char also[PATH_MAX + 160] = "";
        if (left_behind) {
            char tshown[200];
            snprintf(also, sizeof also, "; its temporary file %s could not be removed (%s): remove it",
                     path_shown(tshown, sizeof tshown, tmp), strerror(left_behind));
        }
        if (existed)
            snprintf(err, errsize, "%s: not written (%s); the old file is untouched%s", shown, strerror(saved), also);
        else
            snprintf(err, errsize, "%s: not written (%s)%s", shown, strerror(saved), also);
        return -1;
    }
    return 0;
}

/* Keeps directory entries whose names end in .json (and are not hidden). */
static int json_entry(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return d->d_name[0] != '.' && n > 5 && strcmp(d->d_name + n - 5, ".json") == 0;
}

void load_json_folder(const char *dir, json_file_loader load, void *ctx, struct load_warnings *w)
{
    struct dirent **names = NULL;
    int n = scandir(dir, &names, json_entry, alphasort);
    for (int i = 0; i < n; i++) {
        char path[4096], err[600], *text;
        size_t len;
        if (snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name) >= (int)sizeof path) {
            warn_add(w, "%.100s.../%.60s: path longer than %zu bytes (file skipped)", dir, names[i]->d_name,
                     sizeof path - 1);
        } else if (read_file(path, &text, &len, err, sizeof err) == 0) {
            if (load(path, text, len, ctx, err, sizeof err) != 0)
                warn_add(w, "%s (file skipped)", err);
            free(text);
        } else {
            warn_add(w, "%s (file skipped)", err);
        }
        free(names[i]);
    }
    free(names);
}

const char *path_shown(char *buf, size_t size, const char *path)
{
    size_t n = strlen(path);
    if (n <= 160 || size < 160)
        return path;
    snprintf(buf, size, "%.60s...%s", path, path + n - 90);
    return buf;
}

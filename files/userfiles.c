/* userfiles.c — chip files and HuggingFace configs named by a path. */
#include "userfiles.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chipfile.h"
#include "fileio.h"
#include "hfconfig.h"
#include "hfquant.h"

/* True when text names a file or folder rather than a built-in name: it has
 * a slash, ends in .json, or exists. */
int userfile_expand_home(const char *path, char *out, size_t size)
{
    const char *home = getenv("HOME");
    bool tilde = path[0] == '~' && path[1] == '/' && home && home[0];
    int n = tilde ? snprintf(out, size, "%s%s", home, path + 1) : snprintf(out, size, "%s", path);
    if (n < 0 || (size_t)n >= size) {
        if (size > 0)
            out[0] = '\0';
        return -1;
    }
    return 0;
}

bool userfile_written_as_path(const char *text)
{
    size_t n = strlen(text);
    return strchr(text, '/') || (n > 5 && strcmp(text + n - 5, ".json") == 0);
}

bool userfile_looks_like_path(const char *text)
{
    struct stat st;
    return userfile_written_as_path(text) || stat(text, &st) == 0;
}

int userfile_read(const char *what, const char *path, char **text, size_t *len, char *err, size_t errsize)
{
    *text = NULL;
    *len = 0;
    if (!path[0]) {
        snprintf(err, errsize, "%s: no file named (the path is empty)", what);
        return -1;
    }
    return read_file(path, text, len, err, errsize) == 0 ? 0 : -1;
}

int userfile_chip(const char *what, const char *path, struct chip_spec *out, struct load_warnings *w, char *err,
                  size_t errsize)
{
    char *text;
    size_t len, count = 0;
    struct chip_spec chips[16];
    if (userfile_read(what, path, &text, &len, err, errsize) != 0)
        return -1;
    char shown[200];
    int st = chips_from_text(text, len, path_shown(shown, sizeof shown, path), chips, 16, &count, w, err, errsize);
    free(text);
    if (st != 0)
        return -1;
    if (count > 1)
        warn_add(w, "%s: holds %zu chips; %s uses the first, '%s' (put the file in the chips folder to use the "
                    "others by name)",
                 path, count, what, chips[0].key);
    *out = chips[0];
    return 0;
}

/* Cuts p (a path) to its last component's start, after dropping trailing
 * slashes and "/." components ("a/b/./" -> "a/b", leaf "b"); p = "/" keeps
 * its slash and has the leaf "". Returns the leaf, inside p. */
static char *path_leaf(char *p)
{
    for (;;) {
        size_t n = strlen(p);
        if (n > 1 && p[n - 1] == '/')
            p[n - 1] = '\0';
        else if (n >= 2 && p[n - 1] == '.' && p[n - 2] == '/')
            p[n - 1] = '\0';
        else
            break;
    }
    char *slash = strrchr(p, '/');
    return slash ? slash + 1 : p;
}

/* The model's name from where its config came from: a folder, or the
 * config.json in it, names the model after the folder
 * (.../Llama-3.1-8B/config.json -> Llama-3.1-8B; ".", "./" or
 * "./config.json" -> the current folder's own name); any other file after
 * its name less ".json" (configs/gpt-j-6b.json -> gpt-j-6b). Long names are
 * cut to size; when no name can be told ("/", a current folder that cannot
 * be resolved) name is "" and the config's model_type names the model.
 * Returns 0, or -1 when path is longer than 4095 bytes (name is then ""). */
static int model_name_from_path(const char *path, bool dir, char *name, size_t size)
{
    char p[4096], real[PATH_MAX];
    name[0] = '\0';
    if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p)
        return -1;
    char *leaf = path_leaf(p);
    if (!dir && strcmp(leaf, "config.json") != 0) {
        snprintf(name, size, "%.*s", (int)size - 1, leaf);
        size_t n = strlen(leaf);
        if (n > 5 && strcmp(leaf + n - 5, ".json") == 0 && n - 5 < size)
            name[n - 5] = '\0';
        return 0;
    }
    if (!dir) { /* config.json: the folder it is in */
        *leaf = '\0';
        leaf = path_leaf(p);
    }
    if (leaf[0] == '\0' || strcmp(leaf, ".") == 0 || strcmp(leaf, "..") == 0) {
        /* "", ".", "..", "/": only the file system knows the folder's name. */
        if (!realpath(p[0] ? p : ".", real))
            return 0;
        char *slash = strrchr(real, '/');
        leaf = slash ? slash + 1 : real;
    }
    snprintf(name, size, "%.*s", (int)size - 1, leaf);
    return 0;
}

int userfile_model(const char *what, const char *path, struct model_shape *out, struct load_warnings *w, char *err,
                   size_t errsize)
{
    char file[4096], name[RT_MODEL_NAME_MAX];
    struct stat st;
    bool dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
    int n = snprintf(file, sizeof file, "%s%s", path, dir ? "/config.json" : "");
    if (n >= (int)sizeof file || model_name_from_path(path, dir, name, sizeof name) != 0) {
        snprintf(err, errsize, "%s: the path is too long (%d bytes%s; at most %zu)", what, n,
                 dir ? " with /config.json" : "", sizeof file - 1);
        return -1;
    }
    char *text;
    size_t len;
    if (userfile_read(what, file, &text, &len, err, errsize) != 0)
        return -1;
    char shown[200];
    int rc = model_from_hf_config(text, len, path_shown(shown, sizeof shown, file), name, out, w, err, errsize);
    free(text);
    if (rc != 0)
        return -1;
    /* ModelOpt's hf_quant_config.json beside it states the checkpoint's format (hfquant.h). */
    char quant[4096 + 32];
    const char *slash = strrchr(file, '/');
    int q = slash ? snprintf(quant, sizeof quant, "%.*s/hf_quant_config.json", (int)(slash - file), file)
                  : snprintf(quant, sizeof quant, "hf_quant_config.json");
    if (q > 0 && (size_t)q < sizeof quant && access(quant, F_OK) == 0) {
        if (userfile_read(what, quant, &text, &len, err, errsize) != 0)
            return -1;
        rc = hf_quant_from_file(text, len, path_shown(shown, sizeof shown, quant), out, w, err, errsize);
        free(text);
    }
    return rc != 0 ? -1 : 0;
}

int userfile_write_chip(const char *path, const struct chip_spec *chip, char *err, size_t errsize)
{
    cJSON *root = cJSON_CreateObject();
    if (root)
        chip_to_json(root, chip);
    char *text = root && json_make_exact(root) == 0 ? cJSON_Print(root) : NULL;
    cJSON_Delete(root);
    size_t len = text ? strlen(text) : 0;
    char *with_newline = text ? malloc(len + 2) : NULL;
    int status = 0;
    if (!with_newline) {
        snprintf(err, errsize, "out of memory");
        status = -1;
    } else {
        memcpy(with_newline, text, len);
        with_newline[len] = '\n';
        with_newline[len + 1] = '\0';
        if (write_file_atomic(path, with_newline, len + 1, err, errsize) != 0)
            status = -1;
    }
    free(with_newline);
    cJSON_free(text);
    return status;
}

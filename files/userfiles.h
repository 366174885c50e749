/* userfiles.h — the user's chip files and HuggingFace configs, named by a
 * path on the command line (--chip PATH, --model PATH) or typed into the
 * explorer's chip and model knobs: one reader for both, so a path works the
 * same in each place.
 *
 * `what` names the place in messages: the flag ("--chip") on the command
 * line, the knob ("chip") in the explorer.
 */
#ifndef ROOFTOP_USERFILES_H
#define ROOFTOP_USERFILES_H

#include <stdbool.h>
#include <stddef.h>

#include "chips.h"
#include "jsonio.h"
#include "models.h"

/* A path the user typed in the explorer, with a leading "~/" read as a
 * shell would ($HOME; left as typed when HOME is unset or empty), into out
 * (size bytes). Returns 0, or -1 when the result would not fit (never a
 * path cut short: it would name another file); out is then "". */
int userfile_expand_home(const char *path, char *out, size_t size);

/* True when text names a file or folder rather than a built-in name: it is
 * written as a path (userfile_written_as_path) or exists. */
bool userfile_looks_like_path(const char *text);

/* True when text is written as a path: it has a slash or ends in ".json".
 * Such text is never looked up as a built-in name ("./Llama-3.1-8B" is that
 * folder, not the built-in llama-3.1-8b, whose name it normalises to). */
bool userfile_written_as_path(const char *text);

/* Reads the file at path into a new buffer (free it). Returns 0; or -1 with
 * one line in err: "WHAT: no file named (the path is empty)", or
 * read_file's "PATH: reason" (no such file, not a regular file such as a
 * fifo, larger than 16 MiB ...). */
int userfile_read(const char *what, const char *path, char **text, size_t *len, char *err, size_t errsize);

/* The first chip of the chip file at path into *out (a file holding more
 * adds a warning to w saying which it took). Returns 0, or -1 with err set
 * (userfile_read's message, or the chip file's "PATH:LINE:COL: ..."). */
int userfile_chip(const char *what, const char *path, struct chip_spec *out, struct load_warnings *w, char *err,
                  size_t errsize);

/* Reads a HuggingFace config.json, or the folder holding one, into *out,
 * named after its folder (or its file, less ".json"). Returns 0, or -1 with
 * err set: "WHAT: the path is too long ..." when path (with "/config.json"
 * for a folder) is longer than 4095 bytes (never cut short: a shorter path
 * names another file), or the read's or the config's message. */
/* Saves chip (with its fitted profiles) as a chip file at path, written
 * atomically (a crash leaves the old file or none, never half of one).
 * Returns 0, or -1 with the reason in err ("out of memory", or the
 * write's message naming the path). */
int userfile_write_chip(const char *path, const struct chip_spec *chip, char *err, size_t errsize);

int userfile_model(const char *what, const char *path, struct model_shape *out, struct load_warnings *w, char *err,
                   size_t errsize);

#endif

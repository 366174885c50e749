/* chipfile.h — chips from JSON files, and the set of chips a run knows.
 *
 * A chip file holds one object or a list of them:
 *   {"name": "My accelerator", "key": "my-acc",
 *    "peak_flops_per_s": {"bf16": 989.4e12, "fp8": 1978.9e12, "int8": 1978.9e12, "int4": null},
 *    "hbm_bytes": 80e9, "hbm_bytes_per_s": 3.35e12, "interconnect_bytes_per_s": 900e9,
 *    "tdp_w": 700, "vector_flops_per_s": 67e12, "source": "...", "notes": "...", "sparse": false}
 * Peaks are dense. "sparse": true says the file's peaks are 2:4-sparse
 * figures: they are halved once on load, and the chip remembers it
 * (sparse_halved) so that nothing halves them again. The researched
 * reference's spellings "peak_flops" and "hbm_bw_bytes_per_s" are accepted.
 */
#ifndef ROOFTOP_CHIPFILE_H
#define ROOFTOP_CHIPFILE_H

#include <stddef.h>

#include "chips.h"
#include "jsonio.h"

/* Reads one chip from a JSON object; origin is recorded in the chip.
 * Returns 0, or -1 with "PATH: ..." naming the key in err. what, when not
 * "", says which chip failed ("chip [2] of the list", "'chip'"). */
int chip_from_json(const cJSON *obj, const char *path, const char *what, struct chip_spec *out,
                   struct load_warnings *w, char *err, size_t errsize);

/* Adds chip c to a cJSON object being built (the file format above, peaks
 * dense, with "sparse_halved" recording a halving already done). */
void chip_to_json(cJSON *obj, const struct chip_spec *c);

/* Reads a chip's "efficiency" block (realistic.h) into *out: "matmul"
 * {"bf16", "fp8", "int8", "int4"} and "memory" and "link" in (0, 1],
 * "kernel_overhead_s" and "allreduce_step_s" in [0, 1] s, "sm_count",
 * "calibrated", "source"; keys left out take the generic profile's values
 * (out->sm_count is kept unless given). Returns 0, or -1 with
 * "PATH: 'efficiency.KEY' must be ..." in err. */
int efficiency_from_json(const cJSON *obj, const char *path, struct efficiency_profile *out, struct load_warnings *w,
                         char *err, size_t errsize);

/* Writes a profile's keys (as efficiency_from_json reads them) into obj. */
void efficiency_to_json(cJSON *obj, const struct efficiency_profile *e);

/* Reads an engine profile file (realistic.h): {"name", "step_overhead_s"
 * in [0, 10] s, "attention" and "moe" in (0, 1], "calibrated", "source"};
 * keys left out take the generic engine's values. Returns 0, or -1 with a
 * message naming the key in err. */
int engine_from_text(const char *text, size_t len, const char *path, struct engine_profile *out,
                     struct load_warnings *w, char *err, size_t errsize);

/* Writes an engine profile's keys into obj. */
void engine_to_json(cJSON *obj, const struct engine_profile *e);

/* Parses a chip file's text. Fills chips[0..max) and sets *count. Returns 0,
 * or -1 with err set (a file with more than max chips is an error). */
int chips_from_text(const char *text, size_t len, const char *path, struct chip_spec *chips, size_t max,
                    size_t *count, struct load_warnings *w, char *err, size_t errsize);

/* The chips a run knows: the built-ins, then the user's files (which replace
 * a built-in of the same key, with a warning). */
struct chip_db {
    struct chip_spec *chips;
    size_t count, cap;
};

/* Fills db with copies of the built-in chips. Returns 0, -1 out of memory. */
int chip_db_init(struct chip_db *db);

/* Adds c, replacing a chip with the same key (and warning). 0, or -1 OOM. */
int chip_db_add(struct chip_db *db, const struct chip_spec *c, struct load_warnings *w);

/* Finds a chip by key, alias or display name (as chip_find). NULL if none. */
const struct chip_spec *chip_db_find(const struct chip_db *db, const char *name);

/* db's chips as a list (borrowed: valid until db changes or is freed). */
struct chip_list chip_db_list(const struct chip_db *db);

/* Frees db's storage. */
void chip_db_free(struct chip_db *db);

#endif

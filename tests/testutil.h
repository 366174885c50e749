/* testutil.h — shared helpers for rooftop's cmocka tests. */
#ifndef ROOFTOP_TESTUTIL_H
#define ROOFTOP_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis.h"
#include "fileio.h"
#include "hfconfig.h"
#include "notewords.h"

/* Asserts that v printed with fmt reads exactly want: the guide's figures are
 * checked to the printed digit, as the guide prints them. */
#define ASSERT_PRINTED(fmt, v, want)                                                                                   \
    do {                                                                                                               \
        char printed_[64];                                                                                             \
        snprintf(printed_, sizeof printed_, fmt, (v));                                                                 \
        assert_string_equal(printed_, want);                                                                           \
    } while (0)

/* Asserts |got - want| <= tol. */
#define ASSERT_NEAR(got, want, tol)                                                                                    \
    do {                                                                                                               \
        double got_ = (got), want_ = (want), tol_ = (tol);                                                             \
        if (!(got_ >= want_ - tol_ && got_ <= want_ + tol_))                                                           \
            fail_msg("%s = %.17g, want %.17g +/- %g", #got, got_, want_, tol_);                                         \
    } while (0)

/* The default scenario with the guide's napkin giving the verdict (the
 * default verdict is the realistic estimate's; the guide's tables are the
 * napkin's, exactly). */
static inline void guide_napkin(struct scenario *s)
{
    scenario_default(s);
    s->latency_model = RT_LATENCY_NAPKIN;
}

/* Analyzes s, failing the test with analyze()'s message when it refuses. */
/* Note i of a as its sentence (note_text), in one of four rotating buffers:
 * enough for the few a test compares at once. Fails the test when the note
 * words itself as a bug (its values and its wording disagree). */
static inline const char *test_note(const struct analysis *a, int i)
{
    static char buf[4][RT_NOTE_MAX];
    static int k;
    k = (k + 1) % 4;
    note_text(buf[k], sizeof buf[k], &a->notes[i]);
    if (strstr(buf[k], "(rooftop bug:"))
        fail_msg("%s", buf[k]); /* a note recorded with values its wording does not take */
    return buf[k];
}

static inline struct analysis must_analyze(const struct scenario *s)
{
    struct analysis a;
    char err[256];
    if (analyze(s, &a, err, sizeof err) != 0)
        fail_msg("analyze refused: %s", err);
    return a;
}

/* Loads tests/fixtures/hf/DIR/config.json into a shape, failing the test on
 * any error. */
static inline struct model_shape test_load_fixture(const char *dir)
{
    char path[256], err[400], *text;
    size_t len;
    snprintf(path, sizeof path, "tests/fixtures/hf/%s/config.json", dir);
    if (read_file(path, &text, &len, err, sizeof err) != 0)
        fail_msg("%s", err);
    struct model_shape m;
    struct load_warnings w = {0};
    if (model_from_hf_config(text, len, path, dir, &m, &w, err, sizeof err) != 0)
        fail_msg("%s", err);
    free(text);
    return m;
}

/* The operation named name in phase cost pc, failing the test when it has
 * none. */
static inline const struct op_cost *test_op(const struct phase_cost *pc, const char *name)
{
    for (int i = 0; i < pc->count; i++)
        if (strcmp(pc->ops[i].name, name) == 0)
            return &pc->ops[i];
    fail_msg("no operation %s", name);
    return NULL;
}

/* Decodes len bytes of padded RFC 4648 base64 into a new NUL-terminated
 * string (free it); NULL on a character outside the alphabet. */
static inline char *test_base64_decode(const char *text, size_t len)
{
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(len / 4 * 3 + 1);
    size_t o = 0;
    unsigned v = 0;
    int bits = 0;
    for (size_t i = 0; out && i < len && text[i] != '='; i++) {
        const char *p = text[i] ? strchr(alphabet, text[i]) : NULL;
        if (!p) {
            free(out);
            return NULL;
        }
        v = (v << 6) | (unsigned)(p - alphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (char)((v >> bits) & 0xff);
        }
    }
    if (out)
        out[o] = '\0';
    return out;
}

#endif

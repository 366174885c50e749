/* searchreport.c — text, markdown, JSON and CSV renderings of a design
 * search (searchreport.h). */
#include "searchreport.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

#define TEXT_WIDTH 80

/* ---- shared ------------------------------------------------------------- */

/* How the summary names each kind of rejection (search.h's bits, in order). */
static const char *const reason_name[] = {"does not fit in HBM", "prefill pool too small or overloaded",
                                          "misses the TTFT target", "misses the TPOT target"};
enum { NKINDS = RT_REJECT_KINDS };
_Static_assert(sizeof reason_name / sizeof reason_name[0] == NKINDS, "a name for each kind of rejection");

/* Counts, for each kind, the rejected candidates that fail that way (a
 * candidate can fail several ways). */
static void count_reasons(const struct search_result *r, size_t n[NKINDS])
{
    for (size_t j = 0; j < NKINDS; j++)
        n[j] = 0;
    for (size_t i = 0; i < r->count; i++)
        for (size_t j = 0; j < NKINDS; j++)
            n[j] += (r->candidates[i].rejected >> j) & 1u;
}

/* The frontier's indices in display order (malloc'd; *n of them). Returns
 * NULL with *n = 0 when it is empty, or with *failed set on out-of-memory. */
static size_t *frontier_order(const struct search_result *r, size_t *n, bool *failed)
{
    *n = 0;
    if (r->frontier == 0)
        return NULL;
    size_t *idx = malloc(r->frontier * sizeof *idx);
    if (!idx) {
        *failed = true;
        return NULL;
    }
    *n = search_frontier_order(r, idx, r->frontier);
    return idx;
}

/* The precisions tried, "bf16 and fp8", into buf. */
static char *precisions_text(char *buf, size_t size, const struct scenario *base, const struct search_options *opt)
{
    unsigned mask = opt->precisions ? opt->precisions : 1u << base->precision;
    int total = 0, done = 0;
    for (int p = 0; p < RT_PRECISION_COUNT; p++)
        total += (mask >> p) & 1u;
    buf[0] = '\0';
    for (int i = 0; i < RT_PRECISION_COUNT; i++) { /* in the order people see them */
        enum rt_precision p = precision_ordered(i);
        if (!((mask >> p) & 1u))
            continue;
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", done == 0 ? "" : done == total - 1 ? " and " : ", ",
                 precision_name(p));
        done++;
    }
    return buf;
}

/* "<= 1.000 s" for a target, or "none". */
static char *target_text(char *buf, size_t size, double target_s)
{
    char t[32];
    if (target_s > 0.0)
        snprintf(buf, size, "<= %s", format_seconds(t, sizeof t, target_s));
    else
        snprintf(buf, size, "none");
    return buf;
}

/* Appends text wrapped at TEXT_WIDTH columns on spaces, continuation lines
 * indented by two spaces, ending with a newline. A word longer than a line
 * gets a line of its own. */
static void wrap(struct strbuf *sb, const char *text)
{
    size_t col = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t len = strcspn(p, " ");
        if (col > 0 && col + 1 + len > TEXT_WIDTH) {
            sb_puts(sb, "\n  ");
            col = 2;
        } else if (col > 0) {
            sb_puts(sb, " ");
            col++;
        }
        sb_printf(sb, "%.*s", (int)len, p);
        col += len;
        p += len;
    }
    sb_puts(sb, "\n");
}

/* One paragraph built with printf, then wrapped. */
static void paragraph(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void paragraph(struct strbuf *sb, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    wrap(sb, buf);
}

/* The lines both human formats start with: what was searched, under which
 * targets, and the counts (md: bold labels, paragraphs apart). */
static void summary(struct strbuf *sb, const struct scenario *base, const struct search_options *opt,
                    const struct search_result *r, bool md)
{
    char x[32], y[32], prec[64], ep[64] = "";
    const char *b = md ? "**" : "";
    const struct model_shape *m = &base->model;
    paragraph(sb, "%sDesign search:%s %s on %s, %lld prompt + %lld output tokens per request, KV cache at %s, %s engine",
              b, b, m->name, base->chip.name, (long long)base->prefill_tokens, (long long)base->decode_tokens,
              precision_name(base->kv_precision), base->engine.name);
    if (md)
        sb_puts(sb, "\n");
    paragraph(sb, "%sTargets:%s TTFT %s, TPOT %s (the realistic estimate, steady-state serving)", b, b,
              target_text(x, sizeof x, base->ttft_target_s), target_text(y, sizeof y, base->tpot_target_s));
    if (md)
        sb_puts(sb, "\n");
    if (m->experts > 1)
        snprintf(ep, sizeof ep, ", ep dividing the %lld experts", (long long)m->experts);
    paragraph(sb,
              "%sTried:%s tp x pp x ep up to %lld chips (tp dividing the %lld heads, pp up to %lld%s), batch 1 to "
              "%lld in powers of two, %s weights, %s. dp not varied: replicas do not change per-chip figures. "
              "Quality of lower precisions is not modelled.",
              b, b, (long long)opt->max_chips, (long long)m->heads, (long long)(m->layers < RT_SEARCH_PP_MAX ? m->layers : RT_SEARCH_PP_MAX), ep,
              (long long)opt->max_batch, precisions_text(prec, sizeof prec, base, opt),
              opt->disaggregate ? "prefill on the decode chips and on pools of powers of two beside them (a pool "
                                  "holds the weights and keeps up with the decode chips)"
                                : "prefill on the decode chips");
    if (md)
        sb_puts(sb, "\n");
    if (base->spec_tokens > 0) {
        char acc[160];
        char tree[64] = "";
        if (base->spec_verify_tokens > base->spec_tokens + 1)
            snprintf(tree, sizeof tree, ", a tree of %lld nodes verified a pass,", (long long)base->spec_verify_tokens);
        paragraph(sb, "%sSpeculative decoding:%s %lld drafts from %s, each accepted with probability %s%s in every "
                      "candidate.",
                  b, b, (long long)base->spec_tokens, base->spec_draft_name[0] ? base->spec_draft_name : "an MTP head",
                  scenario_spec_accept_words(base, acc, sizeof acc), tree[0] ? tree : ",");
        if (md)
            sb_puts(sb, "\n");
    }
    const struct chip_spec *c = &base->chip;
    if (c->scale_up_domain > 0 && opt->max_chips > c->scale_up_domain && !(c->scale_out_bytes_per_s > 0.0)) {
        paragraph(sb, "%sCaution:%s %s publishes no scale-out bandwidth: designs of more than %lld chips are timed at "
                      "its %lld-chip domain's interconnect, which flatters them.",
                  b, b, c->key, (long long)c->scale_up_domain, (long long)c->scale_up_domain);
        if (md)
            sb_puts(sb, "\n");
    } else if (c->scale_up_domain <= 0 && opt->max_chips > 1) {
        paragraph(sb, "%sCaution:%s %s publishes no scale-up domain size: every design is timed as if all its chips "
                      "shared its interconnect, which flatters the large ones.",
                  b, b, c->key);
        if (md)
            sb_puts(sb, "\n");
    }
    if (r->truncated)
        paragraph(sb, "%zu candidates (truncated: the enumeration had more than the %zu kept), %zu accepted, %zu on "
                      "the frontier.",
                  r->count, r->capacity, r->accepted, r->frontier);
    else
        paragraph(sb, "%zu candidates, %zu accepted, %zu on the frontier.", r->count, r->accepted, r->frontier);
}

/* "fewest chips that meet the targets: ..." or "none up to N chips". */
static void fewest_line(struct strbuf *sb, const struct search_options *opt, const struct search_result *r, bool md)
{
    char x[32], y[32];
    const char *b = md ? "**" : "";
    if (md)
        sb_puts(sb, "\n");
    if (r->fewest_chips >= 0) {
        const struct search_candidate *c = &r->candidates[r->fewest_chips];
        char pool[48] = "";
        if (c->prefill_chips > 0)
            snprintf(pool, sizeof pool, ", prefill pool %lld", (long long)c->prefill_chips);
        paragraph(sb,
                  "%sFewest chips that meet the targets:%s %lld (tp %lld, pp %lld, ep %lld, batch %lld, %s%s): "
                  "TTFT %s, TPOT %s, %.1f tokens/s per user, %.1f tokens/s per chip.",
                  b, b, (long long)c->chips, (long long)c->tp, (long long)c->pp, (long long)c->ep,
                  (long long)c->batch, precision_name(c->precision), pool, format_seconds(x, sizeof x, c->ttft_s),
                  format_seconds(y, sizeof y, c->tpot_s), c->tokens_per_s_per_user, c->tokens_per_s_per_chip);
        return;
    }
    size_t n[NKINDS];
    count_reasons(r, n);
    char why[256] = "";
    for (size_t j = 0; j < NKINDS; j++) {
        if (n[j] == 0)
            continue;
        size_t len = strlen(why);
        snprintf(why + len, sizeof why - len, "%s%s %zu", len ? ", " : "", reason_name[j], n[j]);
    }
    if (why[0])
        paragraph(sb, "%sFewest chips that meet the targets:%s none up to %lld chips. Of %zu candidates (one can fail "
                      "several ways): %s.",
                  b, b, (long long)opt->max_chips, r->count, why);
    else
        paragraph(sb, "%sFewest chips that meet the targets:%s none up to %lld chips (no candidate was valid).", b, b,
                  (long long)opt->max_chips);
}

/* ---- text --------------------------------------------------------------- */

static void text_frontier(struct strbuf *sb, const struct search_result *r, const struct search_options *opt)
{
    bool failed = false;
    size_t n = 0;
    size_t *idx = frontier_order(r, &n, &failed);
    if (failed) {
        sb->failed = true;
        return;
    }
    if (n == 0) {
        sb_puts(sb, "\nNo candidate meets the targets: the frontier is empty.\n");
        return;
    }
    sb_puts(sb, "\nFrontier (tokens/s per user, highest first)\n");
    int pw = 5; /* the precision column fits its longest name ("fp8-block") */
    for (size_t k = 0; k < n; k++)
        if ((int)strlen(precision_name(r->candidates[idx[k]].precision)) > pw)
            pw = (int)strlen(precision_name(r->candidates[idx[k]].precision));
    sb_printf(sb, "  %3s %3s %3s %5s %-*s %5s %5s %9s %9s %10s %10s\n", "tp", "pp", "ep", "batch", pw, "prec", "pool",
              "chips", "TTFT", "TPOT", "tok/s/user", "tok/s/chip");
    for (size_t k = 0; k < n; k++) {
        const struct search_candidate *c = &r->candidates[idx[k]];
        char x[32], y[32];
        sb_printf(sb, "  %3lld %3lld %3lld %5lld %-*s %5lld %5lld %9s %9s %10.2f %10.2f\n", (long long)c->tp,
                  (long long)c->pp, (long long)c->ep, (long long)c->batch, pw, precision_name(c->precision),
                  (long long)c->prefill_chips, (long long)c->chips, format_seconds(x, sizeof x, c->ttft_s),
                  format_seconds(y, sizeof y, c->tpot_s), c->tokens_per_s_per_user, c->tokens_per_s_per_chip);
    }
    if (opt->disaggregate)
        wrap(sb, "  pool: chips of the disaggregated prefill pool (0: prefill runs on the decode chips); chips "
                 "counts both.");
    free(idx);
}

static void text_search(struct strbuf *sb, const struct scenario *base, const struct search_options *opt,
                        const struct search_result *r)
{
    summary(sb, base, opt, r, false);
    text_frontier(sb, r, opt);
    sb_puts(sb, "\n");
    fewest_line(sb, opt, r, false);
}

/* ---- markdown ----------------------------------------------------------- */

static void markdown_search(struct strbuf *sb, const struct scenario *base, const struct search_options *opt,
                            const struct search_result *r)
{
    summary(sb, base, opt, r, true);
    bool failed = false;
    size_t n = 0;
    size_t *idx = frontier_order(r, &n, &failed);
    if (failed) {
        sb->failed = true;
        return;
    }
    if (n == 0) {
        sb_puts(sb, "\nNo candidate meets the targets: the frontier is empty.\n");
    } else {
        sb_puts(sb, "\n| tp | pp | ep | batch | precision | prefill pool | chips | TTFT | TPOT | tokens/s per user | "
                    "tokens/s per chip |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (size_t k = 0; k < n; k++) {
            const struct search_candidate *c = &r->candidates[idx[k]];
            char x[32], y[32];
            sb_printf(sb, "| %lld | %lld | %lld | %lld | %s | %lld | %lld | %s | %s | %.2f | %.2f |\n",
                      (long long)c->tp, (long long)c->pp, (long long)c->ep, (long long)c->batch,
                      precision_name(c->precision), (long long)c->prefill_chips, (long long)c->chips,
                      format_seconds(x, sizeof x, c->ttft_s), format_seconds(y, sizeof y, c->tpot_s),
                      c->tokens_per_s_per_user, c->tokens_per_s_per_chip);
        }
    }
    free(idx);
    fewest_line(sb, opt, r, true);
}

/* ---- JSON --------------------------------------------------------------- */

/* A number, or null when the knob is not set (0). */
static void json_optional(cJSON *o, const char *key, double v)
{
    if (v > 0.0)
        cJSON_AddNumberToObject(o, key, v);
    else
        cJSON_AddNullToObject(o, key);
}

static cJSON *json_candidate(const struct search_candidate *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddNumberToObject(o, "tp", (double)c->tp);
    cJSON_AddNumberToObject(o, "pp", (double)c->pp);
    cJSON_AddNumberToObject(o, "ep", (double)c->ep);
    cJSON_AddNumberToObject(o, "dp", (double)c->dp);
    cJSON_AddNumberToObject(o, "batch", (double)c->batch);
    cJSON_AddStringToObject(o, "precision", precision_name(c->precision));
    cJSON_AddStringToObject(o, "compute_precision", precision_name(c->compute_precision));
    cJSON_AddNumberToObject(o, "prefill_chips", (double)c->prefill_chips);
    cJSON_AddNumberToObject(o, "chips", (double)c->chips);
    cJSON_AddNumberToObject(o, "ttft_s", c->ttft_s);
    cJSON_AddNumberToObject(o, "tpot_s", c->tpot_s);
    cJSON_AddNumberToObject(o, "tokens_per_s_per_user", c->tokens_per_s_per_user);
    cJSON_AddNumberToObject(o, "tokens_per_s_per_chip", c->tokens_per_s_per_chip);
    cJSON_AddBoolToObject(o, "accepted", c->accepted);
    cJSON_AddBoolToObject(o, "frontier", c->frontier);
    if (c->accepted)
        cJSON_AddNullToObject(o, "rejected_because");
    else
        cJSON_AddStringToObject(o, "rejected_because", c->rejected_because);
    return o;
}

/* "speculative": every candidate's speculative decoding, as the base
 * scenario gives it (the search does not vary it), or null for none:
 * {draft, tokens, acceptance (one rate for every draft, or null),
 * acceptance_by_position (or null), verify_tokens (the nodes a pass
 * verifies: tokens + 1 for a chain)}. */
static void json_search_speculative(cJSON *root, const struct scenario *base)
{
    if (base->spec_tokens <= 0) {
        cJSON_AddNullToObject(root, "speculative");
        return;
    }
    cJSON *spec = cJSON_AddObjectToObject(root, "speculative");
    cJSON_AddStringToObject(spec, "draft", base->spec_draft_name[0] ? base->spec_draft_name : "mtp");
    cJSON_AddNumberToObject(spec, "tokens", (double)base->spec_tokens);
    if (base->spec_accept_positions > 0) {
        cJSON_AddNullToObject(spec, "acceptance");
        cJSON *pos = cJSON_AddArrayToObject(spec, "acceptance_by_position");
        for (int64_t i = 0; i < base->spec_accept_positions && i < RT_SPEC_MAX_TOKENS; i++)
            cJSON_AddItemToArray(pos, cJSON_CreateNumber(base->spec_accept_by_position[i]));
    } else {
        cJSON_AddNumberToObject(spec, "acceptance", base->spec_accept);
        cJSON_AddNullToObject(spec, "acceptance_by_position");
    }
    cJSON_AddNumberToObject(spec, "verify_tokens", (double)(base->spec_verify_tokens > base->spec_tokens + 1
                                                                ? base->spec_verify_tokens
                                                                : base->spec_tokens + 1));
}

static cJSON *json_search(const struct scenario *base, const struct search_options *opt,
                          const struct search_result *r)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "model", base->model.name);
    cJSON_AddStringToObject(root, "chip", base->chip.key);
    cJSON_AddNumberToObject(root, "prefill_tokens", (double)base->prefill_tokens);
    cJSON_AddNumberToObject(root, "decode_tokens", (double)base->decode_tokens);
    cJSON *targets = cJSON_AddObjectToObject(root, "targets");
    json_optional(targets, "ttft_s", base->ttft_target_s);
    json_optional(targets, "tpot_s", base->tpot_target_s);
    cJSON *search = cJSON_AddObjectToObject(root, "search");
    cJSON_AddNumberToObject(search, "max_chips", (double)opt->max_chips);
    cJSON_AddNumberToObject(search, "max_batch", (double)opt->max_batch);
    cJSON *precs = cJSON_AddArrayToObject(search, "precisions");
    unsigned mask = opt->precisions ? opt->precisions : 1u << base->precision;
    for (int p = 0; p < RT_PRECISION_COUNT; p++)
        if ((mask >> p) & 1u)
            cJSON_AddItemToArray(precs, cJSON_CreateString(precision_name((enum rt_precision)p)));
    cJSON_AddBoolToObject(search, "disaggregate", opt->disaggregate);
    json_search_speculative(root, base);
    cJSON_AddNumberToObject(root, "accepted", (double)r->accepted);
    cJSON_AddNumberToObject(root, "frontier", (double)r->frontier);
    cJSON *list = cJSON_AddArrayToObject(root, "candidates");
    for (size_t i = 0; i < r->count; i++)
        cJSON_AddItemToArray(list, json_candidate(&r->candidates[i]));
    if (r->fewest_chips >= 0)
        cJSON_AddItemToObject(root, "fewest_chips", json_candidate(&r->candidates[r->fewest_chips]));
    else
        cJSON_AddNullToObject(root, "fewest_chips");
    cJSON_AddBoolToObject(root, "truncated", r->truncated);
    return root;
}

/* ---- CSV ---------------------------------------------------------------- */

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void csv_text(struct strbuf *sb, const char *text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        sb_puts(sb, text);
        return;
    }
    sb_puts(sb, "\"");
    for (const char *p = text; *p; p++)
        sb_printf(sb, "%s%c", *p == '"' ? "\"" : "", *p);
    sb_puts(sb, "\"");
}

static void csv_search(struct strbuf *sb, const struct search_result *r)
{
    sb_puts(sb, "tp,pp,ep,dp,batch,precision,compute_precision,prefill_chips,chips,ttft_s,tpot_s,tokens_per_s_per_user,"
                "tokens_per_s_per_chip,accepted,frontier,rejected_because\n"); /* the JSON candidates' keys */
    for (size_t i = 0; i < r->count; i++) {
        const struct search_candidate *c = &r->candidates[i];
        char a[32], b[32], u[32], v[32];
        sb_printf(sb, "%lld,%lld,%lld,%lld,%lld,%s,%s,%lld,%lld,%s,%s,%s,%s,%s,%s,", (long long)c->tp, (long long)c->pp,
                  (long long)c->ep, (long long)c->dp, (long long)c->batch, precision_name(c->precision),
                  precision_name(c->compute_precision),
                  (long long)c->prefill_chips, (long long)c->chips, format_exact(a, sizeof a, c->ttft_s),
                  format_exact(b, sizeof b, c->tpot_s), format_exact(u, sizeof u, c->tokens_per_s_per_user),
                  format_exact(v, sizeof v, c->tokens_per_s_per_chip), c->accepted ? "true" : "false",
                  c->frontier ? "true" : "false");
        csv_text(sb, c->rejected_because);
        sb_puts(sb, "\n");
    }
}

char *search_render(enum rt_format f, const struct scenario *base, const struct search_options *opt,
                    const struct search_result *r)
{
    struct strbuf sb = {0};
    switch (f) {
    case RT_FORMAT_JSON:
        json_finish(&sb, json_search(base, opt, r));
        break;
    case RT_FORMAT_CSV:
        csv_search(&sb, r);
        break;
    case RT_FORMAT_MARKDOWN:
        markdown_search(&sb, base, opt, r);
        break;
    default:
        text_search(&sb, base, opt, r);
        break;
    }
    return report_take(&sb, f);
}

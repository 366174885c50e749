/* kerneltable.c — measured kernel tables (see kerneltable.h). */
#include "kerneltable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "opspec.h"
#include "units.h"

#define MAX_COLS 40

/* Systems and devices as the tables name them, and rooftop's chip keys. */
static const struct { const char *name, *chip; } systems[] = {
    {"a100_sxm", "a100-80"},   {"NVIDIA A100-SXM4-80GB", "a100-80"}, {"a100_pcie", "a100-80"},
    {"h100_sxm", "h100"},      {"NVIDIA H100 80GB HBM3", "h100"},    {"h100_pcie", "h100-pcie"},
    {"NVIDIA H100 PCIe", "h100-pcie"}, {"h200_sxm", "h200"},          {"NVIDIA H200", "h200"},
    {"b200_sxm", "b200"},      {"NVIDIA B200", "b200"},              {"gb200", "gb200"},
    {"NVIDIA GB200", "gb200"}, {"b300_sxm", "b300"},                 {"NVIDIA B300 SXM6 AC", "b300"},
    {"NVIDIA B300", "b300"},   {"gb300", "gb300"},                   {"NVIDIA GB300", "gb300"},
    {"l40s", "l40s"},          {"NVIDIA L40S", "l40s"},              {"l4", "l4"},
    {"NVIDIA L4", "l4"},       {"rtx_pro_6000_server", "rtx-pro-6000"},
    {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000"},
};

const char *kernel_table_chip(const char *name)
{
    char want[96], have[96];
    name_normalize(want, sizeof want, name ? name : "");
    for (size_t i = 0; i < sizeof systems / sizeof systems[0]; i++)
        if (strcmp(want, name_normalize(have, sizeof have, systems[i].name)) == 0)
            return systems[i].chip;
    return NULL;
}

bool kernel_table_header(char fields[][CSV_FIELD_MAX], int count)
{
    return csv_column(fields, count, "latency") >= 0 &&
           (csv_column(fields, count, "gemm_dtype") >= 0 || csv_column(fields, count, "moe_dtype") >= 0 ||
            csv_column(fields, count, "attn_dtype") >= 0 || csv_column(fields, count, "mla_dtype") >= 0 ||
            csv_column(fields, count, "allreduce_dtype") >= 0 || csv_column(fields, count, "nccl_dtype") >= 0);
}

/* The kind of a row: from the table's dtype column and its op_name. */
static int row_kind(char h[][CSV_FIELD_MAX], int hc, char f[][CSV_FIELD_MAX], enum rt_kernel_kind *kind)
{
    int op = csv_column(h, hc, "op_name");
    const char *name = op >= 0 ? f[op] : "";
    if (csv_column(h, hc, "gemm_dtype") >= 0)
        *kind = RT_KERNEL_GEMM;
    else if (csv_column(h, hc, "moe_dtype") >= 0)
        *kind = RT_KERNEL_MOE;
    else if (csv_column(h, hc, "allreduce_dtype") >= 0)
        *kind = RT_KERNEL_ALLREDUCE;
    else if (csv_column(h, hc, "nccl_dtype") >= 0) {
        if (strcmp(name, "all_reduce") == 0)
            *kind = RT_KERNEL_NCCL_ALLREDUCE;
        else if (strcmp(name, "all_gather") == 0)
            *kind = RT_KERNEL_NCCL_ALLGATHER;
        else if (strcmp(name, "reduce_scatter") == 0)
            *kind = RT_KERNEL_NCCL_REDUCE_SCATTER;
        else if (strcmp(name, "alltoall") == 0)
            *kind = RT_KERNEL_NCCL_ALLTOALL;
        else
            return -1;
    } else if (csv_column(h, hc, "mla_dtype") >= 0)
        *kind = strstr(name, "context") ? RT_KERNEL_MLA : RT_KERNEL_DECODE_MLA;
    else if (csv_column(h, hc, "attn_dtype") >= 0)
        *kind = strstr(name, "context") ? RT_KERNEL_ATTENTION : RT_KERNEL_DECODE_ATTENTION;
    else
        return -1;
    return 0;
}

/* The value of column name as a number >= lo; -1 with err naming it. */
static int number(const char *path, int line, char h[][CSV_FIELD_MAX], int hc, char f[][CSV_FIELD_MAX], int fc,
                  const char *name, double lo, double *out, char *err, size_t errsize)
{
    int c = csv_column(h, hc, name);
    if (c < 0) {
        snprintf(err, errsize, "%s:%d: no '%s' column for this table", path, line, name);
        return -1;
    }
    if (c >= fc || parse_number(f[c], out) != 0 || !(*out >= lo)) {
        snprintf(err, errsize, "%s:%d: '%s' must be a number of at least %g (got '%s')", path, line, name, lo,
                 c < fc ? f[c] : "");
        return -1;
    }
    return 0;
}

static const char *text_of(char h[][CSV_FIELD_MAX], int hc, char f[][CSV_FIELD_MAX], int fc, const char *name)
{
    int c = csv_column(h, hc, name);
    return c >= 0 && c < fc ? f[c] : "";
}

/* Fills r's shape from its fields; returns -1 with err for a bad value. */
static int row_shape(const char *path, struct kernel_row *r, char h[][CSV_FIELD_MAX], int hc, char f[][CSV_FIELD_MAX],
                     int fc, char *err, size_t errsize)
{
    struct kernel_shape *s = &r->obs.shape;
    int line = r->line;
#define NUM(name, lo, dst) number(path, line, h, hc, f, fc, name, lo, dst, err, errsize)
    const char *dtype = "";
    double v = 0.0;
    switch (s->kind) {
    case RT_KERNEL_GEMM:
        dtype = text_of(h, hc, f, fc, "gemm_dtype");
        if (NUM("m", 1, &s->m) || NUM("n", 1, &s->n) || NUM("k", 1, &s->k))
            return -1;
        break;
    case RT_KERNEL_ATTENTION: case RT_KERNEL_DECODE_ATTENTION: {
        dtype = text_of(h, hc, f, fc, "attn_dtype");
        double isl, step = 0.0;
        if (NUM("batch_size", 1, &s->batch) || NUM("isl", 1, &isl) || NUM("num_heads", 1, &s->heads) ||
            NUM("num_key_value_heads", 0, &s->kv_heads) || NUM("head_dim", 1, &s->head_dim))
            return -1;
        if (csv_column(h, hc, "window_size") >= 0 && NUM("window_size", 0, &s->window)) /* older tables: full only */
            return -1;
        if (csv_column(h, hc, "step") >= 0 && NUM("step", 0, &step))
            return -1;
        if (s->kv_heads < 1.0) /* the collectors' 0: as many kv heads as heads (MHA) */
            s->kv_heads = s->heads;
        if (s->kind == RT_KERNEL_ATTENTION)
            s->seq = isl;
        else
            s->kv_len = isl + step; /* vLLM's: the step's own token is in its count already (fixed below) */
        s->kv_fp8 = strcmp(text_of(h, hc, f, fc, "kv_cache_dtype"), "fp8") == 0;
        break;
    }
    case RT_KERNEL_MLA: case RT_KERNEL_DECODE_MLA: {
        dtype = text_of(h, hc, f, fc, "mla_dtype");
        double isl, step = 0.0;
        if (NUM("batch_size", 1, &s->batch) || NUM("isl", 1, &isl) || NUM("num_heads", 1, &s->heads))
            return -1;
        if (csv_column(h, hc, "step") >= 0 && NUM("step", 0, &step))
            return -1;
        s->kv_heads = 1.0;
        s->head_dim = 128.0;
        if (s->kind == RT_KERNEL_MLA)
            s->seq = isl;
        else
            s->kv_len = isl + step;
        s->kv_fp8 = strcmp(text_of(h, hc, f, fc, "kv_cache_dtype"), "fp8") == 0;
        break;
    }
    case RT_KERNEL_MOE: {
        dtype = text_of(h, hc, f, fc, "moe_dtype");
        if (NUM("num_tokens", 1, &s->tokens) || NUM("hidden_size", 1, &s->hidden) || NUM("inter_size", 1, &s->inter) ||
            NUM("topk", 1, &s->topk) || NUM("num_experts", 1, &s->experts) || NUM("moe_tp_size", 1, &s->moe_tp) ||
            NUM("moe_ep_size", 1, &s->moe_ep))
            return -1;
        const char *dist = text_of(h, hc, f, fc, "distribution");
        if (strncmp(dist, "power_law_", 10) == 0) {
            if (parse_number(dist + 10, &v) != 0 || !(v > 0.0)) {
                snprintf(err, errsize, "%s:%d: distribution '%s' is not power_law_EXPONENT", path, line, dist);
                return -1;
            }
            s->skew = v;
        } else if (dist[0] && strcmp(dist, "balanced") != 0) {
            snprintf(r->skipped, sizeof r->skipped, "distribution '%s' (balanced or power_law_A)", dist);
        }
        break;
    }
    default:
        dtype = csv_column(h, hc, "allreduce_dtype") >= 0 ? text_of(h, hc, f, fc, "allreduce_dtype")
                                                     : text_of(h, hc, f, fc, "nccl_dtype");
        if (NUM("num_gpus", 1, &s->gpus) || NUM("message_size", 1, &s->message_bytes))
            return -1;
        /* message_size counts elements (the collectors build [size / 4096, 4096] tensors of the dtype) */
        s->message_bytes *= strcmp(dtype, "int8") == 0 || strcmp(dtype, "fp8") == 0 ? 1.0
                            : strcmp(dtype, "float32") == 0 || strcmp(dtype, "float") == 0 ? 4.0 : 2.0;
        break;
    }
#undef NUM
    if (kernel_format_parse(dtype, &s->format) != 0) {
        if (kernel_kind_is_collective(s->kind))
            s->format = RT_KF_BF16; /* a collective's elements: the size is in bytes already */
        else
            snprintf(r->skipped, sizeof r->skipped, "dtype '%s' is not one rooftop models", dtype);
    }
    s->family = kernel_family_of(r->source);
    s->warm_cache = true; /* the collectors replay the same buffers */
    return 0;
}

/* The folder two above the file (SYSTEM of SYSTEM/ENGINE/TABLE.csv), and the table's name. */
static void path_parts(const char *path, char *system, size_t ssize, char *engine, size_t esize, char *table,
                       size_t tsize)
{
    const char *seg[3] = {NULL, NULL, NULL};
    size_t len[3] = {0, 0, 0};
    const char *end = path + strlen(path);
    for (int i = 0; i < 3; i++) {
        const char *p = end;
        while (p > path && p[-1] != '/')
            p--;
        seg[i] = p;
        len[i] = (size_t)(end - p);
        if (p == path)
            break;
        end = p - 1;
    }
    snprintf(table, tsize, "%.*s", (int)(len[0] > 4 && seg[0] && strcmp(seg[0] + len[0] - 4, ".csv") == 0 ? len[0] - 4
                                                                                                       : len[0]),
             seg[0] ? seg[0] : "");
    snprintf(engine, esize, "%.*s", seg[1] ? (int)len[1] : 0, seg[1] ? seg[1] : "");
    snprintf(system, ssize, "%.*s", seg[2] ? (int)len[2] : 0, seg[2] ? seg[2] : "");
}

static int read_rows(const char *path, const char *text, size_t len, char h[][CSV_FIELD_MAX], char f[][CSV_FIELD_MAX],
                     struct kernel_row **out, size_t *count, char *err, size_t errsize);

int kernel_table_read(const char *path, const char *text, size_t len, struct kernel_row **out, size_t *count,
                      char *err, size_t errsize)
{
    *out = NULL;
    *count = 0;
    size_t nul = csv_nul_line(text, len);
    if (nul) {
        snprintf(err, errsize, "%s:%zu: a NUL byte: not a text CSV (a field would be cut short at it)", path, nul);
        return -1;
    }
    char (*h)[CSV_FIELD_MAX] = malloc(2 * MAX_COLS * sizeof *h), (*f)[CSV_FIELD_MAX] = h ? h + MAX_COLS : NULL;
    if (!h) {
        snprintf(err, errsize, "%s: out of memory", path);
        return -1;
    }
    int rc = read_rows(path, text, len, h, f, out, count, err, errsize);
    free(h);
    return rc;
}

/* kernel_table_read with its two field buffers. */
static int read_rows(const char *path, const char *text, size_t len, char h[][CSV_FIELD_MAX], char f[][CSV_FIELD_MAX],
                     struct kernel_row **out, size_t *count, char *err, size_t errsize)
{
    size_t pos = 0;
    int hc = csv_record(text, len, &pos, h, MAX_COLS), line = 1;
    if (hc <= 0 || !kernel_table_header(h, hc)) {
        snprintf(err, errsize, "%s:1: not a kernel table (no latency and dtype columns)", path);
        return -1;
    }
    char dir_system[32], dir_engine[32], table[32];
    path_parts(path, dir_system, sizeof dir_system, dir_engine, sizeof dir_engine, table, sizeof table);
    size_t cap = 256, n = 0;
    struct kernel_row *rows = malloc(cap * sizeof *rows);
    if (!rows) {
        snprintf(err, errsize, "%s: out of memory", path);
        return -1;
    }
    for (;;) {
        /* count the lines the record skipped and spans (blank lines, the line break) */
        size_t start = pos;
        int fc = csv_record(text, len, &pos, f, MAX_COLS);
        for (size_t i = start; i < pos; i++)
            line += text[i] == '\n';
        if (fc == 0)
            break;
        if (fc < 0) {
            snprintf(err, errsize, "%s:%d: %s", path, line, fc == -1 ? "unclosed quote" : "a field or a row too long");
            free(rows);
            return -1;
        }
        if (n == cap) {
            struct kernel_row *grown = realloc(rows, 2 * cap * sizeof *rows);
            if (!grown) {
                free(rows);
                snprintf(err, errsize, "%s: out of memory", path);
                return -1;
            }
            rows = grown, cap *= 2;
        }
        struct kernel_row *r = &rows[n];
        memset(r, 0, sizeof *r);
        r->line = line;
        snprintf(r->table, sizeof r->table, "%s", table);
        snprintf(r->source, sizeof r->source, "%s", text_of(h, hc, f, fc, "kernel_source"));
        if (row_kind(h, hc, f, &r->obs.shape.kind) != 0) {
            snprintf(r->skipped, sizeof r->skipped, "op_name '%s' is not an operation rooftop models",
                     text_of(h, hc, f, fc, "op_name"));
        } else if (row_shape(path, r, h, hc, f, fc, err, errsize) != 0) {
            free(rows);
            return -1;
        }
        int bad = number(path, line, h, hc, f, fc, "latency", 0.0, &r->obs.measured_s, err, errsize);
        if (bad == 0 && !(r->obs.measured_s > 0.0)) {
            snprintf(err, errsize, "%s:%d: 'latency' must be above 0", path, line);
            bad = -1;
        }
        if (bad != 0) {
            free(rows);
            return -1;
        }
        r->obs.measured_s *= 1e-3; /* milliseconds */
        const char *chip = kernel_table_chip(dir_system);
        snprintf(r->system, sizeof r->system, "%s", chip ? dir_system : text_of(h, hc, f, fc, "device"));
        if (!chip)
            chip = kernel_table_chip(text_of(h, hc, f, fc, "device"));
        if (chip)
            snprintf(r->chip, sizeof r->chip, "%s", chip);
        else if (!r->skipped[0])
            snprintf(r->skipped, sizeof r->skipped, "no chip preset for '%s'", r->system);
        bool guessed;
        const char *fw = text_of(h, hc, f, fc, "framework");
        r->engine = kernel_engine_for(fw[0] ? fw : dir_engine, &guessed);
        r->obs.shape.rank0_only = r->obs.shape.kind == RT_KERNEL_MOE && r->engine == RT_KE_SGLANG;
        r->obs.shape.engine = r->engine;
        if (r->obs.shape.kind == RT_KERNEL_DECODE_ATTENTION && r->engine == RT_KE_TRTLLM &&
            r->obs.shape.family == RT_KFAM_DEFAULT) /* torch_flow: XQA or MMHA by the group's size */
            r->obs.shape.family = kernel_trtllm_decode_family(r->obs.shape.heads, r->obs.shape.kv_heads);
        /* vLLM's decode collectors pass seq_len = the cached tokens including the step's own: one fewer
         * attended than TensorRT-LLM's and SGLang's isl + step */
        if ((r->obs.shape.kind == RT_KERNEL_DECODE_ATTENTION || r->obs.shape.kind == RT_KERNEL_DECODE_MLA) &&
            r->engine == RT_KE_VLLM && r->obs.shape.kv_len > 1.0)
            r->obs.shape.kv_len -= 1.0;
        if (r->obs.shape.kind < RT_KERNEL_NCCL_ALLREDUCE && guessed && !r->skipped[0])
            snprintf(r->skipped, sizeof r->skipped, "framework '%s' is not trtllm, vllm or sglang", fw);
        n++;
    }
    *out = rows;
    *count = n;
    return 0;
}

int kernel_row_args(const struct kernel_row *r, char args[][400], int max)
{
    if (r->skipped[0] || max < 6)
        return 0;
    struct op_spec spec = {.set = true, .shape = r->obs.shape, .format_given = true,
                           .kv_given = r->obs.shape.kind >= RT_KERNEL_ATTENTION &&
                                       r->obs.shape.kind <= RT_KERNEL_DECODE_MLA};
    int n = 0;
    snprintf(args[n++], 400, "--chip");
    snprintf(args[n++], 400, "%s", r->chip);
    if (r->obs.shape.kind < RT_KERNEL_NCCL_ALLREDUCE) {
        snprintf(args[n++], 400, "--engine");
        snprintf(args[n++], 400, "%s", kernel_engine_name(r->engine));
    }
    snprintf(args[n++], 400, "--op");
    op_spec_format(args[n++], 400, &spec);
    return n;
}

/* kernelfile.c — the "kernels" block of a chip file (kernelfile.h). */
#include "kernelfile.h"

#include <stdio.h>
#include <string.h>

#include "units.h"

/* Reads one fit; prefix names it in messages ("kernels.fits[3]."). */
static int fit_from_json(const cJSON *f, const char *path, const char *prefix, struct kernel_fit *out,
                         struct load_warnings *w, char *err, size_t errsize)
{
    static const char *const keys[] = {"kind", "engine", "format", "kv", "kernel", "rows", "cv_error_fraction",
                                       "params", NULL};
    char text[64];
    memset(out, 0, sizeof *out);
    enum rt_kernel_kind kind;
    if (json_string(f, "kind", path, true, text, sizeof text, err, errsize) != JSON_FOUND)
        return -1;
    if (kernel_kind_parse(text, &kind) != 0) {
        snprintf(err, errsize, "%s: '%skind' is not a kernel kind (got '%s'; gemm, attention, decode-attention, mla, "
                               "decode-mla, moe, all-reduce, nccl-all-reduce ...)", path, prefix, text);
        return -1;
    }
    out->kind = (uint8_t)kind;
    kernel_default_params(kind, out->p);
    text[0] = '\0'; /* an absent key leaves text as it was: the kind's name */
    if (json_string(f, "engine", path, false, text, sizeof text, err, errsize) == JSON_BAD)
        return -1;
    bool guessed = false;
    out->engine = (uint8_t)kernel_engine_for(text, &guessed);
    if (guessed && text[0] && strcmp(text, "nccl") != 0) {
        snprintf(err, errsize, "%s: '%sengine' must be trtllm, vllm, sglang or nccl (got '%s')", path, prefix, text);
        return -1;
    }
    enum rt_kernel_format format = RT_KF_BF16;
    text[0] = '\0';
    if (json_string(f, "format", path, false, text, sizeof text, err, errsize) == JSON_BAD)
        return -1;
    if (text[0] && kernel_format_parse(text, &format) != 0) {
        snprintf(err, errsize, "%s: '%sformat' is not a kernel format (got '%s')", path, prefix, text);
        return -1;
    }
    out->format = (uint8_t)format;
    text[0] = '\0';
    if (json_string(f, "kv", path, false, text, sizeof text, err, errsize) == JSON_BAD)
        return -1;
    enum rt_kernel_format kv = RT_KF_BF16;
    if (text[0] && (kernel_format_parse(text, &kv) != 0 || (kv != RT_KF_BF16 && kv != RT_KF_FP8))) {
        snprintf(err, errsize, "%s: '%skv' must be bf16 or fp8 (got '%s')", path, prefix, text);
        return -1;
    }
    out->kv_fp8 = kv == RT_KF_FP8;
    text[0] = '\0';
    if (json_string(f, "kernel", path, false, text, sizeof text, err, errsize) == JSON_BAD)
        return -1;
    out->family = (uint8_t)(text[0] ? kernel_family_of(text) : RT_KFAM_DEFAULT);
    if (text[0] && out->family == RT_KFAM_DEFAULT && strcmp(text, "default") != 0) {
        snprintf(err, errsize, "%s: '%skernel' is not a kernel library rooftop knows (got '%s')", path, prefix, text);
        return -1;
    }
    double rows = 0, cv = 0;
    if (json_number(f, "rows", path, prefix, false, 0, 65535, true, &rows, err, errsize) == JSON_BAD ||
        json_number(f, "cv_error_fraction", path, prefix, false, 0, 10, false, &cv, err, errsize) == JSON_BAD)
        return -1;
    out->rows = (uint16_t)rows;
    out->cv_error = (float)cv;
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(f, "params");
    if (params && !cJSON_IsObject(params)) {
        snprintf(err, errsize, "%s: '%sparams' must be an object of the kind's constants", path, prefix);
        return -1;
    }
    const char *names[RT_KERNEL_PARAMS + 1];
    int np = kernel_param_count(kind);
    char pprefix[96];
    snprintf(pprefix, sizeof pprefix, "%sparams.", prefix);
    for (int i = 0; i < np; i++) {
        names[i] = kernel_param_name(kind, i);
        double lo, hi, v;
        kernel_param_range(kind, i, &lo, &hi);
        enum json_found got = params ? json_number(params, names[i], path, pprefix, false, lo, hi, false, &v, err,
                                                   errsize)
                                     : JSON_ABSENT;
        if (got == JSON_BAD)
            return -1;
        if (got == JSON_FOUND)
            out->p[i] = (float)v;
    }
    names[np] = NULL;
    if (params)
        json_warn_unknown_keys(params, names, path, pprefix, w);
    json_warn_unknown_keys(f, keys, path, prefix, w);
    return 0;
}

int kernels_from_json(const cJSON *obj, const char *path, struct kernel_profile *out, struct load_warnings *w,
                      char *err, size_t errsize)
{
    static const char *const keys[] = {"from", "from2", "measured", "sibling", "compute_derate", "memory_derate",
                                       "l2_bytes", "source", "fits", NULL};
    memset(out, 0, offsetof(struct kernel_profile, fits));
    if (!cJSON_IsObject(obj)) {
        snprintf(err, errsize, "%s: 'kernels' must be an object ({\"from\": \"h100\"} or fitted \"fits\")", path);
        return -1;
    }
    double cd = 1, md = 1, l2 = 0;
    if (json_string(obj, "from", path, false, out->from, sizeof out->from, err, errsize) == JSON_BAD ||
        json_string(obj, "from2", path, false, out->from2, sizeof out->from2, err, errsize) == JSON_BAD ||
        json_bool(obj, "measured", path, false, &out->measured, err, errsize) == JSON_BAD ||
        json_bool(obj, "sibling", path, false, &out->sibling, err, errsize) == JSON_BAD ||
        json_number(obj, "compute_derate", path, "kernels.", false, 0.01, 1, false, &cd, err, errsize) == JSON_BAD ||
        json_number(obj, "memory_derate", path, "kernels.", false, 0.01, 1, false, &md, err, errsize) == JSON_BAD ||
        json_number(obj, "l2_bytes", path, "kernels.", false, 0, 1e12, false, &l2, err, errsize) == JSON_BAD ||
        json_string(obj, "source", path, false, out->source, sizeof out->source, err, errsize) == JSON_BAD)
        return -1;
    out->compute_derate = (float)cd;
    out->memory_derate = (float)md;
    out->l2_bytes = l2;
    if (out->from[0]) {
        int count;
        if (!kernel_builtin_fits(out->from, &count)) {
            snprintf(err, errsize, "%s: 'kernels.from' names no chip with measured kernels (got '%s')", path,
                     out->from);
            return -1;
        }
    }
    const cJSON *fits = cJSON_GetObjectItemCaseSensitive(obj, "fits");
    if (fits && !cJSON_IsNull(fits)) {
        if (!cJSON_IsArray(fits)) {
            snprintf(err, errsize, "%s: 'kernels.fits' must be a list of fits", path);
            return -1;
        }
        int n = cJSON_GetArraySize(fits);
        if (n > RT_KERNEL_FITS_MAX) {
            snprintf(err, errsize, "%s: 'kernels.fits' holds %d fits, more than %d", path, n, RT_KERNEL_FITS_MAX);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            char prefix[48];
            snprintf(prefix, sizeof prefix, "kernels.fits[%d].", i);
            if (fit_from_json(cJSON_GetArrayItem(fits, i), path, prefix, &out->fits[i], w, err, errsize) != 0)
                return -1;
        }
        out->count = (uint16_t)n;
        if (n > 0 && !cJSON_GetObjectItemCaseSensitive(obj, "measured"))
            out->measured = true; /* fits of its own are its measurements */
    }
    json_warn_unknown_keys(obj, keys, path, "kernels.", w);
    return 0;
}

void kernels_to_json(cJSON *obj, const struct kernel_profile *p)
{
    cJSON_AddStringToObject(obj, "from", p->from);
    if (p->from2[0])
        cJSON_AddStringToObject(obj, "from2", p->from2);
    cJSON_AddBoolToObject(obj, "measured", p->measured);
    cJSON_AddBoolToObject(obj, "sibling", p->sibling);
    json_add_exact(obj, "compute_derate", p->compute_derate > 0.0f ? (double)p->compute_derate : 1.0);
    json_add_exact(obj, "memory_derate", p->memory_derate > 0.0f ? (double)p->memory_derate : 1.0);
    json_add_exact(obj, "l2_bytes", p->l2_bytes);
    cJSON_AddStringToObject(obj, "source", p->source);
    cJSON *fits = cJSON_AddArrayToObject(obj, "fits");
    for (int i = 0; i < p->count; i++) {
        const struct kernel_fit *f = &p->fits[i];
        enum rt_kernel_kind kind = (enum rt_kernel_kind)f->kind;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", kernel_kind_name(kind));
        cJSON_AddStringToObject(o, "engine", kernel_engine_label(kind, (enum rt_kernel_engine)f->engine));
        cJSON_AddStringToObject(o, "format", kernel_format_name((enum rt_kernel_format)f->format));
        cJSON_AddStringToObject(o, "kv", f->kv_fp8 ? "fp8" : "bf16");
        cJSON_AddStringToObject(o, "kernel", kernel_family_name((enum rt_kernel_family)f->family));
        cJSON_AddNumberToObject(o, "rows", f->rows);
        json_add_exact(o, "cv_error_fraction", kernel_fit_error(f));
        cJSON *params = cJSON_AddObjectToObject(o, "params");
        for (int k = 0; k < kernel_param_count(kind); k++)
            json_add_exact(params, kernel_param_name(kind, k), (double)f->p[k]);
        cJSON_AddItemToArray(fits, o);
    }
}

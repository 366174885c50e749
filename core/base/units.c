/* units.c — precisions, strict number parsing and SI formatting. */
#include "units.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const precision_names[RT_PRECISION_COUNT] = {"bf16",      "fp8",   "int8", "int4",
                                                                 "fp8-block", "nvfp4", "mxfp4"};
/* Bytes a weight takes, scales included (units.h cites each format). */
static const double precision_widths[RT_PRECISION_COUNT] = {
    2.0, 1.0, 1.0, 0.5,
    1.0 + 4.0 / (128.0 * 128.0), /* fp8-block: an fp32 scale per 128x128 block */
    0.5 + 1.0 / 16.0,            /* nvfp4: an e4m3 scale per 16 elements */
    0.5 + 1.0 / 32.0,            /* mxfp4: an e8m0 scale per 32 elements */
};
static const int precision_bits[RT_PRECISION_COUNT] = {16, 8, 8, 4, 8, 4, 4};
/* The order people see them in (units.h, precision_ordered). */
static const enum rt_precision shown_order[RT_PRECISION_COUNT] = {RT_BF16,  RT_FP8,   RT_FP8_BLOCK, RT_INT8,
                                                                  RT_NVFP4, RT_MXFP4, RT_INT4};

/* True when p is one of the precisions. */
static bool precision_valid(enum rt_precision p)
{
    return (int)p >= 0 && p < RT_PRECISION_COUNT;
}

double precision_bytes(enum rt_precision p)
{
    return precision_valid(p) ? precision_widths[p] : 0.0;
}

double precision_activation_bytes(enum rt_precision p)
{
    if (p == RT_FP8_BLOCK)
        return 1.0 + 4.0 / 128.0; /* an fp32 scale per 1x128 activation tile */
    return precision_bytes(p);
}

int precision_nominal_bits(enum rt_precision p)
{
    return precision_valid(p) ? precision_bits[p] : 0;
}

const char *precision_scale_text(enum rt_precision p)
{
    switch (p) {
    case RT_FP8_BLOCK:
        return "one fp32 scale per 128x128 weight block";
    case RT_NVFP4:
        return "one e4m3 scale per 16 elements";
    case RT_MXFP4:
        return "one e8m0 scale per 32 elements";
    default:
        return "";
    }
}

const char *precision_name(enum rt_precision p)
{
    if (p == RT_PRECISION_AUTO)
        return "auto";
    return precision_valid(p) ? precision_names[p] : "?";
}

int precision_parse(const char *text, enum rt_precision *out)
{
    if (!text)
        return -1;
    for (int i = 0; i < RT_PRECISION_COUNT; i++) {
        if (strcasecmp(text, precision_names[i]) == 0) {
            *out = (enum rt_precision)i;
            return 0;
        }
    }
    if (strcasecmp(text, "fp8_block") == 0) {
        *out = RT_FP8_BLOCK;
        return 0;
    }
    return -1;
}

enum rt_precision precision_ordered(int i)
{
    return i >= 0 && i < RT_PRECISION_COUNT ? shown_order[i] : RT_BF16;
}

int precision_rank(enum rt_precision p)
{
    for (int i = 0; i < RT_PRECISION_COUNT; i++)
        if (shown_order[i] == p)
            return i;
    return 0;
}

const char *precision_choices(void)
{
    return "bf16, fp8, fp8-block, int8, nvfp4, mxfp4 or int4";
}

char *precision_refusal(char *buf, size_t size, const char *text)
{
    if (text && strcasecmp(text, "fp4") == 0)
        snprintf(buf, size, "'fp4' is two formats: give nvfp4 (NVIDIA's, an e4m3 scale per 16 elements, 4.5 bits) "
                            "or mxfp4 (OCP MX, an e8m0 scale per 32, 4.25 bits)");
    else
        snprintf(buf, size, "give %s", precision_choices());
    return buf;
}

int act_precision_parse(const char *text, enum rt_precision *out)
{
    enum rt_precision p;
    if (text && strcasecmp(text, "auto") == 0) {
        *out = RT_PRECISION_AUTO;
        return 0;
    }
    if (precision_parse(text, &p) != 0 || p == RT_INT4)
        return -1;
    *out = p;
    return 0;
}

const char *act_precision_choices(void)
{
    return "auto, bf16, fp8, fp8-block, int8, nvfp4 or mxfp4";
}

/* Multiplier for an SI suffix starting at s; sets *len to its length, or
 * returns 0 when s is not a known suffix. */
static double suffix_multiplier(const char *s, size_t *len)
{
    static const struct { const char *text; double mult; } table[] = {
        {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0},
        {"Ki", 1024.0},  {"Mi", 1048576.0},  {"Gi", 1073741824.0},  {"Ti", 1099511627776.0},
        {"kB", 1e3},     {"KB", 1e3},        {"MB", 1e6},           {"GB", 1e9},
        {"TB", 1e12},    {"PB", 1e15},       {"k", 1e3},            {"K", 1e3},
        {"M", 1e6},      {"B", 1e9},         {"G", 1e9},            {"T", 1e12},
        {"P", 1e15},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        size_t n = strlen(table[i].text);
        if (strncmp(s, table[i].text, n) == 0 && s[n] == '\0') {
            *len = n;
            return table[i].mult;
        }
    }
    return 0.0;
}

int parse_token_count(const char *text, double *out)
{
    if (!text)
        return -1;
    char binary[130];
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        n--;
    if (n == 0 || n >= 127)
        return parse_number(text, out);
    char last = text[n - 1], before = n >= 2 ? text[n - 2] : '\0';
    /* A k or M right after the digits: the binary prefix (Ki, Mi). */
    if ((last == 'k' || last == 'K' || last == 'M') && (isdigit((unsigned char)before) || before == '.')) {
        snprintf(binary, sizeof binary, "%.*s%ci", (int)(n - 1), text, last == 'M' ? 'M' : 'K');
        return parse_number(binary, out);
    }
    return parse_number(text, out);
}

int parse_number(const char *text, double *out)
{
    if (!text)
        return -1;
    /* Blanks around the number are nothing, before it as after it (" 8" and "8 " read alike). */
    char trimmed[128];
    while (isspace((unsigned char)*text))
        text++;
    size_t tn = strlen(text);
    while (tn > 0 && isspace((unsigned char)text[tn - 1]))
        tn--;
    if (tn >= sizeof trimmed)
        return -1;
    memcpy(trimmed, text, tn);
    trimmed[tn] = '\0';
    const char *p = trimmed;
    const char *start = p;
    if (*p == '+' || *p == '-')
        p++;
    size_t digits = 0;
    while (isdigit((unsigned char)*p)) {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (isdigit((unsigned char)*p)) {
            p++;
            digits++;
        }
    }
    if (digits == 0)
        return -1;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (!isdigit((unsigned char)*q))
            return -1;
        while (isdigit((unsigned char)*q))
            q++;
        p = q;
    }
    char number[64];
    size_t n = (size_t)(p - start);
    if (n >= sizeof number)
        return -1;
    memcpy(number, start, n);
    number[n] = '\0';
    double value = strtod(number, NULL);
    double mult = 1.0;
    if (*p != '\0') {
        size_t len = 0;
        mult = suffix_multiplier(p, &len);
        if (mult == 0.0)
            return -1;
    }
    value *= mult;
    if (!isfinite(value))
        return -1;
    *out = value == 0.0 ? 0.0 : value; /* "-0" is 0: never a -0 in a report */
    return 0;
}

char *format_si(char *buf, size_t size, double value, const char *unit)
{
    static const char prefixes[] = " kMGTPE";
    if (!isfinite(value)) {
        snprintf(buf, size, "n/a");
        return buf;
    }
    if (value == 0.0) {
        snprintf(buf, size, "0 %s", unit);
        return buf;
    }
    double mag = fabs(value);
    int idx = 0;
    while (mag >= 999.5 && idx < 6) {
        mag /= 1000.0;
        value /= 1000.0;
        idx++;
    }
    int decimals = mag >= 99.95 ? 0 : mag >= 9.995 ? 1 : 2;
    char num[32];
    snprintf(num, sizeof num, "%.*f", decimals, value);
    if (idx == 0)
        snprintf(buf, size, "%s %s", num, unit);
    else
        snprintf(buf, size, "%s %c%s", num, prefixes[idx], unit);
    return buf;
}

char *format_count(char *buf, size_t size, double value)
{
    static const struct { double scale; char suffix; } steps[] = {
        {1e15, 'P'}, {1e12, 'T'}, {1e9, 'B'}, {1e6, 'M'}, {1e3, 'k'}};
    if (!isfinite(value)) {
        snprintf(buf, size, "n/a");
        return buf;
    }
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        if (fabs(value) >= steps[i].scale) {
            double v = value / steps[i].scale;
            int decimals = fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2;
            snprintf(buf, size, "%.*f%c", decimals, v, steps[i].suffix);
            return buf;
        }
    }
    snprintf(buf, size, "%.0f", value);
    return buf;
}

char *trim_blanks(char *out, size_t size, const char *text)
{
    if (size == 0)
        return out;
    if (!text)
        text = "";
    while (*text == ' ' || *text == '\t')
        text++;
    snprintf(out, size, "%s", text);
    size_t n = strlen(out);
    while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == '\t'))
        out[--n] = '\0';
    return out;
}

int parse_seconds(const char *text, double *out)
{
    char buf[64];
    if (!text || strlen(text) >= sizeof buf)
        return -1;
    trim_blanks(buf, sizeof buf, text);
    size_t n = strlen(buf);
    double scale = 1.0;
    if (n >= 2 && strcmp(buf + n - 2, "ms") == 0) {
        scale = 1e-3;
        buf[n - 2] = '\0';
    } else if (n >= 1 && buf[n - 1] == 's') {
        buf[n - 1] = '\0';
    }
    char num[64];
    trim_blanks(num, sizeof num, buf);
    double v;
    if (parse_number(num, &v) != 0)
        return -1;
    *out = v * scale;
    return 0;
}

char *format_seconds(char *buf, size_t size, double seconds)
{
    if (!isfinite(seconds)) {
        snprintf(buf, size, "n/a");
        return buf;
    }
    double a = fabs(seconds);
    if (a >= 1e6) { /* the one number style: "14.7M s", never "1.47e+07 s" */
        char n[24];
        snprintf(buf, size, "%s s", format_number(n, sizeof n, seconds, 0));
    } else if (a >= 1.0 || a == 0.0)
        snprintf(buf, size, "%.3f s", seconds);
    else if (a >= 1e-3)
        snprintf(buf, size, "%.1f ms", seconds * 1e3);
    else if (a >= 1e-6)
        snprintf(buf, size, "%.1f us", seconds * 1e6);
    else /* a collective's or a tiny GEMM's floor: "42.0 ns", not "0.0 us" */
        snprintf(buf, size, "%.1f ns", seconds * 1e9);
    return buf;
}

/* The candidate of `digits` significant figures at decimal scale 10^n (n from
 * the caller), m rounded down or up: the double it reads as. */
static double scaled_decimal(double m, int n)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    return n >= 0 ? m / pow10[n] : m * pow10[-n];
}

double float_shortest_double(float f)
{
    double x = (double)f;
    if (x == 0.0 || !isfinite(x))
        return x;
    int e10 = (int)floor(log10(fabs(x))); /* x in [10^e10, 10^(e10+1)), give or take log10's last bit: */
    if (e10 >= -21 && e10 <= 21) {                 /* made exact against the powers themselves */
        if (fabs(x) < scaled_decimal(1.0, -e10))
            e10--;
        else if (fabs(x) >= scaled_decimal(1.0, -(e10 + 1)))
            e10++;
    }
    for (int digits = 1; digits <= 9 && e10 >= -21 && e10 <= 21; digits++) {
        int n = digits - 1 - e10; /* m = x * 10^n has `digits` figures */
        if (n > 22 || n < -22)
            break;
        double scaled = scaled_decimal(x, -n);
        double lo = floor(scaled), hi = lo + 1.0, best = NAN;
        for (int k = 0; k < 2; k++) { /* the nearer of the two that read back as f, the even on a tie */
            double m = k == 0 ? lo : hi, c = scaled_decimal(m, n);
            if ((float)c != f)
                continue;
            double d = fabs(c - x), bd = fabs(best - x);
            if (isnan(best) || d < bd || (d == bd && fmod(m, 2.0) == 0.0))
                best = c;
        }
        if (!isnan(best))
            return best;
    }
    char buf[32]; /* beyond the fast path's range: print and read */
    for (int digits = 1; digits <= 9; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, x);
        double v = strtod(buf, NULL);
        if ((float)v == f)
            return v;
    }
    return x;
}

char *format_seconds_4sig(char *buf, size_t size, double seconds)
{
    double a = fabs(seconds);
    if (!isfinite(seconds) || a >= 1e6 || a == 0.0)
        return format_seconds(buf, size, seconds);
    static const struct {
        double scale;
        const char *unit;
    } units[] = {{1.0, "s"}, {1e-3, "ms"}, {1e-6, "us"}, {1e-9, "ns"}};
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof units[0] && a < units[u].scale * 0.99995)
        u++;
    double v = seconds / units[u].scale, m = fabs(v);
    int decimals = m >= 99.995 ? 1 : m >= 9.9995 ? 2 : m >= 0.99995 ? 3 : 4;
    snprintf(buf, size, "%.*f %s", decimals, v, units[u].unit);
    return buf;
}

char *format_turn_seconds(char *buf, size_t size, double seconds)
{
    if (isfinite(seconds) && fabs(seconds) < 1e6 && (fabs(seconds) >= 0.01 || seconds == 0.0)) {
        snprintf(buf, size, "%.3f s", seconds == 0.0 ? 0.0 : seconds);
        return buf;
    }
    return format_seconds(buf, size, seconds); /* below 10 ms, a million seconds and more, n/a */
}

char *format_number(char *buf, size_t size, double value, int decimals)
{
    static const char prefixes[] = "kMGTPE";
    if (!isfinite(value)) {
        snprintf(buf, size, "n/a");
        return buf;
    }
    double mag = fabs(value);
    if (mag < 99999.5) {
        snprintf(buf, size, "%.*f", decimals > 0 && mag < 99.95 ? decimals : 0, value);
        return buf;
    }
    int idx = -1;
    while (mag >= 999.5 && idx < 5) {
        mag /= 1000.0;
        value /= 1000.0;
        idx++;
    }
    snprintf(buf, size, "%.*f%c", mag >= 99.95 ? 0 : mag >= 9.995 ? 1 : 2, value, prefixes[idx]);
    return buf;
}

char *name_normalize(char *out, size_t size, const char *text)
{
    size_t n = 0;
    if (size == 0)
        return out;
    for (const char *p = text ? text : ""; *p && n + 1 < size; p++) {
        if (isalnum((unsigned char)*p))
            out[n++] = (char)tolower((unsigned char)*p);
    }
    out[n] = '\0';
    return out;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mean_of(const double *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return n ? s / (double)n : 0.0;
}

double median_of(double *x, size_t n)
{
    if (!n)
        return 0.0;
    qsort(x, n, sizeof *x, by_value);
    return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

int name_lookup(const char *text, const char *const *names, int count, const struct name_alias *aliases,
                size_t n_aliases)
{
    if (!text)
        return -1;
    char want[64], have[64];
    name_normalize(want, sizeof want, text);
    for (int i = 0; i < count; i++)
        if (strcmp(want, name_normalize(have, sizeof have, names[i])) == 0)
            return i;
    for (size_t i = 0; i < n_aliases; i++)
        if (strcmp(want, aliases[i].alias) == 0)
            return aliases[i].index;
    return -1;
}

char *format_exact(char *buf, size_t size, double value)
{
    if (!isfinite(value)) {
        snprintf(buf, size, "null");
        return buf;
    }
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, value);
        if (strtod(buf, NULL) == value)
            break;
    }
    return buf;
}

static bool tail_is(const char *s, size_t n, const char *tail)
{
    size_t t = strlen(tail);
    return n >= t && strncmp(s + n - t, tail, t) == 0;
}

/* True when the first n bytes of s contain word. */
static bool has_word(const char *s, size_t n, const char *word)
{
    const char *w = strstr(s, word);
    return w && (size_t)(w - s) + strlen(word) <= n;
}

enum rt_key_unit key_unit(const char *key)
{
    if (!key)
        return RT_KEY_PLAIN;
    if (strncmp(key, "tile_efficiency.", 16) == 0)
        return RT_KEY_FRACTION;
    const char *seg = strrchr(key, '.');
    seg = seg ? seg + 1 : key;
    size_t n = strcspn(seg, "[");
    for (size_t i = 0; i < RT_PRECISION_COUNT; i++)
        if (n == strlen(precision_names[i]) && strncmp(seg, precision_names[i], n) == 0 && seg > key) {
            const char *end = seg - 1, *start = end;
            while (start > key && start[-1] != '.')
                start--;
            seg = start, n = (size_t)(end - start);
            break;
        }
    if (tail_is(seg, n, "_per_s"))
        return has_word(seg, n, "bytes") ? RT_KEY_BYTES_PER_S : has_word(seg, n, "flops") ? RT_KEY_FLOPS_PER_S
                                                                                           : RT_KEY_PLAIN;
    if (tail_is(seg, n, "_s") || (n == 7 && strncmp(seg, "seconds", 7) == 0))
        return RT_KEY_SECONDS;
    if (tail_is(seg, n, "bytes") || tail_is(seg, n, "bytes_per_token") || tail_is(seg, n, "bytes_per_request"))
        return RT_KEY_BYTES;
    if (tail_is(seg, n, "flops") || tail_is(seg, n, "flops_per_token"))
        return RT_KEY_FLOPS;
    if (tail_is(seg, n, "params"))
        return RT_KEY_PARAMS;
    if (tail_is(seg, n, "mfu") || tail_is(seg, n, "hfu") || tail_is(seg, n, "_fraction") ||
        tail_is(seg, n, "fraction_of_peak") || (n == 5 && strncmp(seg, "share", 5) == 0) ||
        tail_is(seg, n, "prefill_share"))
        return RT_KEY_FRACTION; /* a placement's share of its phase's time, a budget's of the prompts' */
    return RT_KEY_PLAIN;
}

char *format_percent(char *buf, size_t size, double fraction)
{
    double p = fraction * 100.0;
    if (!isfinite(p))
        snprintf(buf, size, "n/a");
    else
        snprintf(buf, size, p >= 99.95 ? "%.0f%%" : "%.1f%%", p);
    return buf;
}

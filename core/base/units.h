/* units.h — precisions, strict number parsing and SI formatting for rooftop.
 *
 * Pure functions: no I/O, no globals, no allocation. Parsing expects the C
 * numeric locale (the program sets LC_NUMERIC to "C" at start-up).
 */
#ifndef ROOFTOP_UNITS_H
#define ROOFTOP_UNITS_H

#include <stddef.h>

/* Numeric precision of weights, KV cache or matmul inputs. The block
 * formats come after the four plain ones, so that saved indices and the
 * tables sized by RT_PRECISION_COUNT keep their first entries:
 * - fp8-block: fp8 (e4m3) with one fp32 scale per 128x128 block of a
 *   weight matrix and per 1x128 tile of an activation (DeepSeek-V3
 *   technical report, arXiv:2412.19437, sec. 3.3);
 * - nvfp4: e2m1 elements with one e4m3 scale per 16 (NVIDIA, "Introducing
 *   NVFP4 for efficient and accurate low-precision inference", 2025; PTX ISA,
 *   block-scaled mma with kind::mxf4nvf4 and scale_vec::4X);
 * - mxfp4: e2m1 elements with one e8m0 scale per 32 (OCP Microscaling
 *   Formats (MX) Specification v1.0, 2023, sec. 5).
 * RT_PRECISION_AUTO is no precision: it is what a scenario's activation
 * precision holds when it follows the weights (resolve_hardware, analysis.c). */
enum rt_precision {
    RT_BF16 = 0,
    RT_FP8,
    RT_INT8,
    RT_INT4,
    RT_FP8_BLOCK,
    RT_NVFP4,
    RT_MXFP4,
    RT_PRECISION_COUNT,
    RT_PRECISION_AUTO = RT_PRECISION_COUNT
};

/* Bytes one weight occupies at precision p, its share of the block scales
 * counted: bf16 2, fp8 1, int8 1, int4 0.5 (group scales not counted, as
 * the guide counts it), fp8-block 1 + 4/16384 (one 4-byte scale per 128x128
 * block), nvfp4 0.5625 (4 bits + one byte per 16 = 4.5 bits), mxfp4 0.53125
 * (4 bits + one byte per 32 = 4.25 bits). Returns 0 for a value outside the
 * enum. Sources: the formats' definitions above. */
double precision_bytes(enum rt_precision p);

/* Bytes one activation or KV-cache element occupies at precision p: as
 * precision_bytes, except fp8-block, whose activations carry one fp32 scale
 * per 1x128 tile: 1 + 4/128 = 1.03125 (DeepSeek-V3, sec. 3.3). nvfp4 and
 * mxfp4 scale activations along the row as weights (16 and 32 elements).
 * Returns 0 outside the enum. */
double precision_activation_bytes(enum rt_precision p);

/* The element's nominal width in bits, scales left out: 16 (bf16), 8 (fp8,
 * fp8-block, int8), 4 (int4, nvfp4, mxfp4), as the W4A16 / W8A8 labels of
 * quantized serving count them. 0 outside the enum. */
int precision_nominal_bits(enum rt_precision p);

/* What a block format adds to its elements, for notes and explanations:
 * "one fp32 scale per 128x128 weight block", "one e4m3 scale per 16
 * elements", "one e8m0 scale per 32 elements"; "" for the plain formats and
 * outside the enum. */
const char *precision_scale_text(enum rt_precision p);

/* Lower-case name of p ("bf16", "fp8", "int8", "int4", "fp8-block",
 * "nvfp4", "mxfp4"); "auto" for RT_PRECISION_AUTO; "?" otherwise. */
const char *precision_name(enum rt_precision p);

/* Parses a precision name, case-insensitive ("bf16", "BF16", "fp8", "int8",
 * "int4", "fp8-block" or "fp8_block", "nvfp4", "mxfp4"). Returns 0 and sets
 * *out, or -1 for anything else (*out untouched); a bare "fp4" is refused,
 * being either of two formats (precision_refusal says which). */
int precision_parse(const char *text, enum rt_precision *out);

/* The precisions in the order they are shown to people (knobs, tables,
 * lists): widest first, each plain format before its block-scaled sibling,
 * the weight-only int4 last: bf16, fp8, fp8-block, int8, nvfp4, mxfp4,
 * int4. precision_ordered(i) is the i-th, i in [0, RT_PRECISION_COUNT)
 * (RT_BF16 outside); precision_rank(p) is p's place, 0 outside the enum. */
enum rt_precision precision_ordered(int i);
int precision_rank(enum rt_precision p);

/* The names accepted, in the shown order, for messages: "bf16, fp8,
 * fp8-block, int8, nvfp4, mxfp4 or int4". */
const char *precision_choices(void);

/* Why text is not a precision, for a message that has named the flag or
 * key: "'fp4' is two formats: give nvfp4 (...) or mxfp4 (...)" for a bare
 * fp4, else "give bf16, fp8, ... or int4". Writes into buf (size bytes)
 * and returns it. */
char *precision_refusal(char *buf, size_t size, const char *text);

/* Parses an activation (matmul input) precision: "auto" (RT_PRECISION_AUTO,
 * case-insensitive), or a precision as precision_parse reads it, except
 * int4 (integer 4-bit activations are not modelled; refused). Returns 0 and
 * sets *out, or -1 (*out untouched). */
int act_precision_parse(const char *text, enum rt_precision *out);

/* The activation precisions accepted, for messages: "auto, bf16, fp8,
 * fp8-block, int8, nvfp4 or mxfp4". */
const char *act_precision_choices(void);

/* Parses a finite, non-negative-or-negative decimal number with an optional
 * SI suffix, strictly: "70e9", "70B" (1e9), "1.5T", "8k", "65536", "2M",
 * "0.819T", "10GB" (a trailing B after a prefix is the byte unit), "16GiB"
 * (binary prefixes Ki Mi Gi Ti). Suffixes: k/K 1e3, M 1e6, B/G 1e9, T 1e12,
 * P 1e15. Blanks before and after the number are skipped alike. Returns 0
 * and sets *out; returns -1 (and leaves *out untouched) on empty text,
 * trailing garbage, hex, inf/nan, text over 127 bytes, or a result that is
 * not finite. */
int parse_number(const char *text, double *out);

/* Parses a token count (a context, a prompt, an output, a window, a step's
 * token budget): as parse_number, except that k/K and M, the way token
 * counts are written, are powers of two: "8k" is 8192, "128k" 131072,
 * "1M" 1048576 (the same as "8Ki", "1Mi"). Parameters and bytes stay
 * decimal (parse_number). Returns 0 and sets *out, or -1 as parse_number. */
int parse_token_count(const char *text, double *out);

/* Parses seconds: a number as parse_number reads it, with an optional
 * unit "s" or "ms" ("0.5", "0.5 s", "500ms"); blanks around the number and
 * the unit are skipped. Returns 0 and sets *out; -1 (and *out untouched)
 * otherwise. */
int parse_seconds(const char *text, double *out);

/* Writes value with 3 significant figures and an SI prefix (k M G T P E) and
 * the unit, e.g. format_si(140e9, "B") -> "140 GB", format_si(1.97e14,
 * "FLOP/s") -> "197 TFLOP/s". Non-finite values print as "n/a". Returns buf. */
char *format_si(char *buf, size_t size, double value, const char *unit);

/* Writes a count in the guide's style, e.g. 70e9 -> "70.0B", 8.03e9 -> "8.03B",
 * 1.5e12 -> "1.50T", 405.8e9 -> "406B". Returns buf. */
char *format_count(char *buf, size_t size, double value);

/* Writes seconds as "5.822 s", "683.0 ms", "12.5 us", "42.0 ns"; a million seconds or
 * more in format_number's style ("14.7M s", never an exponent). Non-finite
 * values print as "n/a". Returns buf. */
char *format_seconds(char *buf, size_t size, double seconds);

/* The double that a float's shortest round-tripping decimal reads as: 0.7f
 * (0.699999988079071 as a double) gives 0.7, so that a fitted kernel
 * parameter stored as a float prints and computes as the figure it was
 * written with. The same double as printing f with %.*g at 1, 2, ... 9
 * digits and taking the first that reads back as f (the reference the
 * tests compare against), at a few dozen instructions instead of a
 * thousand-odd (analyze() converts eleven a call): the decimal's digits
 * come from f x 10^n and the double from one exact scaling by 10^n, which
 * is the correctly rounded reading while 10^n is exact (|n| <= 22) and the
 * digits fit in 2^53 (Clinger's fast path, PLDI 1990); outside that range
 * it prints and reads. Zero, infinities and NaN come back as they are. */
double float_shortest_double(float f);

/* Writes seconds to four significant figures in the unit that keeps the
 * mantissa in [1, 1000): "24.67 s", "1.690 ms", "346.2 us", "16.86 us",
 * "42.00 ns" (a measurement beside its prediction, where format_seconds'
 * one decimal would read 1.7 ms for 1.690 ms); a million seconds or more,
 * and exactly zero, as format_seconds writes them. Non-finite values print
 * as "n/a". Returns buf. */
char *format_seconds_4sig(char *buf, size_t size, double seconds);

/* Writes a turn's time as the guide prints it from 0.01 s up: "27.952 s",
 * "0.683 s", "0.091 s" (the guide's tables, two significant figures at least); a million
 * seconds or more in format_number's style ("161M s"). Shorter times go to
 * milliseconds or microseconds as format_seconds writes them ("4.5 ms",
 * "12.5 us"), so that no time reads "0.000 s"; exactly zero is "0.000 s".
 * A negative time keeps its sign ("-4.5 ms"). Non-finite values print as
 * "n/a". Returns buf. The one time style of the panels and the reports'
 * text. */
char *format_turn_seconds(char *buf, size_t size, double seconds);

/* Writes a count or a ratio (tokens, batch, chips, FLOP/byte) in the
 * screen's one number style: whole up to 99999 ("16384"), then three
 * significant figures with k M G T P E ("131k", "1.05M", "9.30M"), never
 * an exponent. Fractions below 100 keep one decimal when decimals is set
 * ("1.2", "49.6"). Non-finite values print as "n/a". Returns buf. */
char *format_number(char *buf, size_t size, double value, int decimals);

/* Writes value with the fewest significant digits (15 to 17) that read back
 * as exactly the same double, e.g. 0.25 -> "0.25", 5.821725888324873 ->
 * "5.821725888324873". For CSV and other machine-read text, and for numbers
 * quoted in messages (16777217, not 1.67772e+07). Non-finite values print
 * as "null". Returns buf. */
char *format_exact(char *buf, size_t size, double value);

/* The unit a JSON figure's key names, by the house convention that names
 * carry their units (README, "JSON keys"). */
enum rt_key_unit {
    RT_KEY_PLAIN,        /* a count or ratio without a unit */
    RT_KEY_SECONDS,      /* "..._s", "seconds" (a latency term's) */
    RT_KEY_BYTES,        /* "...bytes", "...bytes_per_token", "...bytes_per_request" */
    RT_KEY_BYTES_PER_S,  /* "...bytes_per_s" */
    RT_KEY_FLOPS,        /* "...flops", "...flops_per_token" */
    RT_KEY_FLOPS_PER_S,  /* "...flops_per_s" */
    RT_KEY_PARAMS,       /* "...params": a parameter count */
    RT_KEY_FRACTION,     /* "mfu", "hfu", "..._fraction", "fraction_of_peak", "tile_efficiency.*": 0..1 */
};

/* The unit of a dotted --report=json key ("latency.total_s",
 * "placement[decode:decode].bytes", "chip.peak_flops_per_s.bf16"): its
 * last segment decides (an index in brackets is ignored), or the one before
 * it when the last is a precision name. Never fails: an unknown key is
 * RT_KEY_PLAIN. */
enum rt_key_unit key_unit(const char *key);

/* Writes a fraction as a percentage the way every panel and report prints
 * one: whole from 99.95% up ("100%", "125%"), else one decimal ("35.7%",
 * "0.3%"). Non-finite values print as "n/a". Returns buf. */
char *format_percent(char *buf, size_t size, double fraction);

/* Copies text (NULL reads as "") into out (size bytes, NUL-terminated, cut
 * to fit) without its leading and trailing spaces and tabs, for typed
 * values and guesses. Returns out. */
char *trim_blanks(char *out, size_t size, const char *text);

/* Lower-cases text and drops every non-alphanumeric character into out
 * (size bytes, always NUL-terminated). Returns out. Used for name matching. */
char *name_normalize(char *out, size_t size, const char *text);

/* The mean of x[0..n), 0 for n = 0. */
double mean_of(const double *x, size_t n);

/* The median of x[0..n) (the mean of the two middle values for an even n),
 * sorting x in place; 0 for n = 0. */
double median_of(double *x, size_t n);

/* Another spelling of a name (already normalized: "allgather") and the
 * index it stands for. */
struct name_alias {
    const char *alias;
    int index;
};

/* The index in names[0..count) of the one text names, compared normalized
 * (name_normalize: "Decode-Attention" is "decode-attention"), else of the
 * alias it matches in aliases[0..n_aliases); -1 for none or a NULL text. */
int name_lookup(const char *text, const char *const *names, int count, const struct name_alias *aliases,
                size_t n_aliases);

#endif

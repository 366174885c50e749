#!/bin/sh
# cli_test.sh — the real binary, end to end: exit statuses, one-line errors on
# stderr, the report when not on a terminal, a failed write, no NaN anywhere.
# Usage: sh tests/cli_test.sh path/to/rooftop
set -u
bin=${1:-./rooftop}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_CONFIG_HOME="$tmp/config" # hermetic: no user chip files

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect STATUS NAME -- ARGS...: runs the binary, checks the exit status.
expect() {
    want=$1 name=$2
    shift 3
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    got=$?
    if [ "$got" -eq "$want" ]; then ok; else bad "$name: exit $got, want $want ($(cat "$tmp/err"))"; fi
}

expect 0 "report" -- --report
grep -q "27.952 s" "$tmp/out" && ok || bad "report lacks the guide's 27.952 s total"
# Training totals: Meta's Llama 3.1 405B card (15.6T tokens, 30.84M H100-hours) implies
# 6 x 405e9 x 15.6e12 / (30.84e6 x 3600 x 989.4e12) = 34.5% MFU by 6N (worked in test_detailed.c).
expect 0 "train chip-hours" -- --report --model llama-3.1-405b --params 405e9 --chip h100 \
    --flops-convention 6n --train-tokens 15.6T --train-chip-hours 30.84M
grep -q "implied MFU 34.5%" "$tmp/out" && ok || bad "--train-chip-hours did not imply 34.5% MFU"
grep -q "MFU (6N)" "$tmp/out" && ok || bad "the MFU budget does not name the 6N convention"
# The floor's terms in their own unit (issue 21 item 7): tens of microseconds are not "+0.0000 s".
expect 0 "report terms" -- --report
grep -q "^  floor - napkin, one decode step (+848.8 us):" "$tmp/out" && grep -q "^        +63.2 us  activations" "$tmp/out" &&
    ! grep -q "+0.0000 s" "$tmp/out" && ok || bad "the decode step's terms are not in their unit"
expect 0 "json without totals" -- --report --format json
grep -q '"flops_convention":[[:space:]]*"palm"' "$tmp/out" && grep -q '"implied_mfu":[[:space:]]*null' "$tmp/out" &&
    ok || bad "JSON training lacks flops_convention palm or a null implied_mfu"
expect 2 "bad convention" -- --report --flops-convention kaplan
grep -q "palm, megatron, 6n or causal" "$tmp/err" && ok || bad "--flops-convention kaplan: $(cat "$tmp/err")"
expect 2 "chip-hours without tokens" -- --report --train-chip-hours 1M
grep -q "needs --train-tokens" "$tmp/err" && ok || bad "--train-chip-hours alone: $(cat "$tmp/err")"
expect 0 "no mode, not a terminal: the report" --
grep -q "Ridge point  241 FLOP/byte" "$tmp/out" && ok || bad "plain run without a terminal did not print the report"
expect 0 "help" -- --help
# The real binary's --help fits an 80-column terminal (bytes, tabs expanded:
# never fewer than the columns it takes).
wide=$(expand "$tmp/out" | LC_ALL=C awk 'length($0) > 80 { n++ } END { print n + 0 }')
[ "$wide" -eq 0 ] && ok || bad "--help has $wide lines wider than 80 columns"
[ "$(wc -l <"$tmp/out")" -gt 20 ] && ok || bad "--help printed $(wc -l <"$tmp/out") lines"
expect 0 "version" -- --version
grep -q "^rooftop [0-9]" "$tmp/out" && ok || bad "version line"

for args in "--chips 0" "--batch -1" "--params abc" "--chip nope" "--model nope" "--kv-heads 3" \
            "--budget 0.25" "--precision fp16" "--sweep=nope" "--bogus"; do
    # shellcheck disable=SC2086
    expect 2 "bad input $args" -- --report $args
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && ok || bad "$args: stderr is not one line: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] && ok || bad "$args: printed to stdout"
done

for fmt in text json markdown csv; do
    expect 0 "huge values $fmt" -- --report=$fmt --params 1e13 --context 1M --chips 65536
    if grep -qiE 'nan|inf[^o]' "$tmp/out"; then bad "huge values $fmt printed nan/inf"; else ok; fi
done

for kind in chips params batch kv-heads; do
    for fmt in text csv json markdown; do
        expect 0 "sweep $kind $fmt" -- --sweep=$kind --format=$fmt
    done
done

# A write that fails (a full disk) is an error, not a silent success.
if [ -w /dev/full ]; then
    "$bin" --report >/dev/full 2>"$tmp/err"
    st=$?
    [ "$st" -eq 1 ] && ok || bad "writing to a full disk exited $st, want 1"
    grep -q "rooftop:" "$tmp/err" && ok || bad "no message when writing to a full disk"
fi

# Numbers read and print with a dot whatever the locale says: build a German
# (decimal-comma) locale privately and run under it.
mkdir -p "$tmp/locale"
if command -v localedef >/dev/null 2>&1 && [ -f /usr/share/i18n/locales/de_DE ] &&
    localedef -i de_DE -f UTF-8 "$tmp/locale/de_DE.UTF-8" >/dev/null 2>&1; then
    LOCPATH="$tmp/locale" LC_ALL=de_DE.UTF-8 "$bin" --sweep=chips --napkin --overhead 0.25 >"$tmp/out" 2>"$tmp/err"
    grep -q "  16 chips: prefill   0.364s  decode   1.368s  total   1.981s  MISS" "$tmp/out" && ok ||
        bad "a decimal-comma locale changed the output: $(cat "$tmp/out" "$tmp/err")"
    LOCPATH="$tmp/locale" LC_ALL=de_DE.UTF-8 "$bin" --write-scenario "$tmp/de.json" --budget 1.5
    grep -q '"budget_s":[[:space:]]*1.5,' "$tmp/de.json" && ok || bad "a decimal-comma locale changed a saved scenario"
    LOCPATH="$tmp/locale" LC_ALL=de_DE.UTF-8 "$bin" --report=json --scenario "$tmp/de.json" >"$tmp/out"
    grep -q '"budget_s":[[:space:]]*1.5,' "$tmp/out" && ok || bad "a decimal-comma locale changed a loaded scenario"
else
    echo "cli: no locale data to build de_DE.UTF-8; the decimal-comma check is skipped"
fi

# A save that a signal ends halfway leaves no temporary file: under a
# file-size limit of 0 the first write() of the save raises SIGXFSZ, and the
# program dies of it (status 128 + SIGXFSZ) after removing .NAME.XXXXXX.
# For --write-scenario and for --write-chip; no core files.
# killed_by STATUS: the name of the signal an exit status of 128 + n names.
killed_by() { [ "$1" -gt 128 ] && kill -l "$1" 2>/dev/null; }
mkdir -p "$tmp/cut"
{ (ulimit -c 0; ulimit -f 0; exec "$bin" --write-scenario "$tmp/cut/s.json"); st=$?; } 2>/dev/null
[ "$(killed_by $st)" = XFSZ ] && ok || bad "--write-scenario under a file-size limit of 0 exited $st, not SIGXFSZ"
[ -z "$(ls -A "$tmp/cut")" ] && ok || bad "--write-scenario cut short by a signal left: $(ls -A "$tmp/cut")"
printf 'label,flops,bytes,seconds\na,1e12,1e9,0.001689523\nb,4e12,2e9,0.006743090\nc,1e9,4e9,0.001710757\n' \
    >"$tmp/points.csv"
{ (ulimit -c 0; ulimit -f 0; exec "$bin" --calibrate "$tmp/points.csv" --chip h100 --write-chip "$tmp/cut/c.json");
    st=$?; } >/dev/null 2>&1
[ "$(killed_by $st)" = XFSZ ] && ok || bad "--write-chip under a file-size limit of 0 exited $st, not SIGXFSZ"
[ -z "$(ls -A "$tmp/cut")" ] && ok || bad "--write-chip cut short by a signal left: $(ls -A "$tmp/cut")"

# An install under any prefix finds its themes beside its own bin/.
mkdir -p "$tmp/prefix/bin" "$tmp/prefix/share/rooftop/themes"
cp "$bin" "$tmp/prefix/bin/rooftop"
cp "$(dirname "$0")/../themes/"*.json "$tmp/prefix/share/rooftop/themes/"
shipped=$(ls "$(dirname "$0")/../themes/"*.json | wc -l)
n=$("$tmp/prefix/bin/rooftop" --list-themes | grep -c "$tmp/prefix/bin/../share/rooftop/themes\|$tmp/prefix/share/rooftop/themes")
[ "$n" -eq "$shipped" ] && ok || bad "an installed rooftop found $n of its $shipped theme files"

# Every shipped theme is compiled in: a binary copied alone lists them all,
# each with the background it is drawn for.
mkdir -p "$tmp/alone"
cp "$bin" "$tmp/alone/rooftop"
(cd "$tmp/alone" && ./rooftop --list-themes) >"$tmp/out" 2>"$tmp/err"
for f in "$(dirname "$0")/../themes/"*.json; do
    name=$(sed -n 's/^ *"name": *"\([^"]*\)".*/\1/p' "$f" | head -n 1)
    bg=$(sed -n 's/^ *"background": *"\([^"]*\)".*/\1/p' "$f" | head -n 1)
    grep -q "^$name  *$bg  *built-in\$" "$tmp/out" && ok || bad "a copied binary does not list $name ($bg, built-in): $(cat "$tmp/out")"
done
[ "$(wc -l <"$tmp/out")" -eq $((shipped + 1)) ] && ok || bad "a copied binary lists $(wc -l <"$tmp/out") themes, not dark + $shipped"
expect 2 "bad --background" -- --background blue
[ "$(cat "$tmp/err")" = "rooftop: --background 'blue': must be light or dark" ] && ok || bad "--background blue: $(cat "$tmp/err")"

# Hostile files: a fifo is never waited on. In the user's chips folder it
# cannot stop --version (which reads no user folder) nor a report (it is
# skipped with a warning); given to a flag it is refused, naming it.
mkdir -p "$tmp/config/rooftop/chips"
mkfifo "$tmp/config/rooftop/chips/pipe.json" "$tmp/pipe.json"
timeout 5 "$bin" --version >"$tmp/out" 2>"$tmp/err"
st=$?
[ "$st" -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "--version with a fifo in the chips folder: exit $st, $(cat "$tmp/err")"
timeout 5 "$bin" --report >"$tmp/out" 2>"$tmp/err"
st=$?
[ "$st" -eq 0 ] && ok || bad "--report with a fifo in the chips folder: exit $st"
[ "$(cat "$tmp/err")" = "rooftop: warning: $tmp/config/rooftop/chips/pipe.json: not a regular file (a fifo) (file skipped)" ] &&
    ok || bad "the skipped fifo's warning: $(cat "$tmp/err")"
rm -f "$tmp/config/rooftop/chips/pipe.json"
for flag in --model --chip --scenario --theme --engine --points --calibrate; do
    timeout 5 "$bin" "$flag" "$tmp/pipe.json" </dev/null >"$tmp/out" 2>"$tmp/err"
    st=$?
    [ "$st" -eq 2 ] && [ "$(cat "$tmp/err")" = "rooftop: $tmp/pipe.json: not a regular file (a fifo)" ] && ok ||
        bad "$flag FIFO: exit $st, $(cat "$tmp/err")"
done
rm -f "$tmp/pipe.json"

# --tour: a tour file that is malformed is one line naming the file and the
# key; a name is looked up in $XDG_DATA_HOME/rooftop/tours/NAME.json.
export XDG_DATA_HOME="$tmp/data"
mkdir -p "$tmp/data/rooftop/tours"
printf '{"title": "t", "steps": [{"title": "s", "question": "q?", "figure": "latency.total_s", "answer": "figure", "set": {"bach": 2}}]}\n' >"$tmp/data/rooftop/tours/typo.json"
expect 2 "tour with an unknown set key" -- --tour typo
[ "$(cat "$tmp/err")" = "rooftop: $tmp/data/rooftop/tours/typo.json: 'steps[0].set.bach' is not a scenario key; did you mean batch?" ] &&
    ok || bad "--tour typo: $(cat "$tmp/err")"
printf '{"title": "t", "steps": [{"title": "s", "question": "q?", "figure": "latency.total_s",' >"$tmp/cut.json"
expect 2 "tour cut short" -- --tour "$tmp/cut.json"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "cut.json:1:" "$tmp/err" && ok || bad "--tour cut.json: $(cat "$tmp/err")"
expect 2 "no such tour" -- --tour nosuch
grep -q "no such tour (the built-in one is 'guide'; yours go in $tmp/data/rooftop/tours/)" "$tmp/err" &&
    ok || bad "--tour nosuch: $(cat "$tmp/err")"
expect 2 "tour with a report" -- --tour --report
grep -q "^rooftop: --tour opens the explorer" "$tmp/err" && ok || bad "--tour --report: $(cat "$tmp/err")"
printf '{"title": "t", "steps": [{"title": "s", "question": "q?", "figure": "memory.max_concurrent_requests", "answer": "figure", "set": {"chip": "h100", "chips": 8}}]}\n' >"$tmp/data/rooftop/tours/mine.json"
expect 0 "a user's tour, no terminal: the report" -- --tour mine
grep -q "Ridge point" "$tmp/out" && ok || bad "--tour mine without a terminal did not print the report"

# A quantized checkpoint's folder: hf_quant_config.json beside config.json sets
# the precisions (Kimi K2.6 NVFP4, FP8 KV), the report says so, and flags win.
expect 0 "NVFP4 checkpoint" -- --report --model tests/fixtures/hf/kimi-k2.6 --chip b200 --chips 8
head -1 "$tmp/out" | grep -q "nvfp4 weights, fp8 KV cache" && ok || bad "kimi-k2.6 NVFP4: $(head -1 "$tmp/out")"
grep -q "quantization = nvfp4 weights, fp8 KV: hf_quant_config.json (ModelOpt NVFP4)" "$tmp/out" && ok ||
    bad "the NVFP4 checkpoint's assumption is missing"
expect 0 "checkpoint overridden" -- --report --model tests/fixtures/hf/kimi-k2.6 --chip b200 --chips 8 \
    --precision bf16 --kv-precision bf16
head -1 "$tmp/out" | grep -q "bf16 weights, bf16 KV cache" && ok || bad "--precision after --model: $(head -1 "$tmp/out")"
# Python's Infinity literal (Nemotron-3 Super's time_step_limit) loads with one warning.
expect 0 "Infinity in config.json" -- --report --model tests/fixtures/hf/nemotron-3-super-120b-a12b
grep -q "1 Infinity/NaN literal, as Python's json writes them" "$tmp/err" && ok ||
    bad "Infinity literal: $(cat "$tmp/err")"

# Shape flags a 2026 layout cannot take say so, and the ones it takes say what they left.
expect 2 "--window on an all-sparse model" -- --report --model tests/fixtures/hf/glm-5.1 --window 4096
grep -q "every attention layer of glm-5.1 is sparse" "$tmp/err" && ok || bad "--window on glm-5.1: $(cat "$tmp/err")"
expect 2 "--d-ff no layer uses" -- --report --model tests/fixtures/hf/deepseek-v4-flash --d-ff 4096
grep -q "no layer of deepseek-v4-flash uses the model's MLP width" "$tmp/err" && ok || bad "--d-ff: $(cat "$tmp/err")"
expect 2 "--d-head on latent attention" -- --report --model tests/fixtures/hf/glm-5.1 --d-head 128
grep -q "qk_nope_head_dim + qk_rope_head_dim (192 + 64)" "$tmp/err" && ok || bad "--d-head: $(cat "$tmp/err")"
expect 0 "--kv-heads on per-kind heads" -- --report --model tests/fixtures/hf/gemma-4-26b-a4b --kv-heads 4
grep -q "kv-heads = 5 layers: the layers with their own heads keep them" "$tmp/out" && ok ||
    bad "--kv-heads on gemma-4 did not say what it left"

expect 0 "context past the model's" -- --report --model tests/fixtures/hf/glm-5.1 --context 1M
grep -q "The context (1048576 tokens) is past the 202752 the model was built for" "$tmp/out" && ok ||
    bad "a context past max_position_embeddings was not said"

# Nsight Compute exports: --points places their kernels (a copy by its bytes), --calibrate fits to them,
# a failed run's log is one line with its ==ERROR==.
expect 0 "--points an ncu export" -- --report --chip a100 --points tests/fixtures/profiles/ncu/a100_cutlass_fp16_gemm_long_progstdout.csv
grep -q "4 cutlass::Kernel<cutlass::gemm::kernel::Gemm<cu   no FLOPs by bytes      1.12 TB/s of    2.04 TB/s    54.9%    131.7 ms" "$tmp/out" && ok ||
    bad "--points ncu: the cutlass GEMM without FLOP counters is not placed by its bytes"
expect 0 "--calibrate an ncu export" -- --calibrate tests/fixtures/profiles/ncu/a100_cutlass_fp16_gemm_long_progstdout.csv --chip a100
grep -q "0 InitializeMatrix_kerne point" "$tmp/out" && ok || bad "--calibrate ncu: the kernels are not its rows"
# its cutlass GEMMs have no FLOP counters: a fit of their time to their bytes would be wrong, so they are left out
grep -q "4 cutlass::Kernel<cutlas point" "$tmp/out" && bad "--calibrate ncu: FLOP-less GEMMs were fitted" || ok
grep -q "7 of its 11 kernels are GEMMs or attention without counted FLOPs: left out of the fit" "$tmp/err" && ok ||
    bad "--calibrate ncu: the FLOP-less GEMMs left out were not said"
expect 2 "--points a failed ncu run" -- --report --points tests/fixtures/profiles/ncu/b200_failed_run_no_data.csv
grep -q "no kernel rows: ==ERROR== The application returned an error code (1)." "$tmp/err" && ok ||
    bad "failed ncu run: $(cat "$tmp/err")"

# PyTorch profiler (Kineto) traces: gzip or plain (streamed from the file), on the roof and in the fit.
K=tests/fixtures/profiles/kineto
expect 0 "--points a Kineto trace" -- --report --chip h100 --points $K/h100_qwen1.5-0.5b_bf16_prefill.json.gz
grep -q "^  mm M8944 K1024 N2816 bf16 .* 611 TFLOP/s of  989 TFLOP/s    61.7%      4.1 ms" "$tmp/out" && ok ||
    bad "--points kineto: the GEMM is not at 611 TFLOP/s, 61.7% of the roof"
grep -q "1465 kernels and 242 copies, 45.647 ms; 31 groups placed" "$tmp/err" && ok ||
    bad "--points kineto: the reader did not say what it placed: $(cat "$tmp/err")"
grep -q "^Over the 1 ProfilerStep span on the GPU (34.9 ms): HFU 16.7%, MBU 39.6% of h100's peak" "$tmp/out" && ok ||
    bad "--points kineto: no HFU and MBU over the profiled step"
grep -q "^By operation: the scenario's nearest phase, decode, has .* describe the profiled run" "$tmp/out" && ok ||
    bad "--points kineto on the default scenario: the mismatch is not said"
expect 0 "--points a Kineto trace as CSV" -- --report=csv --chip h100 --points $K/h100_qwen1.5-0.5b_bf16_prefill.json.gz
grep -q '^"mm M8944 K1024 N2816 bf16",measured,false,tensor,2475914428416,3573940224,' "$tmp/out" && ok ||
    bad "--points kineto CSV: the GEMM is not a measured row"
# The same trace against its own run (Qwen1.5-0.5B's shape, 16 prompts of 559 tokens): kernels by operation.
Q05="--model llama-3.1-8b --layers 24 --heads 16 --kv-heads 16 --d-model 1024 --d-head 64 --d-ff 2816 --vocab 151936"
expect 0 "--points a Kineto trace by operation" -- --report --chip h100 $Q05 --batch 16 --prefill-tokens 559 \
    --points $K/h100_qwen1.5-0.5b_bf16_prefill.json.gz
grep -q "^By operation, against the scenario's prefill operations (their 5.78 TFLOP a chip; 5.76 TFLOP counted, 1.00x)" "$tmp/out" && ok ||
    bad "kineto by operation: not compared with the prefill"
grep -q "^  qkv + output projection      3.1 ms " "$tmp/out" && grep -q "^  mlp                          5.9 ms " "$tmp/out" &&
    ok || bad "kineto by operation: the GEMMs are not in their operations"
grep -q "^  copies and memsets .* not in the model" "$tmp/out" && ok || bad "kineto by operation: copies not said"
grep -q "describe the profiled run" "$tmp/err" "$tmp/out" && bad "kineto by operation: called incomparable" || ok
gzip -dc $K/mi300x_sglang_qwen3-8b_decode.json.gz >"$tmp/trace.json"
expect 0 "--points a plain Kineto trace" -- --report --format json --chip mi300x --points "$tmp/trace.json"
grep -q '"label":[[:space:]]*"argmax 32x151936 fp32"' "$tmp/out" && ok || bad "plain kineto: no argmax point"
grep -q "with no launching operator" "$tmp/err" && ok || bad "plain kineto: the graph replays were not said"
expect 0 "--calibrate a Kineto trace" -- --calibrate $K/h100_qwen1.5-0.5b_bf16_prefill.json.gz --chip h100
grep -q "^  mm M8944 K1024 N2816 bf1 point " "$tmp/out" && ok || bad "--calibrate kineto: the GEMM is not a row"
expect 0 "--calibrate a trace of another GPU" -- --calibrate $K/h100_qwen1.5-0.5b_bf16_prefill.json.gz --chip h200
grep -q "profiled on NVIDIA H100 80GB HBM3, fitted as h200" "$tmp/err" && ok ||
    bad "--calibrate kineto on another chip: the mismatch is not said: $(cat "$tmp/err")"
expect 2 "--points counters only" -- --report --points $K/a100_cupti_profiler_flop_counters.json.gz
grep -q "77 kernels' CUPTI range counters" "$tmp/err" && ok || bad "counters-only trace: $(cat "$tmp/err")"
head -c 30000 "$tmp/trace.json" >"$tmp/cut.json"
expect 2 "--points a truncated trace" -- --report --points "$tmp/cut.json"
grep -q "ends early" "$tmp/err" && ok || bad "truncated trace: $(cat "$tmp/err")"

# The hierarchical roofline: a rocprof-compute workload folder (pmc_perf.csv with roofline.csv beside it,
# the MI210 vcopy's own measured ceilings: L2 5017.1123, L1 9228.8867 GB/s), and an ncu export's L2 and L1
# bytes against a chip file's cache bandwidths.
mkdir -p "$tmp/workload"
cp tests/fixtures/profiles/rocprof/mi210_omniperf_vcopy_roof_pmc_perf.csv "$tmp/workload/pmc_perf.csv"
cp tests/fixtures/profiles/rocprof/mi210_omniperf_vcopy_roofline.csv "$tmp/workload/roofline.csv"
expect 0 "a rocprof-compute workload with its ceilings" -- --report --chip mi250x --points "$tmp/workload/pmc_perf.csv"
grep -q "^Every memory level's roof (the hierarchical roofline): L2 5.02 TB/s, L1 9.23 TB/s" "$tmp/out" &&
    grep -q "^  vecCopy #0 .*  25.4%    16.6%    18.0%  HBM" "$tmp/out" && ok ||
    bad "rocprof workload: the kernels are not against the L2 and L1 roofs"
grep -q "roofline.csv: measured ceilings read: HBM 1388.8 GB/s, L2 5017.1 GB/s, L1 9228.9 GB/s" "$tmp/err" && ok ||
    bad "rocprof workload: the ceilings read are not said"
expect 0 "an ncu export's cache bytes without cache bandwidths" -- --report --chip a100 \
    --points tests/fixtures/profiles/ncu/a100_cudnn_conv2d_sgemm_long_rules.csv
grep -q "has no published cache bandwidths: give l2_bytes_per_s and l1_bytes_per_s in a chip file" "$tmp/out" && ok ||
    bad "ncu cache bytes on a chip without cache figures: not said"

# Hardening (issue 23): quiet wrong figures are said or refused.
cat >"$tmp/chipx.json" <<'EOF2'
{"key": "myh100", "name": "My H100", "peak_flops_per_s": {"bf16": 989.4e12}, "hbm_bytes": 80e9,
 "hbm_bytes_per_s": 3.35e12, "efficiency": {"matmul": {"bf61": 0.1}}}
EOF2
expect 0 "a chip file's misspelt matmul key" -- --report --chip "$tmp/chipx.json"
grep -q "unknown key 'efficiency.matmul.bf61' ignored (did you mean 'efficiency.matmul.bf16'?)" "$tmp/err" && ok ||
    bad "efficiency.matmul.bf61 was not named: $(cat "$tmp/err")"
printf 'label,flops,bytes,seconds\nk,1e12,1e9,0.01,int8\n' >"$tmp/extra.csv"
expect 2 "a points row with a field beyond its header" -- --report --chip h100 --points "$tmp/extra.csv"
grep -q "extra.csv:2: 5 fields under a header of 4 (label,flops,bytes,seconds): the header names no column for 'int8'" \
    "$tmp/err" && ok || bad "points extra field: $(cat "$tmp/err")"
printf 'label,flops,bytes,seconds\nk,1e12,1e9,0.01,,\n' >"$tmp/trailing.csv"
expect 0 "a points row with empty trailing fields" -- --report --chip h100 --points "$tmp/trailing.csv"
expect 2 "micro-batches of less than a token" -- --report --batch 8 --prefill-tokens 100 --pp 2 --microbatches 16777216
grep -q "splits 8 prompts of 100 tokens into less than a token each: at most 800" "$tmp/err" && ok ||
    bad "--microbatches past the tokens: $(cat "$tmp/err")"
expect 0 "chip-hours echoed as given" -- --report --train-tokens 1e6 --train-chip-hours 0.4
grep -q "    0.4 chip-hours given -> implied MFU .*: over 100%, no chip does that" "$tmp/out" && ok ||
    bad "--train-chip-hours 0.4 not echoed as given, or its MFU over 100% not said"
printf 'label,flops,bytes,seconds\na,1e12,1e9,0.3\nb,2e12,1e9,0.3\nc,1e9,4e9,0.3\nd,3e12,1e8,0.3\ne,1e9,1e9,0.3\nf,5e11,2e9,0.3\n' \
    >"$tmp/bounds.csv"
expect 2 "a fit at its bounds is not written" -- --calibrate "$tmp/bounds.csv" --chip h100 --write-chip "$tmp/bounds.json"
grep -q "warning: the fit stopped at the edge of its range (matmul.bf16 0.02" "$tmp/out" && [ ! -e "$tmp/bounds.json" ] &&
    grep -q "not written: the fit stopped at the edge of its range" "$tmp/err" && ok || bad "a fit at its bounds was saved"
head -1 tests/fixtures/measured/cases.csv >"$tmp/cases-typo.csv"
grep ",vllm," tests/fixtures/measured/cases.csv | grep -v "{configs}" | head -1 | sed 's/,vllm,/,vllmm,/' >>"$tmp/cases-typo.csv"
expect 2 "a misspelt engine in a calibration table" -- --calibrate "$tmp/cases-typo.csv" --chip h100
grep -q "cases-typo.csv:2: rooftop_args: --engine 'vllmm': unknown engine; did you mean vllm?" "$tmp/err" && ok ||
    bad "engine vllmm: $(cat "$tmp/err")"

cat >"$tmp/contra.json" <<'EOF2'
{"key": "cx", "name": "Contra", "peak_flops_per_s": {"bf16": 989e12, "fp8": 1e12, "BF16": 1},
 "vector_flops_per_s": 1e16, "hbm_bytes": 80e9, "hbm_bytes_per_s": 3.35e12}
EOF2
expect 0 "a chip file whose figures contradict each other" -- --report --chip "$tmp/contra.json"
grep -q "the fp8 peak (1e+12 FLOP/s) is below the bf16 peak" "$tmp/err" &&
    grep -q "vector_flops_per_s (1e+16) is above the bf16 tensor peak" "$tmp/err" &&
    grep -q "unknown key 'peak_flops_per_s.BF16' ignored (did you mean 'peak_flops_per_s.bf16'?)" "$tmp/err" && ok ||
    bad "contradicting chip figures: $(cat "$tmp/err")"

# --diff names the tensor-parallel degree a layout change moves, though tp is derived (issue 21 item 6).
expect 0 "a saved TP 8 scenario" -- --report --chips 8 --write-scenario "$tmp/tp8.json"
expect 0 "TP 8 against TP 4 x PP 2" -- --chips 8 --pp 2 --baseline "$tmp/tp8.json" --format=text
grep -q "^  tp: 8 -> 4" "$tmp/out" && grep -q "^  pp: 1 -> 2" "$tmp/out" && ok || bad "--diff: tp 8 -> 4 not listed"

# A UTF-8 byte-order mark before an export's header or a trace's JSON is no part of it.
printf '\357\273\277' >"$tmp/bom.csv"
cat tests/fixtures/profiles/ncu/rtx5090_dsocr_bf16_gemm_long_2025.csv >>"$tmp/bom.csv"
expect 0 "an ncu export after a byte-order mark" -- --report --chip h100 --points "$tmp/bom.csv"
printf '\357\273\277[{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoD","ts":0,"dur":5,"args":{"bytes":1000}}]' \
    >"$tmp/bom.json"
expect 0 "a trace after a byte-order mark" -- --report --chip h100 --points "$tmp/bom.json"

# Edges (issue 23 item 10).
rows='label,flops,bytes,seconds\nk,1e12,1e9,0.01\n'
{ printf "$rows"; head -c $((16777216 - $(printf "$rows" | wc -c))) /dev/zero | tr '\0' '\n'; } >"$tmp/exact.csv"
if [ "$(wc -c <"$tmp/exact.csv")" -eq 16777216 ] && head -1 "$tmp/exact.csv" | grep -q label; then
    expect 0 "a file of exactly 16 MiB" -- --report --chip h100 --points "$tmp/exact.csv"
    printf '\n' >>"$tmp/exact.csv"
    expect 0 "a profile past 16 MiB (exports may run to 512 MiB)" -- --report --chip h100 --points "$tmp/exact.csv"
    expect 2 "a chip file a byte past 16 MiB" -- --report --chip "$tmp/exact.csv"
    grep -q "larger than 16 MiB; refused" "$tmp/err" && ok || bad "16 MiB + 1: $(cat "$tmp/err")"
fi
printf 'label,flops,bytes,seconds\nk\000x,1e12,1e9,0.01\n' >"$tmp/nul.csv"
expect 2 "a NUL byte in a CSV field" -- --report --chip h100 --points "$tmp/nul.csv"
grep -q "nul.csv:2: a NUL byte: not a text CSV" "$tmp/err" && ok || bad "NUL byte: $(cat "$tmp/err")"
printf '{"name": " ", "step_overhead_s": 0.0005}\n' >"$tmp/blank-engine.json"
expect 2 "an engine file with an empty name" -- --report --engine "$tmp/blank-engine.json"
grep -q "'name' is empty" "$tmp/err" && ok || bad "empty engine name: $(cat "$tmp/err")"
cat >"$tmp/sm.json" <<'EOF2'
{"key": "mysm", "name": "SM chip", "peak_flops_per_s": {"bf16": 989.4e12}, "hbm_bytes": 80e9,
 "hbm_bytes_per_s": 3.35e12, "sm_count": 132, "efficiency": {"sm_count": 114}}
EOF2
expect 0 "sm_count twice, disagreeing" -- --report --chip "$tmp/sm.json"
grep -q "'sm_count' 132 and 'efficiency.sm_count' 114 disagree" "$tmp/err" && ok || bad "sm_count disagreement unsaid"
expect 2 "a draft of 1.5 parameters" -- --report --spec-draft 1.5 --spec-tokens 4 --spec-accept 0.7
grep -q "1.5 parameters is no model" "$tmp/err" && ok || bad "--spec-draft 1.5: $(cat "$tmp/err")"
expect 0 "a budget with its unit" -- --report --budget 500ms
grep -q "budget 0.500 s" "$tmp/out" && ok || bad "--budget 500ms is not 0.5 s"
expect 0 "a trailing blank in a number" -- --report --batch "8 "
expect 0 "a leading blank in a number" -- --report --batch " 8"
mkdir -p "$tmp/xdg/rooftop/chips" && printf '{bad json' >"$tmp/xdg/rooftop/chips/broken.json"
XDG_CONFIG_HOME="$tmp/xdg" "$bin" --diff tests/fixtures/scenarios/review-a.json tests/fixtures/scenarios/review-b.json \
    >/dev/null 2>"$tmp/err" </dev/null
[ "$(grep -c "broken.json" "$tmp/err")" -eq 1 ] && ok || bad "--diff repeats a user-folder warning: $(cat "$tmp/err")"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

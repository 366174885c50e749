#!/bin/sh
# readme_test.sh — the README shows what the program prints: its 80x24 screen
# capture is the golden frame (which tests/test_tui_frames.c checks against
# the explorer), its "$ rooftop" transcripts are what those commands print
# now, and the figures its prose quotes come out of the program.
#
#   sh tests/readme_test.sh path/to/rooftop
#
# When the capture or a transcript drifts, `make readme` rewrites them
# (scripts/readme-sync.sh); a figure in the prose is edited by hand.
set -u
bin=${1:-./rooftop}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
cd "$(dirname "$0")/.." || exit 1
readme=README.md
pass=0
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rooftop-readme-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_CONFIG_HOME="$tmp/config" # hermetic: no user chip files

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}

# ---- the capture is the golden frame ----
golden=tests/golden/chips16_80x24_utf8.txt
n=$(grep -c "^<!-- capture: $golden " "$readme")
[ "$n" -eq 1 ] && ok || bad "$readme has $n capture markers for $golden, want 1"
# The fenced block after the marker, extracted independently of readme-sync.sh.
awk -v marker="<!-- capture: $golden " '
    index($0, marker) == 1 { found = 1; next }
    found == 1 && $0 == "```" { found = 2; next }
    found == 2 && $0 == "```" { exit }
    found == 2 { print }
' "$readme" >"$tmp/capture.txt"
if [ -s "$tmp/capture.txt" ] && cmp -s "$tmp/capture.txt" "$golden"; then ok; else
    bad "the README's capture differs from $golden (make readme rewrites it):"
    diff "$golden" "$tmp/capture.txt" | head -n 20
fi

# The presentation view's excerpt is the first three lines of its golden frame.
golden=tests/golden/present_80x24_utf8.txt
head -n 3 "$golden" >"$tmp/present_golden.txt"
if grep -qxF -- "$(head -n 1 "$golden")" "$readme" && grep -qxF -- "$(sed -n 2p "$golden")" "$readme"; then ok; else
    bad "the README's presentation-view excerpt differs from the first lines of $golden (edit it by hand):"
    cat "$tmp/present_golden.txt"
fi

# ---- the transcripts are what the commands print ----
n=$(grep -c '^\$ rooftop ' "$readme")
[ "$n" -ge 2 ] && ok || bad "$readme has $n '\$ rooftop' transcript lines; the napkin sweeps should be there"
if sh scripts/readme-sync.sh "$bin" "$readme" "$tmp/synced.md"; then
    if cmp -s "$readme" "$tmp/synced.md"; then ok; else
        bad "the README's generated blocks differ from the program's output (make readme rewrites them):"
        diff "$readme" "$tmp/synced.md" | head -n 30
    fi
else
    bad "scripts/readme-sync.sh failed"
fi

# ---- figures quoted in the prose ----
# The README as one line with single spaces, for phrases that wrap.
tr '\n' ' ' <"$readme" | tr -s ' ' >"$tmp/prose"

# claim PHRASE: the README says PHRASE (built from the program's figures).
claim() {
    if grep -qF -- "$1" "$tmp/prose"; then ok; else bad "the README should say, from what the program prints now: \"$1\""; fi
}

# json SECTION KEY FILE: the value of the first "KEY" inside the first object
# "SECTION" of rooftop's JSON report in FILE.
json() {
    awk -v sec="\"$1\":" -v key="\"$2\":" '
        !in_sec && $1 == sec && $2 == "{" { in_sec = 1; next }
        in_sec && $1 == key { v = $2; sub(/,$/, "", v); gsub(/"/, "", v); print v; exit }
    ' "$3"
}

# csv_col FILE COLUMN KEY_COLUMN KEY: the COLUMN of the row whose KEY_COLUMN is KEY.
csv_col() {
    awk -F, -v col="$2" -v kcol="$3" -v key="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) { if ($i == col) c = i; if ($i == kcol) k = i } next }
        c && k && $k == key { print $c; exit }
    ' "$1"
}

# 3 decimals, as the explorer's title and the report print seconds.
s3() { awk -v x="$1" 'BEGIN { printf "%.3f", x }'; }

# The explorer at 16 chips: the realistic verdict misses, the napkin disagrees.
"$bin" --report=json --chips 16 >"$tmp/c16.json" || bad "rooftop --report=json --chips 16 failed"
real=$(s3 "$(json realistic total_s "$tmp/c16.json")")
napkin=$(s3 "$(json napkin total_s "$tmp/c16.json")")
claim "This is \`rooftop --chips 16\` at 80×24: the realistic estimate says $real s, and the title says that the napkin disagrees ($napkin s)"
[ "$(json realistic verdict "$tmp/c16.json")" = MISS ] && ok || bad "at 16 chips the realistic verdict is not MISS, as the capture shows"

# Stepping to 64 chips: the napkin's verdict turns OK, the realistic one still misses.
"$bin" --report=json --chips 64 >"$tmp/c64.json" || bad "rooftop --report=json --chips 64 failed"
napkin=$(s3 "$(json napkin total_s "$tmp/c64.json")")
claim "stepping chips to 64 turns the guide's verdict $(json napkin verdict "$tmp/c64.json") at $napkin s"
[ "$(json realistic verdict "$tmp/c64.json")" = MISS ] && ok ||
    bad "the README says the realistic estimate still misses at 64 chips; rooftop says $(json realistic verdict "$tmp/c64.json")"

# The Use section's comment on the kv-heads sweep.
"$bin" --sweep=kv-heads --chip h100 --chips 8 --format=csv >"$tmp/kv8.csv" || bad "kv-heads sweep failed"
mha=$(csv_col "$tmp/kv8.csv" max_concurrent_requests kv_heads 64)
gqa=$(csv_col "$tmp/kv8.csv" max_concurrent_requests kv_heads 8)
claim "rooftop --sweep=kv-heads --chip h100 --chips 8 # concurrent 8k requests: $mha MHA, $gqa GQA-8"

# Concurrent requests on 16 and 32 H100s, KV heads copied past tp 8.
for chips in 16 32; do
    "$bin" --sweep=kv-heads --chip h100 --model llama-3.1-70b --chips $chips --format=csv >"$tmp/kv$chips.csv"
    "$bin" --report=json --chip h100 --model llama-3.1-70b --chips $chips >"$tmp/l$chips.json"
done
r16=$(csv_col "$tmp/kv16.csv" max_concurrent_requests kv_heads 8)
r32=$(csv_col "$tmp/kv32.csv" max_concurrent_requests kv_heads 8)
claim "Llama-3.1-70B's 8k requests on 16 and 32 H100s are $r16 and $r32,"
p16=$(json per_chip max_concurrent_requests "$tmp/l16.json")
p32=$(json per_chip max_concurrent_requests "$tmp/l32.json")
claim "the activation workspace of an \`--activation-tokens\` pass ($p16 and $p32)"

# The built-in chips' datasheet figures.
for chip in h100 a100-80 tpu-v5p; do
    "$bin" --report=json --chip $chip >"$tmp/$chip.json" || bad "rooftop --report=json --chip $chip failed"
done
h100=$(awk -v x="$(json chip peak_flops_per_s "$tmp/h100.json")" 'BEGIN { printf "%.1f", x / 1e12 }')
a100=$(awk -v x="$(json chip hbm_bytes_per_s "$tmp/a100-80.json")" 'BEGIN { printf "%.3f", x / 1e12 }')
v5p=$(awk -v x="$(json chip hbm_bytes_per_s "$tmp/tpu-v5p.json")" 'BEGIN { printf "%.3f", x / 1e12 }')
claim "datasheet figures (H100 SXM $h100 TFLOP/s bf16, A100-80 $a100 TB/s, v5p $v5p TB/s)"

# The published configs the fixtures test checks (a count from the tree).
n=$(ls tests/fixtures/hf/*/config.json | wc -l)
claim "\`tests/test_fixtures.c\` checks $((n)) published configs"

echo "readme: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

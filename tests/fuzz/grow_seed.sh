#!/bin/sh
# grow_seed.sh — writes a seed file with N keys added to its last object
# (before its last '}'), the last repeating the first: a large input that
# stays valid JSON and reaches the loader, for the fuzzers' large pass
# (inputs beyond the small pass's -max_len, through the duplicate-key pass).
# Usage: sh tests/fuzz/grow_seed.sh SEED N > OUT
set -eu
awk -v n="$2" 'BEGIN { RS = "\001" }
{
    i = length($0)
    while (i > 0 && substr($0, i, 1) != "}")
        i--
    if (i == 0) { printf "%s", $0; exit }
    printf "%s", substr($0, 1, i - 1)
    for (k = 0; k < n; k++)
        printf ",\"x%x\":%d", k, k % 10
    printf ",\"x0\":1%s", substr($0, i)
}' "$1"

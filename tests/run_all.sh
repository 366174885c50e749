#!/bin/sh
# run_all.sh — runs every test suite, shows each one's own output, and ends
# with one line for the whole run: "N passed, M failed".
#
#   sh tests/run_all.sh path/to/rooftop SUITE...
#
# A SUITE ending in .sh is a shell script, run as `sh SUITE path/to/rooftop`;
# its last "N passed, M failed" line gives its counts. Any other SUITE is a
# cmocka binary, run with ROOFTOP=path/to/rooftop in the environment; its
# "[  PASSED  ] N test(s)." and "[  FAILED  ] M test(s)" lines give its
# counts. Every suite runs even when an earlier one failed. A suite that
# exits non-zero without reporting a failure (a crash, a refusal to start)
# counts as one failure, so the total never hides it. Exits 1 when anything
# failed.
set -u
if [ $# -lt 2 ]; then
    echo "usage: sh tests/run_all.sh path/to/rooftop SUITE..." >&2
    exit 2
fi
rooftop=$1
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rooftop-run.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
broken=""

for suite in "$@"; do
    echo "== $suite"
    # The suite's output goes to the terminal as it comes and to a file to
    # count from; its exit status survives the pipe through a file.
    case $suite in
    *.sh) { sh "$suite" "$rooftop" 2>&1; echo $? >"$tmp/rc"; } | tee "$tmp/out" ;;
    *) { ROOFTOP=$rooftop "$suite" 2>&1; echo $? >"$tmp/rc"; } | tee "$tmp/out" ;;
    esac
    rc=$(cat "$tmp/rc")
    case $suite in
    *.sh)
        counts=$(grep -oE '[0-9]+ passed, [0-9]+ failed' "$tmp/out" | tail -n 1)
        p=0 f=0
        if [ -n "$counts" ]; then
            p=${counts%% *}
            f=${counts#*, }
            f=${f%% *}
        fi
        ;;
    *)
        p=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test(s)\..*/\1/p' "$tmp/out" | awk '{ n += $1 } END { print n + 0 }')
        f=$(sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) test(s).*/\1/p' "$tmp/out" | awk '{ n += $1 } END { print n + 0 }')
        ;;
    esac
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "run_all: $suite exited $rc without reporting a failure; counted as one"
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$f" -eq 0 ] || broken="$broken ${suite##*/}"
done

[ -z "$broken" ] || echo "failed in:$broken"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

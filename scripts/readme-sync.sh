#!/bin/sh
# readme-sync.sh — rewrites the README's generated blocks from the program:
#
#   sh scripts/readme-sync.sh [path/to/rooftop [README_IN [README_OUT]]]
#
# (defaults: ./rooftop, README.md, README_IN rewritten in place; `make readme`).
#
#   - The screen capture: the fenced block right after a line
#         <!-- capture: tests/golden/NAME.txt ... -->
#     becomes that golden frame (tests/test_tui_frames.c checks the frame
#     against the program, so the README shows what the program draws).
#   - Transcripts: a plain ``` block whose first line is "$ rooftop ARGS"
#     keeps its "$ rooftop" lines, each followed by what `rooftop ARGS`
#     prints now (no quoting: ARGS split at spaces).
#
# It runs from the repository root, with no user chip or theme files. Exits
# non-zero (writing nothing) when a command fails or a marker is broken.
# tests/readme_test.sh fails while the README differs from what this writes.
set -u
here=$(pwd)
root=$(cd "$(dirname "$0")/.." && pwd) || exit 1
# abs PATH DEFAULT: PATH (or DEFAULT, from the root) as an absolute path.
abs() {
    if [ -z "$1" ]; then printf '%s/%s\n' "$root" "$2"; else case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$here" "$1" ;; esac; fi
}
bin=$(abs "${1:-}" rooftop)
in=$(abs "${2:-}" README.md)
out=$(abs "${3:-}" "${2:-README.md}")
[ -n "${3:-}" ] || out=$in
cd "$root" || exit 1
[ -x "$bin" ] || {
    echo "readme-sync: $bin is not an executable (make rooftop first)" >&2
    exit 1
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rooftop-readme.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/config"

# run "$ rooftop ARGS": prints the line and what the program prints for it.
run() {
    printf '%s\n' "$1"
    args=${1#\$ rooftop }
    set -f
    # shellcheck disable=SC2086
    XDG_CONFIG_HOME="$tmp/config" "$bin" $args </dev/null || {
        echo "readme-sync: \`rooftop $args\` exited $?" >&2
        return 1
    }
    set +f
}

fence='```'
state=text
line_no=0
{
    while IFS= read -r line || [ -n "$line" ]; do
        line_no=$((line_no + 1))
        case $state in
        text)
            printf '%s\n' "$line"
            case $line in
            "<!-- capture: "*)
                golden=${line#<!-- capture: }
                golden=${golden%% *}
                [ -f "$golden" ] || {
                    echo "readme-sync: $in:$line_no: no golden frame $golden" >&2
                    exit 1
                }
                state=capture
                ;;
            "$fence") state=first ;;
            "$fence"*) state=fenced ;;
            esac
            ;;
        capture)
            [ "$line" = "$fence" ] || {
                echo "readme-sync: $in:$line_no: the capture marker must be followed by a $fence line" >&2
                exit 1
            }
            printf '%s\n' "$line"
            cat "$golden"
            state=skip
            ;;
        skip)
            [ "$line" = "$fence" ] && printf '%s\n' "$line" && state=text
            ;;
        first)
            case $line in
            "\$ rooftop "*)
                run "$line" || exit 1
                state=transcript
                ;;
            "$fence")
                printf '%s\n' "$line"
                state=text
                ;;
            *)
                printf '%s\n' "$line"
                state=fenced
                ;;
            esac
            ;;
        transcript)
            case $line in
            "\$ rooftop "*) run "$line" || exit 1 ;;
            "$fence")
                printf '%s\n' "$line"
                state=text
                ;;
            esac
            ;;
        fenced)
            printf '%s\n' "$line"
            [ "$line" = "$fence" ] && state=text
            ;;
        esac
    done
    [ "$state" = text ] || {
        echo "readme-sync: $in ends inside a fenced block" >&2
        exit 1
    }
} <"$in" >"$tmp/README.md" || exit 1
cp "$tmp/README.md" "$out.tmp.$$" && mv "$out.tmp.$$" "$out"

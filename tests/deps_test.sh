#!/bin/sh
# deps_test.sh — scripts/ensure-deps.sh and the Makefile's use of it: a plain
# build asks only for the build dependencies (no root needed when they are
# present), the tests for theirs, and a missing package is named, installed
# alone as root, or given as a command to run otherwise.
#
#   sh tests/deps_test.sh [path/to/rooftop]   (the argument is not used)
#
# The script runs with PATH holding only fakes (pkg-config, id, sudo,
# apt-get, cc, tmux, localedef), so nothing is installed and the machine's
# own packages do not matter.
set -u
cd "$(dirname "$0")/.." || exit 1
pass=0
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rooftop-deps.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
sh=$(command -v sh)
grep=$(command -v grep)
chmod=$(command -v chmod)

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}

# A fake pkg-config: --exists succeeds when every named library is listed in
# $tmp/libs.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/pkg-config" <<EOF
#!$sh
[ "\$1" = --exists ] || exit 1
shift
for lib in "\$@"; do $grep -qx "\$lib" "$tmp/libs" || exit 1; done
EOF
# A fake apt-get: records its arguments; "install" makes the libraries and
# tools of the named packages appear.
cat >"$tmp/bin/apt-get" <<EOF
#!$sh
echo "\$*" >>"$tmp/apt.log"
[ "\$1" = install ] || exit 0
for p in "\$@"; do
    case \$p in
    libncurses-dev) echo ncursesw >>"$tmp/libs" ;;
    libcjson-dev) echo libcjson >>"$tmp/libs" ;;
    zlib1g-dev) echo zlib >>"$tmp/libs" ;;
    libcmocka-dev) echo cmocka >>"$tmp/libs" ;;
    tmux | pkg-config) printf '#!$sh\n' >"$tmp/bin/\$p" && $chmod +x "$tmp/bin/\$p" ;;
    esac
done
EOF
printf '#!%s\necho "$FAKE_UID"\n' "$sh" >"$tmp/bin/id"
printf '#!%s\nexit 1\n' "$sh" >"$tmp/bin/sudo"
printf '#!%s\n' "$sh" >"$tmp/bin/cc"
chmod +x "$tmp/bin/"*
cp "$tmp/bin/pkg-config" "$tmp/pkg-config.saved"

# setup LIBS TOOLS: the libraries pkg-config knows and which of tmux and
# localedef exist; clears the apt-get log.
setup() {
    printf '%s\n' $1 >"$tmp/libs"
    rm -f "$tmp/bin/tmux" "$tmp/bin/localedef" "$tmp/apt.log"
    cp "$tmp/pkg-config.saved" "$tmp/bin/pkg-config"
    chmod +x "$tmp/bin/pkg-config"
    for tool in $2; do
        printf '#!%s\n' "$sh" >"$tmp/bin/$tool"
        chmod +x "$tmp/bin/$tool"
    done
}

# deps UID MODE: runs the script as that user with only the fakes on PATH.
deps() {
    env -i PATH="$tmp/bin" FAKE_UID="$1" CC=cc "$sh" scripts/ensure-deps.sh "$2" >"$tmp/out" 2>"$tmp/err"
}

# Build mode with ncursesw and cJSON present needs nothing else and no root,
# though cmocka, tmux and localedef are all missing.
setup "ncursesw libcjson zlib" ""
deps 1000 build
st=$?
[ "$st" -eq 0 ] && ok || bad "build deps present, not root: exit $st ($(cat "$tmp/err"))"
[ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ] && ok || bad "build deps present: it printed: $(cat "$tmp/out" "$tmp/err")"
[ ! -f "$tmp/apt.log" ] && ok || bad "build deps present: apt-get ran: $(cat "$tmp/apt.log")"

# Test mode on the same machine names exactly what the tests lack and the
# command to install it, and fails without running apt-get.
deps 1000 test
st=$?
[ "$st" -eq 1 ] && ok || bad "test deps missing, not root: exit $st, want 1"
grep -q "sudo apt-get install -y libcmocka-dev tmux" "$tmp/err" && ok ||
    bad "test deps missing: no install command naming them: $(cat "$tmp/err")"
grep -q "libncurses-dev\|libcjson-dev\|zlib1g-dev" "$tmp/err" && bad "test deps: it asked for build packages present: $(cat "$tmp/err")" || ok
[ ! -f "$tmp/apt.log" ] && ok || bad "not root: apt-get ran: $(cat "$tmp/apt.log")"

# Test mode with everything present needs no root (where the machine has
# locale data: the script looks for /usr/share/i18n/locales itself).
if [ -d /usr/share/i18n/locales ]; then
    setup "ncursesw libcjson zlib cmocka" "tmux localedef"
    deps 1000 test
    st=$?
    [ "$st" -eq 0 ] && [ ! -f "$tmp/apt.log" ] && ok || bad "test deps present, not root: exit $st ($(cat "$tmp/err"))"
fi

# As root, only the missing package is installed, and the check after it passes.
setup "ncursesw zlib" ""
deps 0 build
st=$?
[ "$st" -eq 0 ] && ok || bad "root, cJSON missing: exit $st ($(cat "$tmp/err"))"
grep -qx "install -y -qq libcjson-dev" "$tmp/apt.log" 2>/dev/null && ok ||
    bad "root, cJSON missing: apt-get was not asked for libcjson-dev alone: $(cat "$tmp/apt.log" 2>/dev/null)"

# No C compiler: build-essential, as the README says.
setup "ncursesw libcjson zlib" ""
rm "$tmp/bin/cc"
deps 1000 build
st=$?
[ "$st" -eq 1 ] && grep -q "install -y build-essential" "$tmp/err" && ok ||
    bad "no compiler: exit $st, want 1 and build-essential named: $(cat "$tmp/err")"
printf '#!%s\n' "$sh" >"$tmp/bin/cc"
chmod +x "$tmp/bin/cc"

# A mode it does not know is a usage error.
deps 1000 nonsense
st=$?
[ "$st" -eq 2 ] && ok || bad "unknown mode: exit $st, want 2"

# The Makefile: rooftop asks for the build deps only; test for the test deps.
unset MAKEFLAGS MFLAGS MAKELEVEL
if command -v make >/dev/null 2>&1; then
    make -n -B BUILD="$tmp/b" rooftop >"$tmp/make" 2>&1
    grep -q "ensure-deps.sh build" "$tmp/make" && ok || bad "make rooftop does not ensure the build deps"
    grep -q "ensure-deps.sh test" "$tmp/make" && bad "make rooftop asks for the test deps" || ok
    make -n BUILD="$tmp/b" test >"$tmp/make" 2>&1
    grep -q "ensure-deps.sh test" "$tmp/make" && ok || bad "make test does not ensure the test deps"
fi

echo "deps: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

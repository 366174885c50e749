#!/bin/sh
# Makes sure the Debian packages one kind of make run needs are present:
#
#   sh scripts/ensure-deps.sh build   a C compiler, pkg-config, ncursesw, cJSON, zlib
#                                     (make, make rooftop, make bench-build)
#   sh scripts/ensure-deps.sh test    build, plus cmocka, tmux and locale data
#                                     (make test, make sanitize)
#   sh scripts/ensure-deps.sh fuzz    build, plus clang and libFuzzer (make fuzz)
#
# When everything is present it only checks, and needs no root. When something
# is missing it installs just those packages with apt-get as root (or through
# passwordless sudo); otherwise it prints the exact command and fails.
set -u
mode=${1:-build}
case $mode in
build | test | fuzz) ;;
*)
    echo "usage: sh scripts/ensure-deps.sh build|test|fuzz" >&2
    exit 2
    ;;
esac
cc=${CC:-cc}
cc=${cc%% *} # "ccache gcc": the first word is what must exist

# True when clang can link a libFuzzer harness.
have_fuzzer() {
    command -v clang >/dev/null 2>&1 || return 1
    printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }\n' |
        clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1
}

# True when pkg-config knows the library $1.
have_lib() {
    command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1"
}

# Sets $missing to the Debian packages the mode needs and does not have.
find_missing() {
    missing=""
    command -v "$cc" >/dev/null 2>&1 || missing="$missing build-essential"
    command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
    have_lib ncursesw || missing="$missing libncurses-dev"
    have_lib libcjson || missing="$missing libcjson-dev"
    have_lib zlib || missing="$missing zlib1g-dev"
    if [ "$mode" = test ]; then
        have_lib cmocka || missing="$missing libcmocka-dev"
        command -v tmux >/dev/null 2>&1 || missing="$missing tmux"
        { command -v localedef >/dev/null 2>&1 && [ -d /usr/share/i18n/locales ]; } || missing="$missing locales"
    fi
    if [ "$mode" = fuzz ]; then
        command -v clang >/dev/null 2>&1 || missing="$missing clang"
        have_fuzzer || missing="$missing libclang-rt-dev"
    fi
    missing=${missing# }
}

find_missing
[ -z "$missing" ] && exit 0

case $mode in
build) what="to build rooftop" ;;
test) what="to build and run the tests" ;;
fuzz) what="to build the fuzzers" ;;
esac
echo "rooftop: Debian packages missing $what: $missing" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "rooftop: no apt-get here; install the equivalents of: $missing" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    run="sudo"
else
    echo "rooftop: not root and no passwordless sudo; run:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y $missing" >&2
    exit 1
fi
echo "rooftop: installing $missing" >&2
export DEBIAN_FRONTEND=noninteractive
$run apt-get update -qq >&2 || true
# shellcheck disable=SC2086
$run apt-get install -y -qq $missing >&2 || {
    echo "rooftop: apt-get install failed; run: apt-get install -y $missing" >&2
    exit 1
}
find_missing
[ -z "$missing" ] || {
    echo "rooftop: still missing after the install: $missing" >&2
    exit 1
}

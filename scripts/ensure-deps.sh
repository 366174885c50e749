#!/bin/sh
# Makes sure rooftop's build and test dependencies are present. On Debian,
# installs the missing packages with apt-get when run as root (or through
# passwordless sudo); otherwise prints the exact command and fails.
# With the argument "fuzz", it also makes sure clang and libFuzzer are there.
set -u
packages="libncurses-dev libcjson-dev libcmocka-dev pkg-config tmux locales"
[ "${1:-}" = fuzz ] && packages="$packages clang libclang-rt-dev"

# True when clang can link a libFuzzer harness.
have_fuzzer() {
    command -v clang >/dev/null 2>&1 || return 1
    printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }\n' |
        clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1
}

have_all() {
    command -v pkg-config >/dev/null 2>&1 || return 1
    pkg-config --exists ncursesw libcjson cmocka || return 1
    command -v tmux >/dev/null 2>&1 || return 1
    command -v localedef >/dev/null 2>&1 && [ -d /usr/share/i18n/locales ] || return 1
    if [ "${1:-}" = fuzz ]; then have_fuzzer || return 1; fi
    return 0
}

have_all "${1:-}" && exit 0

echo "rooftop: installing missing build dependencies: $packages" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "rooftop: no apt-get here; install ncursesw, cJSON and cmocka development files, pkg-config and tmux" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    run="sudo"
else
    echo "rooftop: missing dependencies; run:" >&2
    echo "    sudo apt-get update && sudo apt-get install -y $packages" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$run apt-get update -qq >&2 || true
$run apt-get install -y -qq $packages >&2 || {
    echo "rooftop: apt-get install failed; run: apt-get install -y $packages" >&2
    exit 1
}
have_all "${1:-}" || { echo "rooftop: dependencies still missing after install" >&2; exit 1; }

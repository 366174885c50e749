#!/bin/sh
# Makes sure rooftop's build and test dependencies are present. On Debian,
# installs the missing packages with apt-get when run as root (or through
# passwordless sudo); otherwise prints the exact command and fails.
set -u
packages="libncurses-dev libcjson-dev libcmocka-dev pkg-config tmux"

have_all() {
    command -v pkg-config >/dev/null 2>&1 || return 1
    pkg-config --exists ncursesw libcjson cmocka || return 1
    command -v tmux >/dev/null 2>&1 || return 1
    return 0
}

have_all && exit 0

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
have_all || { echo "rooftop: dependencies still missing after install" >&2; exit 1; }

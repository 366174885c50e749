#!/bin/sh
# e2e_tmux.sh — end-to-end tests of the explorer, driven through tmux.
#
#   sh tests/e2e_tmux.sh [path/to/rooftop]
#
# Each case runs rooftop in a pane of a private tmux server (its own socket,
# no config file) at a fixed size, in a hermetic environment (env -i with only
# TERM, the locale, HOME and PATH), and polls the pane's text for what must
# appear rather than sleeping for fixed times. Every wait has a generous
# timeout (E2E_TIMEOUT, default 10 s) so that a loaded machine is slow but not
# flaky. The last line is "N passed, M failed"; the exit status is non-zero
# when anything failed. Without tmux the script says so and exits 0.

ROOFTOP=${1:-./rooftop}
TIMEOUT=${E2E_TIMEOUT:-10}

if ! command -v tmux >/dev/null 2>&1; then
    echo "e2e_tmux: tmux is not installed; skipping the end-to-end tests"
    exit 0
fi
case $ROOFTOP in /*) ;; *) ROOFTOP=$(pwd)/$ROOFTOP ;; esac
if [ ! -x "$ROOFTOP" ]; then
    echo "e2e_tmux: $ROOFTOP is not an executable" >&2
    exit 1
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/rooftop-e2e.XXXXXX") || exit 1
# The server's socket lives in this run's own folder: a name in the shared
# /tmp/tmux-UID folder made from $$ collided with other runs on one machine
# whose shells had the same pid (other containers), and a case then drove
# the other run's panes.
SOCKET=$WORK/tmux.sock
PASSED=0
FAILED=0
UTF8_LOCALE=C.UTF-8
if locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$'; then :; else
    UTF8_LOCALE=$(locale -a 2>/dev/null | grep -i 'utf-\?8' | head -n 1)
fi

# Under `make sanitize` the binary runs with LeakSanitizer. ncurses hands the
# Linux console's mouse to libgpm, which it loads at run time and which keeps
# a few bytes for the life of the process: not ours to free, so suppressed by
# name (harmless for an uninstrumented binary); the slow unwinder lets the
# suppression see past the run-time loaded library.
printf 'leak:mousemask_sp\nleak:_nc_gpm\n' >"$WORK/lsan.supp"
SAN_ENV="LSAN_OPTIONS=suppressions=$WORK/lsan.supp ASAN_OPTIONS=fast_unwind_on_malloc=0"

# Runs tmux on the private server, outside any tmux the caller is in.
t() {
    env -u TMUX tmux -S "$SOCKET" -f /dev/null "$@"
}

cleanup() {
    t kill-server >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM HUP
# Keep the private server up between cases: by default it exits with its last
# session, and a new-session racing that exit fails with "server exited
# unexpectedly" on a loaded machine. (tmux before 2.7 lacks the option.)
t start-server \; set -g exit-empty off >/dev/null 2>&1

# A session that lives as long as this script: tmux ends its server when the
# last session is killed, and a case starting while it shuts down gets
# "server exited unexpectedly".
t new-session -d -s keepalive "while kill -0 $$ 2>/dev/null; do sleep 1; done"

pass() {
    PASSED=$((PASSED + 1))
    echo "ok   $1"
}

fail() {
    FAILED=$((FAILED + 1))
    echo "FAIL $1"
    if [ -n "$2" ]; then
        echo "---- pane ----"
        t capture-pane -p -t "$2" 2>/dev/null | sed 's/^/| /'
        echo "--------------"
    fi
}

# start NAME COLS ROWS ENV ARGS: opens a session running rooftop in a wrapper
# that records the terminal modes before, the exit status, and whether the
# modes after are the same ("STTY=same"), then keeps the pane open. The
# wrapper survives Ctrl-C (as an interactive shell would) to report.
# Runs rooftop in a private tmux session. The guide's story is told with its
# napkin (--napkin); start_default runs the program exactly as a user would.
# The realistic estimate's total for these flags, as the text report's latency
# table writes it (its last column): read, not pinned, since it moves with the
# compiled-in kernel fits.
realistic_total() {
    "$ROOFTOP" "$@" --report | awk '$1 == "total" && NF >= 7 { print $6 " " $7; exit }'
}

start() {
    name=$1 cols=$2 rows=$3 envs=$4 args="--napkin $5"
    start_raw "$name" "$cols" "$rows" "$envs" "$args"
}

# start_raw NAME COLS ROWS ENV ARGS [PRE]: as start, without --napkin; PRE is
# a shell command the wrapper runs just before rooftop (e.g. a ulimit).
start_raw() {
    name=$1 cols=$2 rows=$3 envs=$4 args=$5 pre=${6:-:}
    cat >"$WORK/$name.sh" <<EOF
trap : INT
before=\$(stty -g)
printf '%s\n' "\$\$" >"$WORK/$name.shell"
$pre
"$ROOFTOP" $args
status=\$?
after=\$(stty -g)
if [ "\$before" = "\$after" ]; then s=same; else s=changed; fi
printf 'EXIT=%s STTY=%s\n' "\$status" "\$s"
exec sleep 600
EOF
    t new-session -d -s "$name" -x "$cols" -y "$rows" \
        "env -i HOME=$WORK PATH=/usr/bin:/bin $SAN_ENV $envs sh $WORK/$name.sh"
}

# wait_for TARGET PATTERN [TIMEOUT]: polls the pane's text for a grep pattern.
wait_for() {
    target=$1 pattern=$2 limit=${3:-$TIMEOUT}
    end=$(($(date +%s) + limit))
    while :; do
        if t capture-pane -p -t "$target" 2>/dev/null | grep -q -e "$pattern"; then
            return 0
        fi
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.1
    done
}

# wait_gone TARGET PATTERN: polls until the pattern has left the pane.
wait_gone() {
    target=$1 pattern=$2
    end=$(($(date +%s) + TIMEOUT))
    while t capture-pane -p -t "$target" 2>/dev/null | grep -q -e "$pattern"; do
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.1
    done
    return 0
}

# pane_flag TARGET FORMAT: a tmux format of the pane, e.g. #{alternate_on}.
pane_flag() {
    t display-message -p -t "$1" "$2"
}

# The pid of rooftop in session NAME (the wrapper shell's child).
rooftop_pid() {
    shell=$(cat "$WORK/$1.shell" 2>/dev/null)
    [ -n "$shell" ] && ps -o pid= --ppid "$shell" 2>/dev/null | tr -d ' ' | head -n 1
}

# wait_stopped PID: polls until process PID is stopped (state T).
wait_stopped() {
    end=$(($(date +%s) + TIMEOUT))
    until ps -o stat= -p "$1" 2>/dev/null | grep -q T; do
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.05
    done
}

# wait_exit PID: polls until process PID is gone.
wait_exit() {
    end=$(($(date +%s) + TIMEOUT))
    while kill -0 "$1" 2>/dev/null; do
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.05
    done
}

# wait_file PATH: polls until the file PATH has something in it.
wait_file() {
    end=$(($(date +%s) + TIMEOUT))
    until [ -s "$1" ]; do
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.05
    done
}

# sane NAME: the terminal is back: main screen, cursor on, no mouse reporting,
# termios as before (the wrapper's STTY=same).
sane() {
    sane_flags "$1" && wait_for "$1" 'STTY=same' 2
}

# sane_flags NAME: main screen, cursor on, no mouse reporting.
sane_flags() {
    [ "$(pane_flag "$1" '#{alternate_on}')" = 0 ] &&
        [ "$(pane_flag "$1" '#{cursor_flag}')" = 1 ] &&
        [ "$(pane_flag "$1" '#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}')" = 000 ]
}

# exit_signal NAME: the signal named by the wrapper's EXIT=status (128 + n),
# or the bare status when it is not a signal's.
exit_signal() {
    code=$(t capture-pane -p -t "$1" 2>/dev/null | sed -n 's/.*EXIT=\([0-9]*\).*/\1/p' | tail -n 1)
    if [ -n "$code" ] && [ "$code" -gt 128 ]; then kill -l "$code"; else echo "$code"; fi
}

UTF8_ENV="TERM=xterm-256color LANG=$UTF8_LOCALE LC_ALL=$UTF8_LOCALE"

# ---- opens at the sizes the issue names, q exits 0 ----
for size in 80x24 120x40 200x60; do
    cols=${size%x*} rows=${size#*x}
    s=open$size
    start "$s" "$cols" "$rows" "$UTF8_ENV" ""
    if wait_for "$s" 'Knobs' && wait_for "$s" 'Roofline' && wait_for "$s" 'MISS 27.952 s' &&
        wait_for "$s" 'chips for budget 64' && wait_for "$s" 'prefill'; then
        t send-keys -t "$s" q
        if wait_for "$s" 'EXIT=0' && sane "$s"; then
            pass "opens at $size with the roofline, knobs and verdict; q exits 0 to a sane terminal"
        else
            fail "q at $size did not exit 0 to a sane terminal" "$s"
        fi
    else
        fail "explorer did not open at $size" "$s"
    fi
    t kill-session -t "$s" 2>/dev/null
done

# ---- terminal types ----
for term in xterm xterm-256color screen tmux-256color linux vt100; do
    if ! infocmp "$term" >/dev/null 2>&1; then
        echo "skip TERM=$term (no terminfo entry here)"
        continue
    fi
    s=term-$(echo "$term" | tr -c 'a-z0-9\n' '-')
    start "$s" 80 24 "TERM=$term LANG=$UTF8_LOCALE" ""
    if wait_for "$s" 'Knobs' && wait_for "$s" 'MISS' && { t send-keys -t "$s" q; wait_for "$s" 'EXIT=0'; } && sane "$s"; then
        pass "TERM=$term opens and quits cleanly"
    else
        fail "TERM=$term" "$s"
    fi
    t kill-session -t "$s" 2>/dev/null
done

# ---- too small: the larger-terminal screen, still answering keys and resizes ----
s=small
start "$s" 40 10 "$UTF8_ENV" ""
if wait_for "$s" 'Make it larger' && wait_for "$s" '40x10'; then
    t send-keys -t "$s" j
    t resize-window -t "$s" -x 80 -y 24
    if wait_for "$s" 'Knobs'; then
        t resize-window -t "$s" -x 30 -y 8
        if wait_for "$s" '30x8'; then
            t send-keys -t "$s" q
            if wait_for "$s" 'EXIT=0' && sane "$s"; then
                pass "40x10 shows the larger-terminal screen; growing shows the explorer; q quits from the small screen"
            else
                fail "q from the small screen" "$s"
            fi
        else
            fail "shrinking again did not show the small screen" "$s"
        fi
    else
        fail "growing to 80x24 did not show the explorer" "$s"
    fi
else
    fail "40x10 did not show the larger-terminal screen" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- Esc in the main view keeps the explorer open and says which key quits ----
s=esc
start "$s" 80 24 "$UTF8_ENV" "--chips 16"
if wait_for "$s" 'Knobs'; then
    t send-keys -t "$s" Escape
    if wait_for "$s" 'q quits' && ! t capture-pane -p -t "$s" | grep -q 'EXIT='; then
        t send-keys -t "$s" q
        if wait_for "$s" 'EXIT=0' && sane "$s"; then
            pass "Esc in the main view does not quit (it says q quits); q does"
        else
            fail "q after Esc did not quit" "$s"
        fi
    else
        fail "Esc in the main view quit or said nothing" "$s"
    fi
else
    fail "explorer did not open for the Esc test" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- the guide's story: chips 16 -> 64 turns MISS (1.981 s) into OK (0.683 s) ----
s=chips
start "$s" 80 24 "$UTF8_ENV" "--chips 16"
if wait_for "$s" 'total 1.981 s' && wait_for "$s" 'MISS'; then
    t send-keys -t "$s" Down Down Down
    wait_for "$s" '▸chips' >/dev/null
    t send-keys -t "$s" Right
    if wait_for "$s" '32 × tpu-v5e'; then
        t send-keys -t "$s" Right
        if wait_for "$s" 'total 0.683 s' && wait_for "$s" ' OK 0.683 s napkin' &&
            wait_for "$s" "MISS $(realistic_total --chips 64) realistic?"; then
            pass "chips 16 -> 64: 1.981 s MISS becomes 0.683 s OK, and the title says the realistic estimate disagrees"
        else
            fail "64 chips did not show 0.683 s OK" "$s"
        fi
    else
        fail "stepping chips did not reach 32" "$s"
    fi
else
    fail "--chips 16 did not show 1.981 s MISS" "$s"
fi
# Typing an invalid value keeps the old one and says why; u undoes.
t send-keys -t "$s" = x y z Enter
if wait_for "$s" 'not a number' && wait_for "$s" '64 × tpu-v5e'; then
    t send-keys -t "$s" u
    if wait_for "$s" '32 × tpu-v5e'; then
        pass "an invalid typed value is refused with a message; u undoes"
    else
        fail "undo" "$s"
    fi
else
    fail "invalid typed value" "$s"
fi
t send-keys -t "$s" q
wait_for "$s" 'EXIT=0' >/dev/null || fail "q after the chips story" "$s"
t kill-session -t "$s" 2>/dev/null

# ---- issue 17: --op opens the operation view; m from 8192 to 1 turns compute-bound into memory-bound ----
s=opview
start_raw "$s" 80 24 "$UTF8_ENV" "--op gemm:m=8192,n=8192,k=8192 --chip h100"
if wait_for "$s" 'Operation  gemm 8192 x 8192 x 8192' && wait_for "$s" 'compute-bound' && wait_for "$s" '▸m '; then
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do t send-keys -t "$s" Left; done
    if wait_for "$s" 'gemm 1 x 8192 x 8192' && wait_for "$s" 'memory-bound at 1.0 FLOP/byte' &&
        ! t capture-pane -p -t "$s" | grep -q 'compute-bound'; then
        t send-keys -t "$s" v
        if wait_for "$s" 'Placement' && { t send-keys -t "$s" v; wait_for "$s" 'memory-bound'; }; then
            t send-keys -t "$s" u
            if wait_for "$s" 'gemm 2 x 8192 x 8192' && { t send-keys -t "$s" q; wait_for "$s" 'EXIT=0'; } && sane "$s"; then
                pass "--op gemm 8192^3 on h100: 13 steps of m to 1 turn compute-bound into memory-bound; v and back; u undoes"
            else
                fail "u in the operation view, or q after it" "$s"
            fi
        else
            fail "v did not switch to the model's view and back" "$s"
        fi
    else
        fail "stepping m to 1 did not show memory-bound" "$s"
    fi
else
    fail "--op gemm did not open the operation view" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- a design review: b pins the baseline, a step shows the change, b clears ----
s=baseline
start "$s" 80 24 "$UTF8_ENV" "--chips 16"
if wait_for "$s" 'total 1.981 s'; then
    t send-keys -t "$s" b
    if wait_for "$s" 'baseline pinned'; then
        t send-keys -t "$s" Down Down Down
        wait_for "$s" '▸chips' >/dev/null
        t send-keys -t "$s" Right
        if wait_for "$s" '32 × tpu-v5e' && wait_for "$s" 'baseline 1.981 s  Δ -'; then
            t send-keys -t "$s" b
            if wait_for "$s" 'baseline cleared' && wait_gone "$s" 'baseline 1.981 s'; then
                pass "b pins 16 chips; at 32 the latency panel shows the baseline 1.981 s and a Δ; b clears it"
            else
                fail "b did not clear the baseline" "$s"
            fi
        else
            fail "a step after b showed no baseline and Δ in the latency panel" "$s"
        fi
    else
        fail "b did not say the baseline is pinned" "$s"
    fi
else
    fail "--chips 16 did not show 1.981 s" "$s"
fi
t send-keys -t "$s" q
wait_for "$s" 'EXIT=0' >/dev/null && sane "$s" || fail "q after the baseline case" "$s"
t kill-session -t "$s" 2>/dev/null

# ---- y copies the markdown report through OSC 52: with tmux's set-clipboard
# on, tmux decodes it into its paste buffer, which must be exactly the
# report --report=markdown --plot prints ----
s=clipboard
t set -g set-clipboard on
t delete-buffer >/dev/null 2>&1
start_raw "$s" 80 24 "$UTF8_ENV" ""
if wait_for "$s" '? help'; then
    t send-keys -t "$s" y
    if wait_for "$s" 'as OSC 52'; then
        t show-buffer >"$WORK/clip.md" 2>/dev/null
        "$ROOFTOP" --report=markdown --plot >"$WORK/report.md"
        if [ -s "$WORK/clip.md" ] && cmp -s "$WORK/clip.md" "$WORK/report.md"; then
            pass "y puts the markdown report with its plot on tmux's clipboard ($(wc -c <"$WORK/clip.md") bytes, as --report=markdown --plot)"
        else
            fail "tmux's buffer after y is not the markdown report" "$s"
        fi
    else
        fail "y did not say it copied the report" "$s"
    fi
fi
t set -g set-clipboard external
t send-keys -t "$s" q
wait_for "$s" 'EXIT=0' >/dev/null && sane "$s" || fail "q after y" "$s"
t kill-session -t "$s" 2>/dev/null

# ---- --baseline FILE opens with a saved scenario pinned ----
s=baseline-file
start "$s" 80 24 "$UTF8_ENV" "--baseline tests/fixtures/scenarios/review-b.json"
b_total=$(realistic_total --scenario tests/fixtures/scenarios/review-b.json)
if wait_for "$s" 'baseline pinned from --baseline' && wait_for "$s" "baseline $b_total  Δ -"; then
    pass "--baseline FILE opens pinned: the latency panel shows the file's $b_total and the change"
else
    fail "--baseline FILE did not open with the file pinned" "$s"
fi
t send-keys -t "$s" q
wait_for "$s" 'EXIT=0' >/dev/null && sane "$s" || fail "q after --baseline FILE" "$s"
t kill-session -t "$s" 2>/dev/null

# ---- the Pareto view at 80x24: p searches, the arrows walk the frontier, Enter loads a design ----
s=pareto
start "$s" 80 24 "$UTF8_ENV" "--model llama-3.1-70b --chip h100 --chips 8 --decode-tokens 256 --ttft-target 1 --tpot-target 0.05"
if wait_for "$s" '8 × h100'; then
    t send-keys -t "$s" p
    if wait_for "$s" 'Pareto' && wait_for "$s" 'per chip vs user' && wait_for "$s" 'Enter loads tp'; then
        t send-keys -t "$s" Left Enter
        if wait_for "$s" 'loaded: tp' && wait_for "$s" 'now'; then
            t send-keys -t "$s" p
            if wait_for "$s" 'Pareto view closed' && wait_for "$s" 'Roofline'; then
                pass "Pareto view: p opens it at 80x24, Enter loads a frontier design, p closes it"
            else
                fail "p did not close the Pareto view" "$s"
            fi
        else
            fail "Enter did not load a frontier design" "$s"
        fi
    else
        fail "p did not open the Pareto view" "$s"
    fi
    t send-keys -t "$s" q
    if wait_for "$s" 'EXIT=0' && sane "$s"; then :; else fail "q after the Pareto view" "$s"; fi
else
    fail "explorer did not open for the Pareto view" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- mouse: click a knob's track, drag another (SGR reports, as xterm sends) ----
s=mouse
start "$s" 80 24 "$UTF8_ENV" "--chips 16"
if wait_for "$s" 'Knobs'; then
    esc=$(printf '\033')
    # The chips row is screen row 5 (1-based 6); its track ends at column 78 (1-based 79).
    t send-keys -t "$s" -l "${esc}[<0;79;6M"
    t send-keys -t "$s" -l "${esc}[<0;79;6m"
    if wait_for "$s" '65536 × tpu-v5e' && wait_for "$s" '▸chips'; then
        # Press on the precision row's name (screen row 9, below pp and ep), drag to the track's right end: int4.
        t send-keys -t "$s" -l "${esc}[<0;50;9M"
        t send-keys -t "$s" -l "${esc}[<32;70;9M"
        t send-keys -t "$s" -l "${esc}[<32;79;9M"
        t send-keys -t "$s" -l "${esc}[<0;79;9m"
        if wait_for "$s" 'precision         int4'; then
            pass "mouse: a click on a track sets the knob, a drag moves it"
        else
            fail "mouse drag did not move the precision knob" "$s"
        fi
    else
        fail "mouse click on the chips track did not set 65536 chips" "$s"
    fi
    t send-keys -t "$s" q
    if wait_for "$s" 'EXIT=0' && sane "$s"; then :; else fail "quit after mouse use left mouse reporting on" "$s"; fi
else
    fail "explorer did not open for the mouse test" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- s saves the scenario where the user says; t cycles themes ----
s=save
start "$s" 80 24 "$UTF8_ENV" "--chips 16"
if wait_for "$s" 'Knobs'; then
    t send-keys -t "$s" j j j l l s
    if wait_for "$s" 'save to: scenario.json'; then
        pass "s asks where to save, offering scenario.json"
    else
        fail "s did not ask where to save" "$s"
    fi
    t send-keys -t "$s" C-u "$WORK/saved.json" Enter
    if wait_for "$s" "saved the scenario to" && grep -q '"chips":[[:space:]]*64' "$WORK/saved.json"; then
        pass "s saves the current scenario (64 chips) to the typed path"
    else
        fail "s did not save the scenario" "$s"
    fi
    t send-keys -t "$s" s
    if wait_for "$s" "save to: $WORK/saved.json"; then
        pass "s offers the last path used"
    else
        fail "s did not offer the last path" "$s"
    fi
    t send-keys -t "$s" C-u /nonexistent-dir/x.json Enter
    if wait_for "$s" 'not written'; then
        pass "a save that cannot happen says why and keeps running"
    else
        fail "a failed save gave no message" "$s"
    fi
    t send-keys -t "$s" t
    if wait_for "$s" 'theme \|only the built-in theme'; then
        pass "t switches the colour theme and says which"
    else
        fail "t did not switch themes" "$s"
    fi
    t send-keys -t "$s" q
    wait_for "$s" 'EXIT=0' >/dev/null || fail "q after s and t" "$s"
else
    fail "explorer did not open for the save test" "$s"
fi
t kill-session -t "$s" 2>/dev/null
if [ -f "$WORK/saved.json" ] && "$ROOFTOP" --scenario "$WORK/saved.json" --report=json | grep -q '"chips":[[:space:]]*64'; then
    pass "the saved scenario loads back with --scenario"
else
    fail "the saved scenario does not load back"
fi

# ---- steady axes: batch 1 -> 1024 keeps the x labels, the points beyond are pinned; a re-fits ----
# x_labels NAME: the plot's x tick labels (row 14 of 80x24, left of the knobs).
x_labels() {
    t capture-pane -p -t "$1" 2>/dev/null | sed -n 14p | cut -c1-44
}
s=axes
start "$s" 80 24 "$UTF8_ENV" ""
if wait_for "$s" 'Knobs' && wait_for "$s" '10k'; then
    before=$(x_labels "$s")
    t send-keys -t "$s" = 1024 Enter
    if wait_for "$s" 'batch set to 1024' && wait_for "$s" 'prefill/training 8.4M' && wait_for "$s" '→'; then
        after=$(x_labels "$s")
        if [ "$before" = "$after" ]; then
            t send-keys -t "$s" a
            if wait_for "$s" 'axes fitted' && wait_gone "$s" '8.4M' && [ "$(x_labels "$s")" != "$before" ]; then
                pass "batch 1 -> 1024 keeps the x axis ($after), pins prefill/training at 8.4M with an arrow; a re-fits"
            else
                fail "a did not re-fit the axes (x labels: $(x_labels "$s"))" "$s"
            fi
        else
            fail "the x labels moved with the batch: '$before' -> '$after'" "$s"
        fi
    else
        fail "batch 1024 did not pin prefill to the right edge with its value" "$s"
    fi
else
    fail "explorer did not open for the steady-axes case" "$s"
fi
t send-keys -t "$s" q
t kill-session -t "$s" 2>/dev/null

# ---- o: each operation of a phase on the plot; w: show your work ----
s=keys
start "$s" 80 24 "$UTF8_ENV" ""
if wait_for "$s" 'Knobs'; then
    t send-keys -t "$s" o
    if wait_for "$s" 'Operations prefill' && wait_for "$s" 'prefill ops a-k' && wait_for "$s" 'f mlp' &&
        wait_for "$s" 'under the vector roof'; then
        t send-keys -t "$s" o
        if wait_for "$s" 'Operations decode' && wait_for "$s" 'decode ops a-k'; then
            t send-keys -t "$s" o o
            if wait_for "$s" 'Placement' && wait_gone "$s" 'Operations'; then
                pass "o shows prefill's operations with a legend, then decode's, and off again after training"
            else
                fail "o did not cycle back to the phases" "$s"
            fi
        else
            fail "a second o did not show decode's operations" "$s"
        fi
    else
        fail "o did not show prefill's operations with a legend" "$s"
    fi
    t send-keys -t "$s" w
    if wait_for "$s" 'show your work' && wait_for "$s" '= 197 TFLOP/s / 819 GB/s = 241 FLOP/byte' &&
        wait_for "$s" '100%) = 5.822 s' && wait_for "$s" '= 21.880 s' && wait_for "$s" '1-20 of'; then
        t send-keys -t "$s" G
        if wait_for "$s" 'Chowdhery et al. 2022' && wait_gone "$s" 'ridge = peak / bandwidth'; then
            t send-keys -t "$s" q
            if wait_gone "$s" 'show your work' && wait_for "$s" 'Knobs' && ! wait_for "$s" 'EXIT=' 1; then
                pass "w shows the work (ridge 241, prefill 5.822 s, decode 21.880 s), G scrolls to the end, q closes it"
            else
                fail "q did not close the work overlay (or quit the explorer)" "$s"
            fi
        else
            fail "G did not scroll the work overlay to its last line" "$s"
        fi
    else
        fail "w did not show the work with the guide's numbers" "$s"
    fi
    t send-keys -t "$s" q
    if wait_for "$s" 'EXIT=0' && sane "$s"; then :; else fail "q after o and w" "$s"; fi
else
    fail "explorer did not open for the o and w keys" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- the user's chip files reach the explorer's chip knob ----
mkdir -p "$WORK/xdg/rooftop/chips"
printf '{"name": "Lab Chip", "peak_flops_per_s": {"bf16": 400e12}, "hbm_bytes": 64e9, "hbm_bytes_per_s": 2e12, "source": "e2e"}\n' \
    >"$WORK/xdg/rooftop/chips/lab.json"
s=userchip
start "$s" 80 24 "$UTF8_ENV XDG_CONFIG_HOME=$WORK/xdg" "--chip lab-chip"
if wait_for "$s" 'lab-chip'; then
    t send-keys -t "$s" j j j j j j j j Left
    if wait_for "$s" 'gaudi3'; then
        t send-keys -t "$s" Right
        if wait_for "$s" 'lab-chip'; then
            pass "a chip from the user's chip folder is a notch of the chip knob"
        else
            fail "stepping back to the user's chip" "$s"
        fi
    else
        fail "stepping the chip knob down from the user's chip" "$s"
    fi
    t send-keys -t "$s" q
    wait_for "$s" 'EXIT=0' >/dev/null || fail "q after the user chip test" "$s"
else
    fail "explorer did not open on the user's chip" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- a chip file's path typed into the chip knob, as --chip PATH takes it ----
s=chippath
start "$s" 80 24 "$UTF8_ENV" ""
if wait_for "$s" 'Knobs'; then
    t send-keys -t "$s" j j j j j j j j =
    t send-keys -t "$s" -l "$(pwd)/tests/fixtures/chips/lab-chip.json"
    t send-keys -t "$s" Enter
    if wait_for "$s" 'chip set to lab-chip from' && wait_for "$s" 'chip  *lab-chip'; then
        t send-keys -t "$s" = h 1 0 Enter
        if wait_for "$s" 'did you mean h100'; then
            pass "a chip file's path typed into the chip knob loads it; a near name is suggested"
        else
            fail "no suggestion for a mistyped chip name" "$s"
        fi
    else
        fail "typing a chip file's path into the chip knob" "$s"
    fi
    t send-keys -t "$s" q
    wait_for "$s" 'EXIT=0' >/dev/null || fail "q after the chip path test" "$s"
else
    fail "explorer did not open for the chip path test" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- a storm of resizes ----
s=storm
start "$s" 80 24 "$UTF8_ENV" ""
if wait_for "$s" 'Knobs'; then
    for size in 120x40 20x5 200x60 1x1 79x24 80x23 300x100 81x25 10x50 150x30 2x2 100x30 40x10 80x24 \
        95x33 60x20 220x70 80x24 33x12 120x40; do
        t resize-window -t "$s" -x "${size%x*}" -y "${size#*x}"
    done
    t resize-window -t "$s" -x 80 -y 24
    if wait_for "$s" 'Knobs' && [ -n "$(rooftop_pid "$s")" ]; then
        t send-keys -t "$s" Right
        if wait_for "$s" 'batch 2'; then
            t send-keys -t "$s" q
            if wait_for "$s" 'EXIT=0' && sane "$s"; then
                pass "a storm of 20 resizes, down to 1x1 and up to 300x100: still drawing, answering keys, quitting cleanly"
            else
                fail "quit after the resize storm" "$s"
            fi
        else
            fail "no answer to keys after the resize storm" "$s"
        fi
    else
        fail "explorer gone or not redrawn after the resize storm" "$s"
    fi
else
    fail "explorer did not open for the resize storm" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- C locale on a vt100: no Unicode at all ----
s=ascii
start "$s" 80 24 "TERM=vt100 LC_ALL=C LANG=C" "--chips 16"
if wait_for "$s" 'Knobs' && wait_for "$s" 'MISS'; then
    t send-keys -t "$s" '?'
    wait_for "$s" 'rooftop keys' >/dev/null
    t capture-pane -p -t "$s" >"$WORK/ascii-help.txt"
    t send-keys -t "$s" Escape
    wait_gone "$s" 'rooftop keys' >/dev/null
    t send-keys -t "$s" w
    wait_for "$s" 'show your work' >/dev/null
    t capture-pane -p -t "$s" >"$WORK/ascii-work.txt"
    # Esc and o apart: sent together the terminal reads them as Alt-o.
    t send-keys -t "$s" Escape
    wait_gone "$s" 'show your work' >/dev/null
    t send-keys -t "$s" o
    wait_for "$s" 'Operations prefill' >/dev/null
    t capture-pane -p -t "$s" >"$WORK/ascii-ops.txt"
    t send-keys -t "$s" O
    wait_for "$s" 'Placement' >/dev/null
    t capture-pane -p -t "$s" >"$WORK/ascii.txt"
    bytes=$(cat "$WORK/ascii.txt" "$WORK/ascii-help.txt" "$WORK/ascii-work.txt" "$WORK/ascii-ops.txt" |
        LC_ALL=C tr -d '\000-\177' | wc -c)
    # Each capture must be the screen it is named for: a key that stopped
    # opening its overlay would otherwise leave four copies of the main view.
    if [ "$bytes" -eq 0 ] && grep -q 'ridge 241' "$WORK/ascii.txt" &&
        grep -q 'rooftop keys' "$WORK/ascii-help.txt" && grep -q 'show your work' "$WORK/ascii-work.txt" &&
        grep -q 'Operations prefill' "$WORK/ascii-ops.txt"; then
        pass "LC_ALL=C TERM=vt100: the plot, panels, help, work overlay and operations are pure ASCII"
    else
        fail "LC_ALL=C TERM=vt100 showed $bytes non-ASCII bytes" "$s"
    fi
else
    fail "LC_ALL=C TERM=vt100 did not open" "$s"
fi
t send-keys -t "$s" q
wait_for "$s" 'EXIT=0' >/dev/null || fail "q on vt100" "$s"
t kill-session -t "$s" 2>/dev/null

# ---- NO_COLOR: attributes only, no colour ----
s=color
start "$s" 80 24 "$UTF8_ENV" ""
s2=nocolor
start "$s2" 80 24 "$UTF8_ENV NO_COLOR=1" ""
if wait_for "$s" 'Knobs' && wait_for "$s2" 'Knobs'; then
    t capture-pane -e -p -t "$s" >"$WORK/color.txt"
    t capture-pane -e -p -t "$s2" >"$WORK/nocolor.txt"
    # Colour SGR parameters: 30-37, 40-47, 90-97, 100-107, 38;5;n, 48;5;n.
    colour_re='\[[0-9;]*\(3[0-7]\|4[0-7]\|9[0-7]\|10[0-7]\|38;5;[0-9]*\|48;5;[0-9]*\)[;m]'
    with=$(grep -c "$colour_re" "$WORK/color.txt")
    without=$(grep -c "$colour_re" "$WORK/nocolor.txt")
    if [ "$with" -gt 0 ] && [ "$without" -eq 0 ] && grep -q "$(printf '\033')\\[[0-9;]*[17]m" "$WORK/nocolor.txt"; then
        pass "NO_COLOR: no colour at all, bold/reverse attributes still mark meaning"
    else
        fail "NO_COLOR: $without lines with colour (the coloured run had $with)" "$s2"
    fi
else
    fail "NO_COLOR run did not open" "$s2"
fi
for x in "$s" "$s2"; do
    t send-keys -t "$x" q
    t kill-session -t "$x" 2>/dev/null
done

# ---- signals: the terminal is always given back ----
# Every catchable signal that ends the program: the polite ones (TERM, HUP,
# INT, QUIT, USR1, USR2, ALRM, PIPE ...) and those that kill at once (SEGV,
# XCPU, SYS ...). The exit status still names the signal. No core files.
for sig in TERM HUP INT QUIT SEGV USR1 USR2 PIPE ALRM XCPU SYS; do
    s=sig$sig
    start_raw "$s" 80 24 "$UTF8_ENV" "--napkin" "ulimit -c 0"
    if ! wait_for "$s" 'Knobs'; then
        fail "SIG$sig: explorer did not open" "$s"
        continue
    fi
    pid=$(rooftop_pid "$s")
    if [ -z "$pid" ]; then
        fail "SIG$sig: cannot find rooftop's pid" "$s"
        continue
    fi
    if [ "$sig" = INT ]; then
        t send-keys -t "$s" C-c
    else
        kill -s "$sig" "$pid"
    fi
    if wait_for "$s" "EXIT=" && [ "$(exit_signal "$s")" = "$sig" ] && sane "$s" && ! kill -0 "$pid" 2>/dev/null; then
        what=$sig
        [ "$sig" = INT ] && what="INT (Ctrl-C)"
        [ "$sig" = SEGV ] && what="SEGV (the crash path)"
        pass "SIG$what: dies of SIG$sig, main screen, cursor on, mouse off, termios restored"
    else
        fail "SIG$sig did not leave a sane terminal (or the exit status does not name it: $(exit_signal "$s"))" "$s"
    fi
    t kill-session -t "$s" 2>/dev/null
done

# ---- a save cut short by a signal leaves no temporary file ----
# With a file-size limit of 0 the first write() of the save raises SIGXFSZ,
# which ends the program in the middle of write_file_atomic.
s=savesig
mkdir -p "$WORK/savesig"
start_raw "$s" 80 24 "$UTF8_ENV" "--napkin" "ulimit -c 0; ulimit -f 0"
if wait_for "$s" 'Knobs'; then
    t send-keys -t "$s" s
    wait_for "$s" 'save to:' >/dev/null
    t send-keys -t "$s" C-u "$WORK/savesig/s.json" Enter
    if wait_for "$s" 'EXIT=' && [ "$(exit_signal "$s")" = XFSZ ] && sane "$s" &&
        [ -z "$(ls -A "$WORK/savesig")" ]; then
        pass "a save killed by SIGXFSZ: the terminal is back and no .s.json.XXXXXX is left"
    else
        fail "a save killed by a signal left $(ls -A "$WORK/savesig" | tr '\n' ' ')(exit $(exit_signal "$s"))" "$s"
    fi
else
    fail "explorer did not open for the interrupted save" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- stopped behind its back (SIGSTOP cannot be caught), then continued ----
# A job-control shell puts its own modes back while a job is stopped; here
# `stty icanon echo` on the pane's terminal plays that part. On SIGCONT the
# explorer must take its modes back: j moves the selection without Enter.
s=stopcont
start "$s" 80 24 "$UTF8_ENV" ""
if wait_for "$s" '▸batch'; then
    pid=$(rooftop_pid "$s")
    tty=$(pane_flag "$s" '#{pane_tty}')
    kill -s STOP "$pid"
    wait_stopped "$pid"
    stty -F "$tty" icanon echo
    kill -s CONT "$pid"
    t send-keys -t "$s" j
    if wait_for "$s" '▸model' && [ "$(pane_flag "$s" '#{alternate_on}')" = 1 ]; then
        t send-keys -t "$s" q
        if wait_for "$s" 'EXIT=0' && sane "$s"; then
            pass "kill -STOP, cooked modes, kill -CONT: keys work without Enter; q exits 0 to the same termios"
        else
            fail "q after STOP/CONT did not exit 0 to a sane terminal" "$s"
        fi
    else
        fail "after STOP/CONT, j did not move the selection (cooked mode?)" "$s"
    fi
else
    fail "explorer did not open for STOP/CONT" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- Ctrl-Z and fg in an interactive shell ----
if command -v bash >/dev/null 2>&1; then
    s=suspend
    t new-session -d -s "$s" -x 80 -y 24 "env -i HOME=$WORK PATH=/usr/bin:/bin $SAN_ENV $UTF8_ENV PS1='ready> ' bash --norc --noprofile -i"
    if wait_for "$s" 'ready>'; then
        t send-keys -t "$s" "stty -g > $WORK/stty.before; '$ROOFTOP'" Enter
        if wait_for "$s" 'Knobs'; then
            t send-keys -t "$s" C-z
            if wait_for "$s" 'Stopped' && [ "$(pane_flag "$s" '#{alternate_on}')" = 0 ] &&
                [ "$(pane_flag "$s" '#{cursor_flag}#{mouse_any_flag}#{mouse_button_flag}#{mouse_standard_flag}')" = 1000 ]; then
                t send-keys -t "$s" "stty -g > $WORK/stty.stopped; fg" Enter
                if wait_for "$s" 'Knobs' && [ "$(pane_flag "$s" '#{alternate_on}')" = 1 ] &&
                    [ "$(pane_flag "$s" '#{mouse_button_flag}')" = 1 ]; then
                    t send-keys -t "$s" l
                    if wait_for "$s" 'batch 2'; then
                        t send-keys -t "$s" q
                        if wait_for "$s" 'ready>.*$' && cmp -s "$WORK/stty.before" "$WORK/stty.stopped"; then
                            pass "Ctrl-Z gives the shell a sane terminal (main screen, cursor, no mouse, modes); fg redraws and keys work again"
                        else
                            fail "after Ctrl-Z the terminal modes differed, or q did not return to the shell" "$s"
                        fi
                    else
                        fail "no keys after fg" "$s"
                    fi
                else
                    fail "fg did not redraw the explorer" "$s"
                fi
            else
                fail "Ctrl-Z did not stop the explorer and give back the main screen, cursor and mouse" "$s"
            fi
        else
            fail "explorer did not open from bash" "$s"
        fi
    else
        fail "interactive bash did not start" "$s"
    fi
    t kill-session -t "$s" 2>/dev/null
fi

# ---- kill -STOP from elsewhere, then fg in the interactive shell ----
# bash puts its own (cooked) modes back when it sees the job stop, and fg
# only continues it: the explorer must take raw mode, keypad, mouse and the
# alternate screen back on SIGCONT.
if command -v bash >/dev/null 2>&1; then
    s=stopfg
    t new-session -d -s "$s" -x 80 -y 24 "env -i HOME=$WORK PATH=/usr/bin:/bin $SAN_ENV $UTF8_ENV PS1='ready> ' bash --norc --noprofile -i"
    if wait_for "$s" 'ready>'; then
        t send-keys -t "$s" "stty -g > $WORK/stopfg.before; echo \$\$ > $WORK/stopfg.shell; '$ROOFTOP' --napkin" Enter
        if wait_for "$s" '▸batch' && pid=$(rooftop_pid stopfg) && [ -n "$pid" ]; then
            kill -s STOP "$pid"
            if wait_for "$s" 'Stopped'; then
                t send-keys -t "$s" fg Enter
                t send-keys -t "$s" j
                if wait_for "$s" '▸model' && [ "$(pane_flag "$s" '#{alternate_on}')" = 1 ]; then
                    t send-keys -t "$s" q
                    if wait_exit "$pid" && wait_for "$s" 'ready>'; then
                        t send-keys -t "$s" "stty -g > $WORK/stopfg.after" Enter
                        wait_file "$WORK/stopfg.after"
                        if cmp -s "$WORK/stopfg.before" "$WORK/stopfg.after" && sane_flags "$s"; then
                            pass "kill -STOP, then fg: keys work without Enter, q exits, stty as before"
                        else
                            fail "after STOP, fg and q the terminal modes differ from before" "$s"
                        fi
                    else
                        fail "q after STOP and fg did not return to the shell" "$s"
                    fi
                else
                    fail "after kill -STOP and fg, j did not move the selection (cooked mode?)" "$s"
                fi
            else
                fail "kill -STOP: the shell did not report the job stopped" "$s"
            fi
        else
            fail "explorer did not open from bash for STOP/fg" "$s"
        fi
    else
        fail "interactive bash did not start" "$s"
    fi
    t kill-session -t "$s" 2>/dev/null
fi

# ---- the guided tour at 80x24: --tour opens it, a guess is scored, the next step sets its scenario ----
s=tour
start_raw "$s" 80 24 "$UTF8_ENV" "--tour"
if wait_for "$s" 'Tour 1/14 · The ridge point' && wait_for "$s" '▸chip *h100'; then
    t send-keys -t "$s" 3 0 Enter
    if wait_for "$s" 'you said 30; it is 295.5: 9.9× low'; then
        t send-keys -t "$s" n
        if wait_for "$s" 'Tour 2/14 · Where prefill sits' && wait_for "$s" 'chip *tpu-v5e' &&
            wait_for "$s" '▸prefill'; then
            t send-keys -t "$s" c o m p u t e Enter
            if wait_for "$s" 'you said compute; it is compute-bound:' && wait_for "$s" ' right$'; then
                t send-keys -t "$s" Escape
                if wait_for "$s" 'left the tour at step 2 of 14'; then
                    pass "tour: --tour opens at 80x24, a guess is scored, n sets the next step's chip, Esc leaves"
                else
                    fail "Esc did not leave the tour" "$s"
                fi
            else
                fail "the bound guess was not scored" "$s"
            fi
        else
            fail "n did not set the next step's scenario (chip tpu-v5e, prefill selected)" "$s"
        fi
    else
        fail "the guess 30 was not scored against the ridge" "$s"
    fi
    t send-keys -t "$s" q
    if wait_for "$s" 'EXIT=0' && sane "$s"; then :; else fail "q after the tour" "$s"; fi
else
    fail "--tour did not open on its first step" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- issue 21 item 1: a tour step's answer shows nowhere until the guess is in, at larger sizes too ----
for size in 120x40 200x60; do
    s=tour-hide-$size
    start_raw "$s" "${size%x*}" "${size#*x}" "$UTF8_ENV" "--tour"
    if wait_for "$s" 'Tour 1/14'; then
        t send-keys -t "$s" n n n n n n n
        ok=1
        if ! wait_for "$s" 'Tour 8/14'; then
            ok=0
            fail "tour at $size did not reach step 8" "$s"
        elif sleep 0.3 && t capture-pane -p -t "$s" | grep -q ' 23 req. fit'; then
            ok=0
            fail "tour step 8 at $size shows its answer (23 req. fit) before the guess" "$s"
        fi
        t send-keys -t "$s" n n
        if [ $ok = 1 ] && ! { wait_for "$s" 'Tour 10/14' && wait_for "$s" 'turn ?'; }; then
            ok=0
            fail "tour at $size did not reach step 10 with its total concealed" "$s"
        elif [ $ok = 1 ] && sleep 0.3 && t capture-pane -p -t "$s" | grep -q '1\.981'; then
            ok=0
            fail "tour step 10 at $size shows the turn's total (1.981 s) before the guess" "$s"
        fi
        t send-keys -t "$s" 2 Enter
        if [ $ok = 1 ] && wait_for "$s" 'it is 1.981 s' && wait_for "$s" 'MISS 1.981 s'; then
            pass "tour at $size: steps 8 and 10 hide their answers until the guess, then show them"
        elif [ $ok = 1 ]; then
            fail "tour at $size: the guess did not reveal the total in the title" "$s"
        fi
        t send-keys -t "$s" q
    else
        fail "--tour did not open at $size" "$s"
    fi
    t kill-session -t "$s" 2>/dev/null
done

# ---- issue 21 item 5: a design the search accepts, loaded from the Pareto view, reads the targets' OK ----
for size in 80x24 120x40; do
    s=targets-$size
    start_raw "$s" "${size%x*}" "${size#*x}" "$UTF8_ENV" "--chip h100 --chips 8 --ttft-target 0.5 --tpot-target 0.05"
    if wait_for "$s" 'Serving targets'; then
        t send-keys -t "$s" p
        if wait_for "$s" 'Enter loads'; then
            t send-keys -t "$s" Enter
            wait_for "$s" 'loaded:' >/dev/null
            t send-keys -t "$s" p
            if wait_for "$s" 'Serving targets  met' && t capture-pane -p -t "$s" | head -n 1 | grep -q 'OK TTFT '; then
                pass "targets at $size: the loaded design's verdict is the targets' OK, the turn's second"
            else
                fail "targets at $size: the loaded design does not read the targets' verdict" "$s"
            fi
        else
            fail "targets at $size: p did not open the Pareto view" "$s"
        fi
        t send-keys -t "$s" q
    else
        fail "targets at $size: the latency panel does not lead with the targets" "$s"
    fi
    t kill-session -t "$s" 2>/dev/null
done

# ---- issue 21 item 9: a model read from a file keeps its place in the model knob ----
s=file-model
start_raw "$s" 80 24 "$UTF8_ENV" "--model tests/fixtures/hf/gemma-2-9b"
if wait_for "$s" 'model *gemma-2-9b'; then
    t send-keys -t "$s" Down Left
    if wait_for "$s" '▸model' && wait_gone "$s" 'model *gemma-2-9b'; then
        t send-keys -t "$s" Right
        if wait_for "$s" '▸model *gemma-2-9b'; then
            pass "file model at 80x24: a step away and back returns to it"
        else
            fail "file model: the step back did not return to gemma-2-9b" "$s"
        fi
    else
        fail "file model: the model knob did not step away" "$s"
    fi
    t send-keys -t "$s" q
else
    fail "--model FILE did not open on its model" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- issue 21 item 11: y inside tmux (its default set-clipboard external) says where the copy may stop ----
s=clipboard-words
start_raw "$s" 80 24 "$UTF8_ENV TMUX=$SOCKET,1,0" ""
if wait_for "$s" '? help'; then
    t send-keys -t "$s" y
    if wait_for "$s" 'as OSC 52; tmux passes it on only with set-clipboard on' &&
        ! t capture-pane -p -t "$s" | grep -q 'copied the report'; then
        pass "y inside tmux says what was sent and that tmux passes it on only with set-clipboard on"
    else
        fail "y inside tmux claimed the copy arrived or did not name set-clipboard" "$s"
    fi
    t send-keys -t "$s" q
else
    fail "the explorer did not start for the clipboard words" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- issue 21 item 12: a CJK model name is drawn at its width, the knobs still aligned ----
"$ROOFTOP" --write-scenario "$WORK/cjk.json" >/dev/null 2>&1
sed 's/"guide-70b"/"通义千问-70b"/' "$WORK/cjk.json" >"$WORK/cjk2.json"
for size in 80x24 120x40; do
    s=cjk-$size
    start_raw "$s" "${size%x*}" "${size#*x}" "$UTF8_ENV" "--scenario $WORK/cjk2.json"
    if wait_for "$s" 'rooftop · 通义千问-70b ·' && wait_for "$s" ' model  *通义千问-70b ━' &&
        ! t capture-pane -p -t "$s" | grep -q '????'; then
        pass "a CJK model name at $size: drawn whole at its width in the title and the model knob"
    else
        fail "a CJK model name at $size is not drawn at its width" "$s"
    fi
    t send-keys -t "$s" q
    t kill-session -t "$s" 2>/dev/null
done
s=cjk-c-locale
start_raw "$s" 80 24 "TERM=xterm-256color LANG=C LC_ALL=C" "--scenario $WORK/cjk2.json"
if wait_for "$s" 'rooftop | ????????-70b |' && wait_for "$s" ' model  *????????-70b ='; then
    pass "a CJK model name in the C locale: a '?' for each of its columns, the knobs still aligned"
else
    fail "a CJK model name in the C locale is not drawn as a '?' a column" "$s"
fi
t send-keys -t "$s" q
t kill-session -t "$s" 2>/dev/null

# ---- a terminal that cannot address the cursor, or an unknown one, gets the report ----
for term in dumb no-such-terminal; do
    s=report-$term
    # stdout stays on the terminal (a pane tall enough for the whole report); stderr to a file.
    start "$s" 100 300 "TERM=$term LANG=C" "--chips 16 2>$WORK/$s.err"
    if wait_for "$s" 'EXIT=0' && wait_for "$s" '1\.981' 1 &&
        grep -q "^rooftop: note: terminal.*$term.*so the explorer cannot open; printing the text report" "$WORK/$s.err" &&
        [ "$(wc -l <"$WORK/$s.err")" -eq 1 ]; then
        pass "TERM=$term: a one-line note on stderr, the text report (1.981 s) on stdout, exit 0"
    else
        fail "TERM=$term: $(cat "$WORK/$s.err" 2>/dev/null)" "$s"
    fi
    t kill-session -t "$s" 2>/dev/null
done
# A pinned baseline with no screen to pin it on prints the diff, as without a terminal; --tour says it is ignored.
"$ROOFTOP" --write-scenario "$WORK/base.json" --napkin --chips 8 >/dev/null 2>&1
s=report-dumb-baseline
start "$s" 100 300 "TERM=dumb LANG=C" "--baseline $WORK/base.json --chips 16 --tour 2>$WORK/$s.err"
if wait_for "$s" 'EXIT=0' && wait_for "$s" 'Inputs that differ' 1 &&
    grep -q "note: terminal 'dumb' cannot address the cursor, so the explorer cannot open; printing the diff" "$WORK/$s.err" &&
    grep -q "warning: --tour is for the explorer; the diff printed without a terminal ignores it" "$WORK/$s.err"; then
    pass "TERM=dumb with --baseline: the diff against it, the note and the ignored --tour on stderr"
else
    fail "TERM=dumb with --baseline: $(cat "$WORK/$s.err" 2>/dev/null)" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- the presentation view: P opens it, P or Esc returns, at both sizes ----
s=present80
start "$s" 80 24 "$UTF8_ENV" ""
if wait_for "$s" 'Knobs' && { t send-keys -t "$s" P; wait_for "$s" 'P/Esc back'; } &&
    wait_for "$s" 'MISS 27.952 s of 1 s   decode 0.4% of peak   MFU' && ! wait_for "$s" 'Knobs' 1 &&
    { t send-keys -t "$s" Right; wait_for "$s" '^batch 2  P/Esc back'; } && ! wait_for "$s" 'MISS 27.952 s' 1 &&
    { t send-keys -t "$s" P; wait_for "$s" 'Knobs'; } && { t send-keys -t "$s" P; wait_for "$s" 'P/Esc back'; } &&
    { t send-keys -t "$s" Escape; wait_for "$s" 'Knobs'; } && { t send-keys -t "$s" q; wait_for "$s" 'EXIT=0'; } &&
    sane "$s"; then
    pass "80x24: P shows the headline in one line over the plot; a knob still steps; P and Esc return"
else
    fail "the presentation view at 80x24" "$s"
fi
t kill-session -t "$s" 2>/dev/null
s=present200
start "$s" 200 60 "$UTF8_ENV" "--present"
if wait_for "$s" 'the turn (napkin estimate), budget 1 s' && wait_for "$s" 'decode: memory-bound, % of peak' &&
    wait_for "$s" '█▄█ ▀█▀ ▄▀▀ ▄▀▀' && wait_for "$s" 'prefill/training' && wait_for "$s" 'decode' &&
    { t send-keys -t "$s" Escape; wait_for "$s" 'Knobs'; } && { t send-keys -t "$s" P; wait_for "$s" 'P/Esc back'; } &&
    { t send-keys -t "$s" q; wait_for "$s" 'EXIT=0'; } && sane "$s"; then
    pass "200x60 --present: the verdict in block letters, captions, labelled points; Esc and P toggle"
else
    fail "the presentation view at 200x60" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- the Linux console: no braille, said once in the status line ----
if infocmp linux >/dev/null 2>&1; then
    s=console
    start "$s" 80 24 "TERM=linux LANG=$UTF8_LOCALE LC_ALL=$UTF8_LOCALE" ""
    if wait_for "$s" 'TERM=linux cannot show braille: drawing in ASCII, as --ascii does' && wait_for "$s" 'ridge 241'; then
        t capture-pane -p -t "$s" >"$WORK/console.txt"
        bytes=$(LC_ALL=C tr -d '\000-\177' <"$WORK/console.txt" | wc -c)
        t send-keys -t "$s" Right
        if [ "$bytes" -eq 0 ] && wait_gone "$s" 'cannot show braille'; then
            pass "TERM=linux in a UTF-8 locale: the plot is ASCII and the status line says why, once"
        else
            fail "TERM=linux showed $bytes non-ASCII bytes, or the notice stayed" "$s"
        fi
    else
        fail "TERM=linux did not say it draws in ASCII" "$s"
    fi
    t send-keys -t "$s" q
    t kill-session -t "$s" 2>/dev/null
else
    echo "skip TERM=linux (no terminfo entry here)"
fi

# ---- the background: COLORFGBG or --background light picks the light theme ----
s=lightbg
start "$s" 80 24 "$UTF8_ENV COLORFGBG='0;15'" ""
if wait_for "$s" 'light background (from COLORFGBG): theme light'; then
    pass "COLORFGBG=0;15 starts the light theme and says so"
else
    fail "COLORFGBG=0;15 did not choose the light theme" "$s"
fi
t kill-session -t "$s" 2>/dev/null
s=lightflag
start "$s" 80 24 "$UTF8_ENV COLORFGBG='15;0'" "--background light"
# The roof in the light theme's 130 (256 colours): tmux keeps colours with -e.
if wait_for "$s" 'light background (from --background): theme light' &&
    t capture-pane -e -p -t "$s" | grep -q '38;5;130m'; then
    pass "--background light wins over COLORFGBG and draws in the light theme's colours"
else
    fail "--background light" "$s"
fi
t kill-session -t "$s" 2>/dev/null
# A theme named for the other background stands, and says so.
s=darkprojector
start "$s" 100 24 "$UTF8_ENV COLORFGBG='15;0'" "--theme projector"
if wait_for "$s" 'theme projector is drawn for a light background, this terminal.s is dark (from COLORFGBG)'; then
    pass "--theme projector on a dark terminal (COLORFGBG=15;0) keeps the theme and says it is for light backgrounds"
else
    fail "--theme projector on a dark terminal said nothing" "$s"
fi
t kill-session -t "$s" 2>/dev/null
# With neither, the terminal is asked (OSC 11): its answer never shows.
s=osc11
start "$s" 80 24 "$UTF8_ENV" ""
if wait_for "$s" 'Knobs' && wait_for "$s" 'select' && ! t capture-pane -p -t "$s" | grep -q 'rgb:\|11;\|\[?' &&
    { t send-keys -t "$s" q; wait_for "$s" 'EXIT=0'; } && sane "$s"; then
    pass "the background query leaves nothing on screen; q exits 0"
else
    fail "the background query left its answer on screen" "$s"
fi
t kill-session -t "$s" 2>/dev/null

# ---- a profiler's kernels on the explorer's plot: an Nsight Compute export at 80x24 and 200x60 ----
# The cuDNN fp32 conv (A100) runs on the CUDA cores: its point sits under the vector roof, which is drawn
# for it ("vector", with its 19.5 TFLOP/s where there is room), and carries its name where it fits.
for size in "80 24" "200 60"; do
    set -- $size
    s=ncu$1
    start_raw "$s" "$1" "$2" "$UTF8_ENV" "--chip a100 --points tests/fixtures/profiles/ncu/a100_cudnn_conv2d_sgemm_long_rules.csv"
    if wait_for "$s" 'Knobs' && wait_for "$s" 'vector' && t capture-pane -p -t "$s" | grep -q '×'; then
        if [ "$1" -lt 200 ] || t capture-pane -p -t "$s" | grep -q 'implicit_convolve_sgemm.*×\|vector 19.5 TFLOP'; then
            pass "ncu export at $1x$2: the kernel on the plot under the vector roof it is placed against"
        else
            fail "ncu export at $1x$2: no kernel label or vector roof value" "$s"
        fi
    else
        fail "ncu export at $1x$2: the kernel or its vector roof is not on the plot" "$s"
    fi
    t send-keys -t "$s" q
    wait_for "$s" 'EXIT=0' >/dev/null && sane "$s" || fail "q after the ncu export at $1x$2" "$s"
    t kill-session -t "$s" 2>/dev/null
done
# A Kineto trace at 200x60: its GEMMs labelled on the plot.
s=kineto
start_raw "$s" 200 60 "$UTF8_ENV" "--chip h100 --points tests/fixtures/profiles/kineto/h100_qwen1.5-0.5b_bf16_prefill.json.gz"
if wait_for "$s" 'Knobs' && wait_for "$s" 'mm M8944 K1024 N2816 bf16'; then
    pass "a Kineto trace at 200x60: the GEMM groups labelled on the plot"
else
    fail "a Kineto trace at 200x60: no GEMM label" "$s"
fi
t send-keys -t "$s" q
wait_for "$s" 'EXIT=0' >/dev/null && sane "$s" || fail "q after the Kineto trace" "$s"
t kill-session -t "$s" 2>/dev/null

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]

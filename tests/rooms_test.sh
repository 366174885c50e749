#!/bin/sh
# rooms_test.sh — the core's walls: each room (core/ROOM/) includes only its
# own headers and those of the rooms before it in the Makefile's CORE_ROOMS,
# lowest first, so that the data flows one way and no arrow runs back up
# (README, "Architecture"). Also: no source sits in core/ outside a room, and
# no header name is in two rooms (the include path is every room's).
# Usage: sh tests/rooms_test.sh [ignored: the suites' rooftop argument]
cd "$(dirname "$0")/.." || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

rooms=$(sed -n 's/^CORE_ROOMS *:= *//p' Makefile)
[ -n "$rooms" ] && ok "the Makefile names the rooms: $rooms" || bad "no CORE_ROOMS in the Makefile"

loose=$(find core -maxdepth 1 -type f | sort)
[ -z "$loose" ] && ok "every core source is in a room" || bad "outside a room: $loose"

# header -> room, for every header of every room
map=$(for r in $rooms; do for h in core/$r/*.h core/$r/*.inc; do [ -f "$h" ] && echo "${h##*/} $r"; done; done)
twice=$(echo "$map" | awk '{print $1}' | sort | uniq -d)
[ -z "$twice" ] && ok "no header name in two rooms" || bad "in two rooms: $twice"

rank() { i=0; for r in $rooms; do [ "$r" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 99; }
up=""
for r in $rooms; do
    mine=$(rank "$r")
    for f in core/$r/*.c core/$r/*.h; do
        [ -f "$f" ] || continue
        for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
            to=$(echo "$map" | awk -v h="$inc" '$1 == h {print $2}')
            if [ -z "$to" ]; then
                up="$up\n  $f includes $inc, which no room holds"
            elif [ "$(rank "$to")" -gt "$mine" ]; then
                up="$up\n  $f ($r) includes $inc ($to): an arrow back up"
            fi
        done
    done
done
if [ -z "$up" ]; then
    ok "each room includes only its own headers and the rooms below it"
else
    bad "the walls: $(printf "$up")"
fi

# Above the core, lowest first (the Makefile's APP_ROOMS): files/ reads and writes the user's
# files, tui/ draws and drives the explorer, cli/ is the command line and its modes. The core
# never includes one of their headers (ncurses stays out of it); each of them includes the
# core, its own headers and those of the rooms below it, never one above.
apps=$(sed -n 's/^APP_ROOMS *:= *//p' Makefile)
[ "$apps" = "files tui cli" ] && ok "the Makefile names the rooms above the core: $apps" ||
    bad "APP_ROOMS is '$apps', not 'files tui cli'"
app_map=$(for r in $apps; do for h in $r/*.h; do [ -f "$h" ] && echo "${h##*/} $r"; done; done)
twice=$( (echo "$map"; echo "$app_map") | awk '{print $1}' | sort | uniq -d)
[ -z "$twice" ] && ok "no header name in two rooms above or in the core" || bad "in two rooms: $twice"
app_in_core=$(for r in $rooms; do for f in core/$r/*.c core/$r/*.h; do [ -f "$f" ] && \
    sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
        echo "$app_map" | awk -v h="$inc" -v f="$f" '$1 == h {print f ": " h " (" $2 ")"}'; done; done; done)
[ -z "$app_in_core" ] && ok "no core file includes a header of files/, tui/ or cli/" ||
    bad "core includes a room above it: $app_in_core"
grep -ln 'ncurses\|curses\.h' core/*/*.c core/*/*.h >/dev/null 2>&1 && bad "a core file names curses" ||
    ok "no core file names curses"
app_rank() { i=0; for r in $apps; do [ "$r" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo 99; }
app_up=""
for r in $apps; do
    mine=$(app_rank "$r")
    for f in $r/*.c $r/*.h; do
        [ -f "$f" ] || continue
        for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
            to=$(echo "$app_map" | awk -v h="$inc" '$1 == h {print $2}')
            [ -n "$to" ] && [ "$(app_rank "$to")" -gt "$mine" ] && app_up="$app_up\n  $f ($r) includes $inc ($to)"
        done
    done
done
[ -z "$app_up" ] && ok "files/, tui/ and cli/ include only their own headers and those below" ||
    bad "an arrow back up: $(printf "$app_up")"
grep -ln 'ncurses\|curses\.h' files/*.c files/*.h >/dev/null 2>&1 && bad "a file of files/ names curses" ||
    ok "files/ names no curses (the fuzzers build it without)"

# The files call each other one way too, within each room: the modes (commands.c) call the
# readers of measurements, which parse their rows' flags through the command line's parser
# (cli.c), which calls neither. Each file "x.c" or "x.h" is module x; an #include of another
# of these rooms' headers is an arrow; tsort refuses a loop.
edges=$(for r in $apps; do for f in $r/*.c $r/*.h; do
    [ -f "$f" ] || continue
    m=$(basename "$f"); m=${m%.*}
    sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$f" | while read -r inc; do
        echo "$app_map" | grep -q "^$inc\.h " && [ "$inc" != "$m" ] && echo "$m $inc"
    done
done; done)
if printf '%s\n' "$edges" | tsort >/dev/null 2>"${TMPDIR:-/tmp}/rooftop-rooms-tsort.$$"; then
    ok "no circle among the files of files/, tui/ and cli/ (tsort of their #includes)"
else
    bad "a circle among the files above the core: $(cat "${TMPDIR:-/tmp}/rooftop-rooms-tsort.$$")"
fi
rm -f "${TMPDIR:-/tmp}/rooftop-rooms-tsort.$$"

echo "rooms: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

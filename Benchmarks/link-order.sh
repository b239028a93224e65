#!/bin/bash
# make link-order (issue 15): the functions the release binary runs, hottest first in each group, for lld's
# --symbol-ordering-file (Package.swift), so that they sit together in the binary's text: the kernel maps 64 kB or
# more of the file around each page a process touches, and with the code a host runs spread over 17 MB of text
# every start faulted in, and kept resident, most of it. With the functions that run packed together, a networked
# host or joiner and the start of every command touch a few MB instead.
#
# Exact rather than sampled: each scenario runs under valgrind's callgrind, which records every function executed
# (a sampling profiler misses the ones that run once, at start, and each of those would fault in 64 kB of cold code).
# The scenarios: a loopback match host + joiner (TLS and plaintext, 20 games), `--version`, `--help`, and the
# full-screen game's menu in tmux, quit at once. Nothing touches the LAN: the match binds 127.0.0.1, unadvertised.
# Three groups, one after the other (link-order.py --then): what the match's host and joiner run, then what the start
# of every command adds, then what the menu adds.
#
# With MAP (lld's -Map of that binary's link) the functions in large input sections go last in their group, and the
# functions no profile can show (below) are added to the first group.
#
#   Benchmarks/link-order.sh RELEASE_BINARY OUTPUT_FILE [MAP]
#
# LINK_ORDER_KEEP=DIR (an existing directory) keeps the callgrind profiles there.
set -euo pipefail
bin=$1 out=$2 map=${3:-}
work=$(mktemp -d /tmp/link-order.XXXXXX)
cleanup() { tmux kill-session -t "link-order-$$" 2>/dev/null || true; rm -rf "$work" "$out.new"; }
trap cleanup EXIT
# valgrind 3.19 (Debian 12) cannot read DWARF 5: a copy without debug information, same symbols and code. Laid out
# as `make install` lays it out (bin/, share/tictactoe/ a copy of Assets/): a binary that finds no manifest beside it
# never runs the code that reads the manifest and the strings, and every command runs that.
mkdir -p "$work/bin" "$work/share/tictactoe"
cp -R "$(dirname "$0")/../Assets/." "$work/share/tictactoe/"
tictactoe="$work/bin/tictactoe"
objcopy --strip-debug "$bin" "$tictactoe"
export XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state" XDG_DATA_HOME="$work/data"
grind() { local name=$1; shift; valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.cg" "$@"; }
for security in "" --plaintext; do
    grind "host$security" "$tictactoe" host --headless --no-advertise --bind 127.0.0.1 --port 0 --games 20 \
        --seed 1 --json $security > "$work/host.jsonl" 2> "$work/host.err" &
    host=$!
    port=
    for _ in $(seq 600); do
        port=$(grep -o '"port":[0-9]*' "$work/host.jsonl" 2>/dev/null | head -1 | cut -d: -f2) || true
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "link-order: the host never listened: $(cat "$work/host.err")" >&2; exit 1; }
    grind "join$security" "$tictactoe" join "127.0.0.1:$port" --headless --seed 2 --json $security \
        > /dev/null 2> "$work/join.err"
    wait "$host"
done
grind version "$tictactoe" --version > /dev/null 2>&1
grind help "$tictactoe" --help > /dev/null 2>&1
tmux new-session -d -s "link-order-$$" -x 100 -y 30 \
    "valgrind --tool=callgrind --demangle=no --callgrind-out-file=$work/tui.cg $tictactoe 2>$work/tui.err"
for _ in $(seq 300); do tmux capture-pane -p -t "link-order-$$" | grep -q "Quit" && break; sleep 0.1; done
tmux send-keys -t "link-order-$$" q
for _ in $(seq 300); do [ -s "$work/tui.cg" ] && break; sleep 0.1; done
# The three groups (above), and with the first of them what valgrind never runs: its CPU has no ADX, so BoringSSL's ADX code (x25519, which a TLS game's key
# exchange runs on this machine, and P-256's) never shows in a profile; and the C start files' functions (_start,
# frame_dummy), which run before valgrind names functions.
python3 "$(dirname "$0")/link-order.py" "$tictactoe" ${map:+--map "$map" --with '_adx|/S?crt[^/]*\.o:'} \
    "$work"/host*.cg "$work"/join*.cg \
    --then "$work/version.cg" "$work/help.cg" --then "$work/tui.cg" > "$out.new"
[ -z "${LINK_ORDER_KEEP:-}" ] || cp "$work"/*.cg "$LINK_ORDER_KEEP"
mv "$out.new" "$out"
echo "link-order: $(wc -l < "$out") functions in $out"

# Shared by Tests/demo/demo (interactive), Tests/demo/check (unattended) and Tests/demo/narrate (the narration
# pane). Sourced, never run. Defines paths, the lab lock, the tmux session and the steps scenes are made of.
#
# Safety (docs/LAN-LAB.md): the apps, dbus-monitor and the narration run only inside the lab's network namespaces
# (every pane's command is a `lan exec HOST -- …` wrapper); tmux itself runs here, on a private socket. Processes are
# stopped by pid or by `lan down` (which empties the lab's namespaces), never by name.

# UTF-8 everywhere: the apps draw box characters, and the screen files are measured in characters.
export LANG=C.UTF-8 LC_ALL=C.UTF-8

DEMO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$DEMO_DIR/../.." && pwd)
LAN=$ROOT/Tests/lab/lan
# The demo's own lab (ttt-demolab-*), a LAN apart from the lab tests' one: the two can run at once.
export TICTACTOE_LAB=demolab
LOCK=/run/lock/tictactoe-demolab.lock
# A fixed place (root-only /run, emptied at start and at the end while we hold the lab lock), so that the paths
# the apps show (Settings › Privacy) are the same in every run and in the captured screens.
RUN=${TICTACTOE_DEMO_RUN:-/run/tictactoe-demo}
BIN=${TICTACTOE_BIN:-$ROOT/.build/debug/tictactoe}
SCENES=(deferred eager noauth waiting private languages lobby)
SESSION=demo
# Player names (host-b's game is advertised under its player's name) and the apps' language (LANGUAGE: en unless
# a scene says otherwise, so that the screens are the same whatever the locale of whoever runs the demo); a scene may
# change them (load_scene puts them back first).
NAME_A=alice
NAME_B=bob
LANGUAGE_A=en
LANGUAGE_B=en
LANGUAGE_S=en

DEMO_PROG=${DEMO_PROG:-demo}
die() { echo "$DEMO_PROG: $*" >&2; exit 1; }

need_tools() {
    [ "$(id -u)" = 0 ] || die "needs root (the LAN lab builds network namespaces): run it as root or with sudo"
    local tool
    for tool in tmux flock ip dbus-daemon dbus-monitor avahi-daemon tcpdump; do
        command -v "$tool" >/dev/null 2>&1 || die "$tool not found: run 'make deps'"
    done
    [ -x "$BIN" ] || die "no tictactoe binary at $BIN: build first ('swift build', or set TICTACTOE_BIN)"
}

lan() { "$LAN" "$@" 9>&-; }

# The demo lab's lock (make demo and make demo-check take it): one user of that lab at a time on this machine. It
# is held on fd 9, and every long-lived child is started with fd 9 closed (9>&-: `lan`, `tm`): a daemon that kept it
# would keep the lab locked after we are gone.
lock_lab() {
    exec 9>>"$LOCK"
    if ! flock -n 9; then
        echo "$DEMO_PROG: the LAN lab is in use (another test run holds $LOCK); waiting for it…"
        flock 9
    fi
}

unlock_lab() {
    flock -u 9 2>/dev/null || true
    exec 9>&-
}

host_dir() { echo "$RUN/$1"; }
config_dir() { echo "$RUN/$1/config"; }
state_dir() { echo "$RUN/$1/state"; }
log_file() { echo "$RUN/$1/state/tictactoe/tictactoe.log"; }
NARRATION=$RUN/narration.log

# Fresh, temporary privacy state for each host: an empty decision directory (not determined) and an empty log.
fresh_state() {
    rm -rf "$RUN"
    mkdir -p "$RUN"
    chmod 700 "$RUN"
    local h
    for h in host-a host-b; do
        mkdir -p "$(config_dir "$h")" "$(state_dir "$h")/tictactoe"
        : >"$(log_file "$h")"
        chmod 600 "$(log_file "$h")"
    done
    : >"$NARRATION"
}

# Scenes: Tests/demo/scenes/NAME.sh defines SCENE_TITLE, SCENE_TEXT (one or two sentences, shown on screen),
# SCENE_TRY (what to press), ARGS_A / ARGS_B (the apps' arguments), SETTINGS_PANE (1: a second app on host-a that
# stands in for the Settings app), FOCUS (a, b) and scene_play (the steps, for the check and for AUTO=1); it may
# set NAME_A / NAME_B and the panes' languages LANGUAGE_A / LANGUAGE_B / LANGUAGE_S.
load_scene() {
    local name=$1 file="$DEMO_DIR/scenes/$1.sh"
    [ -f "$file" ] || die "no scene '$name' (scenes: ${SCENES[*]})"
    SCENE=$name
    SETTINGS_PANE=0
    FOCUS=a
    ARGS_A=()
    ARGS_B=()
    NAME_A=alice NAME_B=bob LANGUAGE_A=en LANGUAGE_B=en LANGUAGE_S=en LABEL_S=
    # shellcheck source=/dev/null
    source "$file"
}

# ---------------------------------------------------------------------------------------------------------------
# tmux: a private server (its own socket, no config file), one session.

SOCK=${TICTACTOE_DEMO_SOCKET:-ttt-demo-$$}
tm() { tmux -L "$SOCK" -f /dev/null "$@" 9>&-; }

q() { printf '%q' "$1"; }  # one shell word

app_command() {  # HOST LANGUAGE NAME ARGS…: host's TUI in the lab, in LANGUAGE (its LANGUAGE), as a pane command
    local h=$1 language=$2 name=$3
    shift 3
    local cmd
    cmd="$(q "$LAN") exec $h -- env LANGUAGE=$(q "$language") $(q "$DEMO_DIR/app") $(q "$RUN") $h $(q "$BIN")"
    cmd+=" --name $(q "$name")"
    local a
    for a in "$@"; do cmd+=" $(q "$a")"; done
    echo "$cmd"
}

# Builds the session: host-a's and host-b's TUIs on top, the narration below (and, with SETTINGS_PANE, a second
# app on host-a at the bottom left). The check uses fixed sizes (TUI panes of 78x20); the interactive demo fits the
# terminal it runs in, so that attaching resizes nothing (the apps redraw badly after a resize: docs/DEMO.md).
start_session() {  # MODE: demo (fit the terminal) or check
    local mode=$1 tui_w=78 tui_h=20 narr_h=16 width height
    [ "$SETTINGS_PANE" = 1 ] && narr_h=21
    width=$((tui_w * 2 + 1))
    height=$((tui_h + narr_h + 3))
    if [ "$mode" = demo ]; then
        local size
        size=$(stty size </dev/tty 2>/dev/null || echo "50 170")
        height=${size% *} width=${size#* }
        [ "$SETTINGS_PANE" = 1 ] || narr_h=$((height - 3 - 26 > 10 ? height - 3 - 26 : 10))
        tui_h=$((height - 3 - narr_h))
        tui_w=$(((width - 1) / 2))
    fi
    tm new-session -d -c "$ROOT" -s "$SESSION" -x "$width" -y "$height" -n "$SCENE" \
        "$(q "$LAN") exec host-a -- $(q "$DEMO_DIR/narrate") $(q "$RUN") $SCENE $(q "$SOCK") $(q "$BIN")"
    PANE_N=$(tm display-message -p -t "$SESSION:0.0" '#{pane_id}')
    tm set-option -t "$SESSION" remain-on-exit off >/dev/null
    tm set-option -t "$SESSION" status on >/dev/null
    tm set-option -t "$SESSION" status-style "bg=colour24,fg=white" >/dev/null
    tm set-option -t "$SESSION" status-left-length 30 >/dev/null
    tm set-option -t "$SESSION" status-right-length 120 >/dev/null
    tm set-option -t "$SESSION" status-left " scene: $SCENE " >/dev/null
    tm set-option -t "$SESSION" status-right "leave: q in the narration pane, or F10 (tears the lab down) " >/dev/null
    tm set-option -t "$SESSION" mouse on >/dev/null
    tm set-option -w -t "$SESSION" pane-border-status top >/dev/null
    tm set-option -w -t "$SESSION" pane-border-format " #{pane_title} " >/dev/null
    tm bind-key -n F10 kill-session >/dev/null
    tm select-pane -t "$PANE_N" -T "narration: Avahi calls on each host's D-Bus · privacy log (tictactoe.privacy)"
    PANE_A=$(tm split-window -v -b -t "$PANE_N" -l $((tui_h + 1)) -c "$ROOT" -P -F '#{pane_id}' \
        "$(app_command host-a "$LANGUAGE_A" "$NAME_A" "${ARGS_A[@]}")")
    tm select-pane -t "$PANE_A" -T "host-a $(lan addr host-a) · $NAME_A · $(language_text "$LANGUAGE_A")tictactoe $(args_text "${ARGS_A[@]}")"
    PANE_B=$(tm split-window -h -t "$PANE_A" -l "$tui_w" -c "$ROOT" -P -F '#{pane_id}' \
        "$(app_command host-b "$LANGUAGE_B" "$NAME_B" "${ARGS_B[@]}")")
    tm select-pane -t "$PANE_B" -T "host-b $(lan addr host-b) · $NAME_B · $(language_text "$LANGUAGE_B")tictactoe $(args_text "${ARGS_B[@]}")"
    PANE_S=
    if [ "$SETTINGS_PANE" = 1 ]; then
        PANE_S=$(tm split-window -h -b -t "$PANE_N" -l "$tui_w" -c "$ROOT" -P -F '#{pane_id}' \
            "$(app_command host-a "$LANGUAGE_S" "$NAME_A" "${ARGS_A[@]}")")
        tm select-pane -t "$PANE_S" -T "host-a · $(language_text "$LANGUAGE_S")a second TicTacToe (same user, same decision file)"
    fi
    # The TUIs notice a new size only with their next key (see docs/DEMO.md, "Known gaps"): after a resize (the
    # terminal attaching, a zoomed or dragged pane) each gets F12, a key it ignores, so it redraws at once. tmux
    # resizes a pane's terminal a moment after its layout changes, hence the pause.
    local panes="$PANE_A $PANE_B $PANE_S" p nudge="sleep 0.5"
    for p in $panes; do nudge+="; tmux -L $SOCK send-keys -t $p F12"; done
    tm set-hook -w -t "$SESSION:0" window-resized "run-shell -b '$nudge'"
    tm set-hook -w -t "$SESSION:0" window-layout-changed "run-shell -b '$nudge'"
    # The apps start once their terminals have the panes' final size (they would draw for a stale one).
    local _ settled
    for _ in $(seq 100); do
        settled=1
        while read -r p tty width height; do
            [ "$(stty -F "$tty" size 2>/dev/null)" = "$height $width" ] || settled=0
        done < <(tm list-panes -t "$SESSION:0" -F '#{pane_id} #{pane_tty} #{pane_width} #{pane_height}')
        [ "$settled" = 1 ] && break
        sleep 0.05
    done
    : >"$RUN/layout.ready"
    case "$FOCUS" in
        b) tm select-pane -t "$PANE_B" ;;
        s) tm select-pane -t "$PANE_S" ;;
        *) tm select-pane -t "$PANE_A" ;;
    esac
}

args_text() { [ $# -eq 0 ] && echo "(no options)" || echo "$*"; }
language_text() { [ "$1" = en ] || echo "LANGUAGE=$1 · "; }  # in a pane's title, unless English

stop_session() {
    tm kill-server >/dev/null 2>&1 || true
    rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
}

# Waits until the narration listens on both buses (the apps wait for the same file before they start).
wait_ready() {
    local _
    for _ in $(seq 200); do
        [ -e "$RUN/narration.ready" ] && return 0
        sleep 0.05
    done
    fail "the narration did not start listening (dbus-monitor on the lab's buses): $(cat "$RUN"/monitor-*.err 2>/dev/null)"
}

# ---------------------------------------------------------------------------------------------------------------
# Steps: what scenes are made of. In the check a failed expectation ends the run (fail); with AUTO=1 (make demo)
# the same steps play slowly in front of you and screens are not written.

AUTO=${AUTO:-0}
STEP="(start)"
SHOTS=$RUN/shots
NARRATION_MARK=0

pane_id() {
    case "$1" in
        A) echo "${PANE_A:-}" ;;
        B) echo "${PANE_B:-}" ;;
        N) echo "${PANE_N:-}" ;;
        S) echo "${PANE_S:-}" ;;
        *) echo "$1" ;;
    esac
}

pane_label() {
    case "$1" in
        A) echo "host-a ($NAME_A)" ;;
        B) echo "host-b ($NAME_B)" ;;
        N) echo "narration" ;;
        S) echo "host-a, ${LABEL_S:-a second app for its Settings}" ;;
    esac
}

screen() { tm capture-pane -p -t "$(pane_id "$1")" 2>/dev/null | sed -e 's/[[:space:]]*$//'; }

# The screen with box-drawing borders and line breaks turned into single spaces (a wrapped prompt reads as a line).
flat() { screen "$1" | sed -e 's/[│|]/ /g' | tr '\n' ' ' | tr -s ' '; }

note() {  # a line in the narration, marked as the script's own
    printf '▶ %s\n' "$*" >>"$NARRATION"
}

step() {
    STEP=$*
    note "$*"
    if [ "$AUTO" = 1 ]; then sleep "${AUTO_PAUSE:-2.5}"; fi
}

keys() {  # PANE KEY…: tmux key names (Enter, BSpace, Right, …) or single characters
    local pane=$1
    shift
    local k
    for k in "$@"; do
        tm send-keys -t "$(pane_id "$pane")" "$k"
        if [ "$AUTO" = 1 ]; then sleep 0.5; else sleep 0.05; fi
    done
}

type_text() {  # PANE TEXT
    tm send-keys -t "$(pane_id "$1")" -l "$2"
    if [ "$AUTO" = 1 ]; then sleep 0.8; fi
}

fail() {
    echo "$DEMO_PROG: FAILED in scene '$SCENE', step \"$STEP\": $*" >&2
    if [ "$AUTO" = 1 ]; then
        note "the auto-play stopped at \"$STEP\": $*"
    else
        local p
        for p in A B S N; do
            [ -n "$(pane_id "$p")" ] || continue
            echo "--- $(pane_label "$p") now shows:" >&2
            screen "$p" >&2
        done
        echo "--- the narration (Avahi calls, privacy log) so far:" >&2
        cat "$NARRATION" >&2
        keep_failure
    fi
    exit 1
}

# Expects TEXT on PANE within TIMEOUT seconds (default 15); TEXT may be wrapped over lines or inside a box.
expect() {
    local pane=$1 text=$2 timeout=${3:-15}
    local flat_text deadline=$((SECONDS + timeout))
    flat_text=$(printf '%s' "$text" | tr -s ' ')
    while :; do
        if screen "$pane" | grep -qF -- "$text" || flat "$pane" | grep -qF -- "$flat_text"; then return 0; fi
        [ $SECONDS -lt $deadline ] || fail "$(pane_label "$pane") does not show \"$text\" after ${timeout}s"
        sleep 0.1
    done
}

expect_not() {  # PANE TEXT: the screen must not show it now
    if screen "$1" | grep -qF -- "$2" || flat "$1" | grep -qF -- "$2"; then
        fail "$(pane_label "$1") shows \"$2\", which it must not"
    fi
}

# The narration (its log file) has a line matching the extended regular expression, within TIMEOUT seconds.
heard() {
    local pattern=$1 timeout=${2:-15} deadline=$((SECONDS + ${2:-15}))
    while :; do
        grep -qE -- "$pattern" "$NARRATION" && return 0
        [ $SECONDS -lt $deadline ] || fail "the narration has no line matching /$pattern/ after ${timeout}s"
        sleep 0.1
    done
}

not_heard() {  # no line matches (checked now)
    local line
    line=$(grep -E -- "$1" "$NARRATION" | head -1 || true)
    [ -z "$line" ] || fail "the narration must not have /$1/, but it has: $line"
}

# A pane with its attributes (SGR sequences, as `capture-pane -e` writes them) and its rows' trailing spaces, which
# may have a background; without_attributes turns it into what screen shows.
screen_with_attributes() { tm capture-pane -e -N -p -t "$(pane_id "$1")" 2>/dev/null; }
without_attributes() { sed -e 's/\x1b\[[0-9;:]*m//g' -e 's/[[:space:]]*$//'; }

# Writes a screen file, NAME.txt: a caption, the given panes as they look now, and the narration lines since the
# last one; and its picture, NAME.svg: the same panes with their colours (Tests/demo/screen-svg), without the
# narration. Each pane is captured once, for both.
shot() {  # NAME CAPTION PANE…
    local name=$1 caption=$2
    shift 2
    [ "$AUTO" = 1 ] && return 0
    sleep 0.3  # the narration catches up: a D-Bus call is written once Avahi answers it
    mkdir -p "$SHOTS"
    local file=$SHOTS/$name.txt p total
    for p in "$@"; do screen_with_attributes "$p" >"$SHOTS/.pane-$p"; done
    {
        echo "$caption"
        for p in "$@"; do
            printf '\034%s\n' "$(pane_label "$p")"
            cat "$SHOTS/.pane-$p"
        done
    } | "$DEMO_DIR/screen-svg" >"$SHOTS/$name.svg"
    {
        echo "$caption"
        for p in "$@"; do
            echo
            rule "$(pane_label "$p")"
            without_attributes <"$SHOTS/.pane-$p"
        done
        total=$(wc -l <"$NARRATION")
        echo
        rule "narration since the previous screen"
        if [ "$total" -gt "$NARRATION_MARK" ]; then
            tail -n +"$((NARRATION_MARK + 1))" "$NARRATION" | head -n "$((total - NARRATION_MARK))"
        else
            echo "(nothing: no call to Avahi, no privacy log line)"
        fi
        NARRATION_MARK=$total
    } >"$file.raw"
    normalize_screen <"$file.raw" >"$file"
    rm -f "$file.raw" "$SHOTS"/.pane-*
}

# What differs between two runs of a scene (or between two checkouts), made constant: every screen goes through
# it in shot(), so the committed docs/demo/*.txt (make demo-docs) are normalized exactly like the screens make
# demo-check compares them with; screen-svg draws the pictures from text normalized by it too. It replaces the checkout's path (<checkout>/), temporary paths (<tmp>), clock
# times and time stamps (<time>), durations ("<n> ms", "<n> s"), pids ("pid <pid>"), seeds ("seed <n>"), a private
# game's code ("Code: <code>", random each run) and the source port of an attempt ("from ADDRESS:<port>"). The
# lab's addresses, the fixed port 7878 and /run/tictactoe-demo are the same in every run and stay: they are part of
# what a scene shows.
normalize_screen() {
    local tmp=${TMPDIR:-/tmp}
    tmp=${tmp%/}
    sed -E \
        -e "s|$ROOT/|<checkout>/|g" \
        -e "s#($tmp|/tmp|/var/tmp)/[A-Za-z0-9._+-]+#<tmp>#g" \
        -e 's#[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}([.,][0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?#<time>#g' \
        -e 's#(^|[^0-9:.])[0-9]{1,2}:[0-9]{2}:[0-9]{2}([.,][0-9]+)?([^0-9:]|$)#\1<time>\3#g' \
        -e 's#(^|[^0-9-])[0-9]{2}-[0-9]{2} <time>#\1<date> <time>#g' \
        -e 's#(^|[^0-9A-Za-z._])[0-9]+([.,][0-9]+)? ?(ms|s)([^0-9A-Za-z_]|$)#\1<n> \3\4#g' \
        -e 's#(\[|\b)pid[ =:]+[0-9]+#\1pid <pid>#g' \
        -e 's#(--seed[ =]|\bseed[ =:]+)[0-9]+#\1<n>#g' \
        -e 's#((^|[^A-Za-z])[Cc]ode: )[0-9]{3} [0-9]{3}#\1<code>#g' \
        -e 's#(from 198\.18\.0\.[0-9]+|from \[[0-9a-f:.]+\]):[0-9]+#\1:<port>#g'
}

# A normalized screen in the form make demo-check compares: the caption and the panes as they are, and the narration
# with its lines sorted within each step (from one "▶" line to the next). The narration is written by several
# processes at once (each host's dbus-monitor and log, and on host-a two apps in one log), so lines of one step can
# come in a different order from run to run; which lines a step has, and how many of each, still has to match.
comparable_screen() {
    # libdbus pings the daemon (Peer.Ping) when it connects, or not, as timing goes: housekeeping, not an Avahi call
    # of ours, so it is left out of the comparison (the screens still show it).
    awk '
        / Avahi ◂ Peer\.Ping\(\)$/ { next }
        !narration { printf "0\t%08d\t0\t%s\n", NR, $0; if (index($0, "── narration since the previous screen") == 1) narration = 1; next }
        /^▶ / { step++; printf "1\t%08d\t0\t%s\n", step, $0; next }
        { printf "1\t%08d\t1\t%s\n", step, $0 }
    ' | LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2 -k3,3 -k4 | cut -f4-
}

rule() {  # ── TEXT ─────… (78 columns)
    local text="── $1 " line
    line=$text
    while [ ${#line} -lt 78 ]; do line+="─"; done
    echo "$line"
}

# A few seconds of quiet to show that nothing happens (nothing may reach Avahi meanwhile).
settle() { sleep "${1:-1.5}"; }

# `tictactoe privacy VERB` run on HOST as that host's user (same decision directory as its apps): its output is
# written to the narration, like anything else that changes the decision.
privacy_cmd() {  # HOST VERB
    local h=$1 verb=$2 out
    out=$(lan exec "$h" -- env TICTACTOE_CONFIG_DIR="$(config_dir "$h")" XDG_STATE_HOME="$(state_dir "$h")" \
        "$BIN" privacy "$verb" 2>&1) || true
    printf '%s  $ tictactoe privacy %s: %s\n' "$h" "$verb" "$out" >>"$NARRATION"
    printf '%s\n' "$out"
}

# Plays a move and waits until both screens show it was taken (the other side's turn, or the end).
move() {  # PANE CELL
    local pane=$1 cell=$2 other peer
    if [ "$pane" = A ]; then other=B peer=$NAME_B; else other=A peer=$NAME_A; fi
    keys "$pane" "$cell"
    expect "$pane" "$peer's turn"
    expect "$other" "Your turn"
}

keep_failure() {
    local keep=${TMPDIR:-/tmp}/tictactoe-demo-failure
    rm -rf "$keep"
    mkdir -p "$keep"
    cp -R "$RUN/." "$keep/" 2>/dev/null || true
    local p
    for p in A B S N; do
        [ -n "$(pane_id "$p")" ] && screen "$p" >"$keep/screen-$p.txt"
    done
    local ns
    for ns in $(ip netns list 2>/dev/null | awk '/^ttt-demolab-/ {print $1}'); do
        echo "== $ns"
        ip netns pids "$ns" 2>/dev/null | xargs -r ps -o pid,ppid,stat,args -p
    done >"$keep/lab-processes.txt" 2>&1
    echo "$DEMO_PROG: the screens, the narration and both hosts' logs are kept in $keep" >&2
}

# Scene 4: waiting connections: a denied app's join waits, and goes ahead when access is turned on in Settings.
SCENE_TITLE="waiting connections: denied, then turned on in Settings"
SCENE_TEXT="host-a declines the prompt, then joins host-b's game by name: like an NWConnection on iOS, the join does not fail, it waits and says why. host-a turns Local Network on in Settings (the pane at the bottom left: a second TicTacToe on host-a, as Settings is an app of its own on iOS) and the waiting join goes ahead by itself, without a retry."
SCENE_TRY="host-b: h, Enter, o · host-a: s, d, q, a, type $NAME_B, Enter · Settings pane: t, ↓ ↓ ↓, → (or g here: tictactoe privacy grant)"
FOCUS=b
SETTINGS_PANE=1
ARGS_A=()
ARGS_B=()

scene_play() {
    step "host-b hosts: h, Enter, OK"
    keys B h
    expect B "Port"
    keys B Enter
    expect B "[ OK ]"
    keys B o
    expect B "Advertised as $NAME_B" 20

    step "host-a: Search for games (s), and Don't Allow (d)"
    keys A s
    expect A "[ OK ]"
    keys A d
    expect A "Not searching: local network access is not allowed yet."
    expect A "Local network permission denied: turn on Local Network in"
    settle 1
    not_heard "^host-a  Avahi"
    shot waiting-1-denied "host-a declined: Search waits and says why, and shows no game although host-b advertises one: a denied app does not browse." A

    step "host-a: join $NAME_B by name (q, a, $NAME_B, Enter, then s: it looks like a game name, search for it)"
    keys A q
    expect A "Join by address"
    keys A a
    expect A "Address (host:port)"
    type_text A "$NAME_B"
    keys A Enter
    expect A "press s to search"
    keys A s
    expect A "Joining $NAME_B as $NAME_A"
    expect A "Waiting: local network permission denied: turn on Local Network in Settings"
    settle 2
    expect A "Waiting: local network permission denied"
    not_heard "^host-a  Avahi"
    shot waiting-2-join-waits "host-a's join by name waits (it neither fails nor resolves) and says why; still no call to Avahi." A

    step "host-a's Settings (the second app): t, then down to Local Network"
    expect S "Search for games"
    keys S t
    expect S "Privacy › Local Network"
    keys S Down Down Down Down Down
    expect S "< Off >"
    expect S "Decision: $(config_dir host-a)/local-network.json"
    shot waiting-3-settings "host-a's Settings › Privacy › Local Network (a second TicTacToe on host-a, same user and decision file): Off." S

    step "host-a's Settings: turn Local Network on (→): the waiting join goes ahead by itself"
    keys S Right
    expect S "< On >"
    expect A "Your turn (X)" 20
    expect B "$NAME_A's turn"
    heard "^host-a  privacy: local network permission changed: denied -> allowed"
    heard "^host-a  Avahi ◂ Server\.ServiceResolverNew\(\"$NAME_B\", \"_tictactoe\._tcp\""
    local joins
    joins=$(grep -c "joining $NAME_B as $NAME_A" "$(log_file host-a)" || true)
    [ "$joins" = 1 ] || fail "host-a's log has $joins joins of $NAME_B: the join must go ahead by itself, not be retried"
    # The host says in its TXT record that it plays (state=playing) when the match starts: wait for it, so that it
    # is in this step's narration whatever the timing.
    heard "Avahi ◂ EntryGroup.UpdateServiceTxt\\(.*state=playing"
    shot waiting-4-game-starts "Local Network turned on in Settings: host-a's waiting join resolved $NAME_B and connected by itself (one join, no retry)." S A B
}

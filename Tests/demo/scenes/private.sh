# Scene 5: a private game: the code on the host, a wrong code refused, the right code in, and ciphertext on the wire.
SCENE_TITLE="a private game: a code, a wrong guess, and only ciphertext on the wire"
SCENE_TEXT="Both hosts already allow the local network. host-b hosts a private game: only its screen shows the 6-digit code. host-a finds the game marked [private] and is asked for the code: a wrong one is refused at once (host-b shows the attempt with host-a's address), the right one gets in. tcpdump on host-a records the game's connection meanwhile: TLS records only, no name, no move, no code."
SCENE_TRY="host-b: r, Enter · host-a: s, Enter, a wrong code, Enter, then host-b's code, Enter · cells 1-9 (alice is X)"
FOCUS=a
ARGS_A=()
ARGS_B=()

# The capture: tcpdump in host-a's namespace (the lab only), TCP port 7878, as root (-Z root: the run directory is
# root's), each packet written at once.
CAPTURE_PID=
start_capture() {
    # "$LAN" itself (not the `lan` function, which would run it in a subshell): `lan exec` execs, so $! is tcpdump.
    "$LAN" exec host-a -- tcpdump --immediate-mode -U -Z root -i lab0 -n -s 0 -w "$RUN/game.pcap" "tcp port 7878" \
        >"$RUN/tcpdump.log" 2>&1 9>&- &
    CAPTURE_PID=$!
    local deadline=$((SECONDS + 15))
    until grep -q "listening on" "$RUN/tcpdump.log" 2>/dev/null; do
        [ $SECONDS -lt $deadline ] || fail "tcpdump did not start: $(cat "$RUN/tcpdump.log")"
        sleep 0.1
    done
}

stop_capture() {
    sleep 0.5
    kill -INT "$CAPTURE_PID" 2>/dev/null || true
    wait "$CAPTURE_PID" 2>/dev/null || true  # tcpdump itself: SIGINT ends it after it wrote the file
}

# How often BYTES (a grep -P pattern) occurs in the capture file.
in_capture() { { LC_ALL=C grep -obUaP -- "$1" "$RUN/game.pcap" || true; } | wc -l; }

scene_play() {
    step "Both hosts allow the local network already (tictactoe privacy grant): this scene is about the game"
    privacy_cmd host-a grant >/dev/null
    privacy_cmd host-b grant >/dev/null
    # The hosts' logs reach the narration a moment later: wait, so the lines stay in this step.
    heard "^host-a  privacy: local network decision stored: allowed \(by tictactoe privacy grant\)"
    heard "^host-b  privacy: local network decision stored: allowed \(by tictactoe privacy grant\)"

    step "host-b: Host a private game (r, Enter): its screen shows the code"
    keys B r
    expect B "Host a private game"
    expect B "Port"
    keys B Enter
    expect B "give it to the player who joins"
    expect B "Advertised as $NAME_B" 20
    local code
    code=$(flat B | grep -oE 'Code: [0-9]{3} [0-9]{3}' | head -1 | tr -dc '0-9')
    [ ${#code} = 6 ] || fail "no code on host-b's screen"
    heard "txt \"sec=private\""
    if grep -qF -- "$code" "$(log_file host-b)" "$NARRATION"; then fail "the code is in host-b's log or the narration"; fi
    shot private-1-code "host-b hosts a private game: the code is on its screen only (not in its log); the TXT record says sec=private." B

    step "tcpdump on host-a records TCP port 7878 from now on"
    start_capture

    step "host-a: Search for games (s): bob's game is marked [private]"
    keys A s
    expect A "[private]" 20
    shot private-2-listed "host-a's list marks the game [private] (from its TXT record)." A

    step "host-a: join it (Enter): asked for the code; a wrong code first"
    keys A Enter
    expect A "This game is private: enter its code"
    local wrong
    wrong=$(printf '%06d' $(((10#$code + 1) % 1000000)))
    type_text A "$wrong"
    keys A Enter
    expect A "Wrong code, try again"
    expect B "Wrong code from 198.18.0.11:"
    shot private-3-wrong-code "A wrong code is refused at once (the keys do not match: TLS's Finished check fails); host-b shows the attempt with host-a's address and keeps serving." A B

    step "host-a: the right code (host-b's screen), Enter: in; X plays 5, O plays 1"
    settle 1  # one attempt a second per address
    type_text A "$code"
    keys A Enter
    expect A "Your turn (X)" 20
    expect B "$NAME_A's turn"
    move A 5
    move B 1
    stop_capture
    local tls hello names
    tls=$(in_capture '\x17\x03\x03')
    hello=$(in_capture '\x16\x03\x01')
    names=$(($(in_capture "$NAME_A") + $(in_capture "$NAME_B") + $(in_capture "$code")))
    [ "$hello" -ge 1 ] && [ "$tls" -ge 5 ] || fail "the capture has no TLS game in it ($hello ClientHello, $tls records)"
    [ "$names" = 0 ] || fail "the capture shows a name or the code in clear ($names times)"
    note "tcpdump on host-a: a TLS ClientHello, then TLS application data records only; '$NAME_A', '$NAME_B' and the code appear nowhere in the capture"
    # The host says in its TXT record that it plays (state=playing) when the match starts: wait for it, so that it
    # is in this step's narration whatever the timing.
    heard "Avahi ◂ EntryGroup.UpdateServiceTxt\\(.*state=playing"
    shot private-4-encrypted "The right code got in: the game runs over TLS (ECDHE-PSK-CHACHA20-POLY1305), and the capture of the connection holds no name, no move and no code in clear." A B
}

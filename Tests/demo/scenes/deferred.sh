# Scene 1, the default: deferred prompting, as Apple asks apps to do it on iOS 14.
SCENE_TITLE="deferred prompting (the default)"
SCENE_TEXT="Both apps launch without touching the network: nothing reaches Avahi and no decision is read. The prompt, with the app's usage description, appears only when a player does something that needs the local network: host-b hosts (OK: advertised), host-a searches (OK: host-b's game appears), joins, and they play."
SCENE_TRY="host-b: h, Enter, o · host-a: s, o, Enter · then cells 1-9 in turn (alice is X) · g / r below: grant / reset host-a"
FOCUS=b
ARGS_A=()
ARGS_B=()

scene_play() {
    step "Both apps are on their menus: nothing has touched the network"
    expect A "Search for games"
    expect B "Search for games"
    settle 2
    not_heard "Avahi"
    not_heard "privacy"
    shot deferred-1-launch "Launch: both menus are up; nothing has called Avahi and the privacy gate has not even read the manifest." A B

    step "host-b: Host a game (h, then Enter on the form)"
    keys B h
    expect B "Port"
    keys B Enter
    expect B "[ OK ]"
    expect B "“TicTacToe” would like to find and connect to devices on your local network."
    expect B "TicTacToe uses the local network to discover players around you."
    heard "^host-b  privacy: gate: Host a game screen: listen on \*: needs the prompt"
    not_heard "^host-b  Avahi"
    shot deferred-2-host-prompt "host-b chose Host a game: the prompt shows the usage description (NSLocalNetworkUsageDescription); still no call to Avahi." B

    step "host-b: OK (o): it listens and advertises"
    keys B o
    expect B "Waiting for someone to join on port 7878"
    expect B "Advertised as $NAME_B" 20
    heard "^host-b  privacy: local network prompt answered: OK"
    heard "^host-b  Avahi ◂ EntryGroup\.AddService\(\"$NAME_B\", \"_tictactoe\._tcp\", \"local\", \"\", 7878, txt \"proto=2\", txt \"sec=open\"\)"
    not_heard "^host-a  "
    shot deferred-3-advertised "host-b answered OK: only now does it call Avahi, to register its game." B

    step "host-a: Search for games (s)"
    keys A s
    expect A "[ OK ]"
    expect A "TicTacToe uses the local network to discover players around you."
    heard "^host-a  privacy: gate: Search for games screen: browse _tictactoe\._tcp: needs the prompt"
    not_heard "^host-a  Avahi"
    shot deferred-4-search-prompt "host-a chose Search for games: its own prompt (its decision is its own); no browsing yet." A

    step "host-a: OK (o): it browses and finds host-b's game"
    keys A o
    expect A "1 game" 20
    expect A " $NAME_B"
    heard "^host-a  Avahi ◂ Server\.ServiceBrowserNew\(\"_tictactoe\._tcp\""
    shot deferred-5-found "host-a answered OK: it browses (ServiceBrowserNew) and host-b's game appears." A

    step "host-a: join $NAME_B (Enter)"
    keys A Enter
    expect A "Your turn (X)" 20
    expect B "$NAME_A's turn"
    heard "^host-a  Avahi ◂ Server\.ServiceResolverNew\(\"$NAME_B\", \"_tictactoe\._tcp\""
    # The host says in its TXT record that it plays (state=playing) when the match starts: wait for it, so that it
    # is in this step's narration whatever the timing.
    heard "Avahi ◂ EntryGroup.UpdateServiceTxt\\(.*state=playing"
    shot deferred-6-joined "host-a joined by name: it resolved $NAME_B's game with Avahi and connected; no second prompt." A B

    step "They play: $NAME_A 1, $NAME_B 4, $NAME_A 2, $NAME_B 5, $NAME_A 3"
    move A 1
    move B 4
    move A 2
    move B 5
    keys A 3
    expect A "You win!"
    expect B "$NAME_A wins."
    shot deferred-7-game-over "The game is played over the lab's LAN (198.18.0.0/15)." A B

    step "host-a: back to the menu (q, y to leave the match); then 'tictactoe privacy reset' on host-a, as 'tccutil reset' on a Mac"
    keys A q
    expect A "Leave the match?"
    keys A y
    expect A "Search for games"
    local out
    out=$(privacy_cmd host-a reset)
    case "$out" in *"reset (not determined)"*) ;; *) fail "tictactoe privacy reset said: $out" ;; esac
    heard "^host-a  privacy: local network decision reset"

    step "host-a: Search for games (s): the prompt is back"
    keys A s
    expect A "[ OK ]"
    expect A "TicTacToe uses the local network to discover players around you."
    shot deferred-8-reset "After 'tictactoe privacy reset' on host-a (the decision is forgotten), Search asks again." A
}

# Scene 2: prompting at launch, the way an app that was only recompiled for iOS 14 behaves.
SCENE_TITLE="prompting at launch (--prompt-at-launch)"
SCENE_TEXT="The same apps started with --prompt-at-launch, like an app that was simply recompiled for iOS 14: the prompt appears at launch, before the player asked for anything, so nothing explains why the app wants the local network (the jarring experience Apple's WWDC20 talk warns about). A player who declines then finds nothing, even when a game is hosted."
SCENE_TRY="host-b: o, then q, h, Enter (hosts, no second prompt) · host-a: d (Don't Allow), then watch its list stay empty"
FOCUS=b
ARGS_A=(--prompt-at-launch)
ARGS_B=(--prompt-at-launch)

scene_play() {
    step "Both apps launch straight into Search for games, and ask at once"
    expect A "[ OK ]"
    expect B "[ OK ]"
    expect A "TicTacToe uses the local network to discover players around you."
    heard "^host-a  privacy: gate: Search for games screen: browse _tictactoe\._tcp: needs the prompt"
    heard "^host-b  privacy: gate: Search for games screen: browse _tictactoe\._tcp: needs the prompt"
    not_heard "Avahi"
    shot eager-1-launch "Launch with --prompt-at-launch: both apps ask before anyone did anything." A B

    step "host-b: OK (o): it browses at once, at launch"
    keys B o
    expect B "Searching: no games yet" 20
    heard "^host-b  Avahi ◂ Server\.ServiceBrowserNew\(\"_tictactoe\._tcp\""
    shot eager-2-host-b-ok "host-b answered OK: browsing starts at launch (ServiceBrowserNew), though nobody asked to search." B

    step "host-a: Don't Allow (d), a natural answer to a question out of nowhere"
    keys A d
    expect A "Not searching: local network access is not allowed yet."
    expect A "Local network permission denied: turn on Local Network in"
    settle 1
    not_heard "^host-a  Avahi"
    shot eager-3-host-a-denied "host-a declined: Search for games waits and says why; it does not browse." A

    step "host-b: back to the menu, Host a game (q, h, Enter): no second prompt, advertised"
    keys B q
    expect B "Host a game"
    keys B h
    expect B "Port"
    keys B Enter
    expect B "Advertised as $NAME_B" 20
    expect_not B "[ OK ]"
    heard "^host-b  Avahi ◂ EntryGroup\.AddService\(\"$NAME_B\""

    step "host-a's list stays empty: it declined, so it does not browse"
    settle 2
    expect A "Not searching: local network access is not allowed yet."
    expect_not A " $NAME_B"
    not_heard "^host-a  Avahi"
    shot eager-4-nothing-found "host-b hosts without a second prompt (the answer is remembered); host-a, which declined, sees no game and never called Avahi." A B
}

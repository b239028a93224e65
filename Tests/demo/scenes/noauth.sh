# Scene 3: NoAuth, the Bonjour service type is missing from the manifest's NSBonjourServices.
SCENE_TITLE="NoAuth: a manifest without NSBonjourServices"
SCENE_TEXT="host-a runs with --info-plist Assets/Info-NoBonjourServices.plist, a manifest that does not declare _tictactoe._tcp in NSBonjourServices: Search for games fails at once with \"Not allowed to access the network\" (NoAuth, -65555), without a prompt, and the privacy log names the missing key. Joining by address is not Bonjour: it still works, after the prompt."
SCENE_TRY="host-b: h, Enter, o · host-a: s (fails), q, t (Settings: no declared services), q, a, 198.18.0.12:7878, Enter, o"
FOCUS=b
ARGS_A=(--info-plist Assets/Info-NoBonjourServices.plist)
ARGS_B=()

scene_play() {
    step "host-b (a normal manifest) hosts: h, Enter, OK"
    keys B h
    expect B "Port"
    keys B Enter
    expect B "[ OK ]"
    keys B o
    expect B "Advertised as $NAME_B" 20

    step "host-a: Search for games (s): NoAuth at once, no prompt"
    keys A s
    expect A "Not allowed to access the network"
    expect_not A "[ OK ]"
    heard "^host-a  privacy ERROR: gate: Search for games screen: browse _tictactoe\._tcp: NoAuth \(kDNSServiceErr_NoAuth, -65555\): Not allowed to access the network"
    heard "NSBonjourServices must list \"_tictactoe\._tcp\": add it to NSBonjourServices in Assets/Info-NoBonjourServices\.plist"
    settle 1
    not_heard "^host-a  Avahi"
    shot noauth-1-search-fails "host-a's manifest lacks NSBonjourServices: Search fails at once, without a prompt; the log says which key to add; no call to Avahi." A B

    step "host-a: Settings (q, t): the manifest declares no Bonjour service"
    keys A q
    expect A "Host a game"
    keys A t
    expect A "Declared services: none"
    expect A "< not asked yet >"
    shot noauth-2-settings "host-a's Settings › Privacy › Local Network: not asked yet (NoAuth never prompts), no declared services." A

    step "host-a: Join by address instead (q, a, host-b's address, Enter): not Bonjour, so the prompt"
    keys A q
    expect A "Join by address"
    keys A a
    expect A "Address (host:port)"
    type_text A "$(lan addr host-b):7878"
    keys A Enter
    expect A "[ OK ]"
    heard "^host-a  privacy: gate: Join a game screen: connect to $(lan addr host-b | sed 's/\./\\./g'):7878: needs the prompt"

    step "host-a: OK (o): the game starts; host-a never called Avahi"
    keys A o
    expect A "Your turn (X)" 20
    expect B "$NAME_A's turn"
    not_heard "^host-a  Avahi"
    # The host says in its TXT record that it plays (state=playing) when the match starts: wait for it, so that it
    # is in this step's narration whatever the timing.
    heard "Avahi ◂ EntryGroup.UpdateServiceTxt\\(.*state=playing"
    shot noauth-3-joined-by-address "Joining by address needs no Bonjour: after the prompt (OK) the game starts, and host-a still never called Avahi." A B
}

# Scene 7: the LAN lobby, a custom multicast protocol: refused without the multicast entitlement, asked for with it;
# then the privacy report of each app.
SCENE_TITLE="the lobby: the multicast entitlement, the prompt, the privacy report"
SCENE_TEXT="host-a runs with a manifest beside which no TicTacToe.entitlements grants com.apple.developer.networking.multicast: its Lobby is refused at once, without a prompt, as iOS refuses multicast to an app without that entitlement. host-b has the shipped one: its Lobby asks first, then joins the group and announces bob. Settings › Privacy report then shows what each app did on the LAN, and which screen did it."
SCENE_TRY="host-a: l (refused) · host-b: l, o, g, hello, Enter · both: q, t, then ↓ to Privacy report"
FOCUS=a
# The shipped manifest (a symbolic link to Assets/Info.plist), in a directory without TicTacToe.entitlements.
ARGS_A=(--info-plist Tests/demo/no-entitlements/Info.plist)
ARGS_B=()

scene_play() {
    step "host-a: Lobby (l): refused at once, without a prompt"
    keys A l
    expect A "not entitled to com.apple.developer.networking.multicast"
    expect_not A "[ OK ]"
    heard "^host-a  privacy.*multicast.*com\.apple\.developer\.networking\.multicast"
    shot lobby-1-refused "host-a's manifest comes without the multicast entitlement: the Lobby is refused at once, without a prompt; the log names the entitlement and the file that must declare it." A

    step "host-b: Lobby (l): the prompt, with the manifest's usage description"
    keys B l
    expect B "[ OK ]"
    heard "^host-b  privacy.*Lobby"
    shot lobby-2-prompt "host-b has the entitlement: multicast is one more local network operation, so the Lobby asks first." B

    step "host-b: OK (o), then a greeting to everyone (g, hello, Enter)"
    keys B o
    expect B "Multicast group 239.255.77.77"
    expect B "You are in the lobby"
    keys B g
    expect B "Say:"
    type_text B "hello, LAN"
    keys B Enter
    expect B "You: hello, LAN"
    shot lobby-3-joined "After OK host-b joins the lobby's group (239.255.77.77 and ff02::7474, UDP 7879) on the lab's link, announces bob and greets: nobody else is around (host-a was refused)." B

    step "both: the privacy report (q, t, then ↓ to Privacy report)"
    keys A q
    expect A "Host a game"
    keys A t
    expect A "Privacy report"
    keys A Down Down Down Down Down Down Down
    expect A "refused: multicast"
    keys B q
    expect B "Host a game"
    keys B t
    expect B "Privacy report"
    keys B Down Down Down Down Down Down Down
    expect B "multicast"
    shot lobby-4-privacy-report "Settings › Privacy report: host-a's Lobby was refused for the entitlement; host-b's was asked (the prompt), allowed, and joined the group: each record names the operation, the destination and the screen that asked." A B
}

# Scene 6: the prompt in the user's language: Korean and Chinese on host-a, Japanese on host-b, and a CJK game list.
SCENE_TITLE="the prompt in the user's language: Korean, Japanese and Chinese, and a list of CJK names"
SCENE_TEXT="Each app runs with its own LANGUAGE: host-a's in Korean (ko), a second app of the same user on host-a (bottom left) in Chinese (zh-Hans), host-b's in Japanese (ja). As on iOS, the prompt's title, buttons and the usage description come from the manifest's <lang>.lproj/InfoPlist.strings and Localizable.strings; the players' names are Korean and Japanese, and the game list lays them out by terminal columns (wide characters take two)."
SCENE_TRY="host-b: h, Enter, o · host-a: s, o · bottom left: s, o · cells 1-9"
FOCUS=b
SETTINGS_PANE=1
NAME_A=민준
NAME_B=さくら
LANGUAGE_A=ko
LANGUAGE_B=ja
LANGUAGE_S=zh-Hans
LABEL_S="a second app of the same user (LANGUAGE=zh-Hans)"

scene_play() {
    step "host-b (LANGUAGE=ja): host (h, Enter): the prompt in Japanese"
    keys B h
    expect B "ポート"
    keys B Enter
    expect B "[ OK ]"
    expect B "[ 許可しない ]"
    expect B "三目並べはローカルネットワークを使って"
    shot languages-1-ja "host-b's prompt in Japanese (LANGUAGE=ja): the title from Localizable.strings with the display name from ja.lproj/InfoPlist.strings (三目並べ), the reason from its NSLocalNetworkUsageDescription, the buttons as iOS words them." B

    step "host-b: OK (o): さくら's game is advertised"
    keys B o
    expect B "${NAME_B}として公開中" 20

    step "host-a (LANGUAGE=ko) and a second app of the same user (LANGUAGE=zh-Hans): Search (s): the prompt in Korean and in Chinese"
    keys A s
    expect A "[ 허용 안 함 ]"
    expect A "틱택토는 로컬 네트워크를 사용하여"
    keys S s
    expect S "[ 不允许 ]"
    expect S "井字棋使用本地网络来发现你附近的玩家。"
    shot languages-2-ko-zh "The same prompt on host-a in Korean (top) and in Chinese, Simplified (bottom): one manifest, one strings table per language." A S

    step "host-a: OK (o) in Korean, and 확인 in the second app (o): both list さくら's game"
    keys A o
    expect A "$NAME_B" 20
    keys S o
    expect S "$NAME_B" 20
    heard "^host-a  Avahi ◂ Server\.ServiceBrowserNew\(.*\"_tictactoe\._tcp\""
    shot languages-3-cjk-list "Both apps list さくら's game: the name, the host and the address in columns measured in terminal cells (さくら takes six), the same at any width." A S

    step "host-a joins (Enter): 민준 plays X against さくら"
    keys A Enter
    expect A "내 차례 (X)" 20
    expect B "${NAME_A}の番です"
    # lib.sh's move, with the turn lines in each pane's language (ko on host-a, ja on host-b).
    keys A 5
    expect A "$NAME_B 차례"
    expect B "あなたの番です"
    keys B 1
    expect B "${NAME_A}の番です"
    expect A "내 차례"
    # The host says in its TXT record that it plays (state=playing) when the match starts: wait for it, so that it
    # is in this step's narration whatever the timing.
    heard "Avahi ◂ EntryGroup.UpdateServiceTxt\\(.*state=playing"
    shot languages-4-game "A game between 민준 and さくら: the names in the status lines and on the board screen, measured in columns." A B
}

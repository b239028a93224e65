// swift-tools-version:6.0
//
// tictactoe: a terminal tic-tac-toe for two players on a LAN.
//
// The modules, from the top (the executable) down. Each imports only modules listed below it, and only those its
// target below declares; ImportBoundaryTests checks both against every import, and the seams that keep the front
// ends off the adapters (the TUI sees GameClient, never NIO, libsodium, Bonjour or the gate; the headless front end
// never sees the app core).
//
//   tictactoe            the executable: parses arguments and hands them to a front end or a command
//   Series               `tictactoe match`: a series of games (by the rules, engines or over the network) and its
//                        report with MatchStatistics, as text or JSON lines
//   HeadlessUI           the command line's front end, the TUI's sibling: transcripts, the line game, replay, the
//                        reports as text; it reads the events, never the app core that makes them
//   TerminalUI           the full-screen game: one reducer per screen, a navigation stack, the event loop
//   NetworkScreenState   what the network screens show (pure): a match, a watch, lists, the lobby, forms, a code
//   CursesTerminal       the real `Terminal` on ncursesw: the only importer of CNCurses
//   TerminalWidgets      the `Terminal` seam, the canvas, the line editor, the board's drawing
//   AppCore              the app core: the host, join, browse, lobby and service-type coordinators both front ends
//                        drive, and `GameClient.live`
//   AppFiles             the files the app keeps for its player: the settings, the saved games, a record read back
//   PrivacyCommands      `privacy` and `manifest`: the gate's state, a change to the decision, the reports
//   JSONLines            the one event type of the command line's `--json` event lines (`JSONEvent`): a match's
//                        events, discovery's, the lobby's, a record's, a replayed game, a series' lines
//   MatchPlay            one match: the runner over a peer link, the local players (line, computer, engine)
//   AppProcess           the process's edges: signals and shutdown, checked output, the log file, the main
//                        thread's wait, the command lines taken without argument-parser
//   GameClient           the interface both front ends drive: a struct of closures, the one event stream
//   Lobby                the LAN lobby (pure): its datagrams, roster, events and state machine
//   Bonjour              discovery on Avahi's dns_sd library (the only importer of CDNSSD); takes the gate's
//                        capabilities
//   LobbyMulticast       the lobby's multicast group on the transport's event loops; takes the gate's capability
//   GameTransport        the NIO listener, connection, TLS and spectators; takes the gate's capabilities
//   GameWire             the frame codec on ByteBuffer
//   GamePairing          CPace, the TLS PSK, a code's random draw (the only importer of CSodium)
//   PairingCode          what a game code is: parsed, shown, never logged (pure)
//   LocalNetworkPrivacy  the remembered decision and THE gate: the only maker of LAN capabilities
//   PrivacyReport        the privacy report's file
//   AppManifest          Info.plist with App Transport Security and the service types, the entitlements, the app's
//                        directories, a locked file
//   Localization         the text in the user's language (`tr`)
//   GameEngines          an engine process over pipes as a player (posix_spawn; adjudication, never a hang)
//   EngineProtocol       the engine protocol's codec (docs/ENGINE.md) and the command-line splitter (pure)
//   MatchStatistics      score, Elo with its 95% interval, SPRT (pure)
//   GameProtocol         messages, session and connection states, exit codes (pure: no NIO)
//   GameRules            the rules and the computer players (pure; imports nothing)
//   TextSupport          terminal-safe text, display width, wrapping, paths, white space, the one JSON encoder
//                        (`JSONLine`: sorted keys, controls escaped; pure, imports nothing of the app)
//   CDNSSD, CNCurses, CSodium   the C libraries: Avahi's dns_sd compatibility library, ncursesw, libsodium
//
// Tools, not installed: `transport-bench` (make bench's transport figures) and `GameWireFuzzing` (the fuzzer's
// target, Fuzz/Package.swift). Every module imports FoundationEssentials, never Foundation (no ICU: a smaller and
// faster binary); only the transport bench may.

import PackageDescription

/// Every target in the Swift 6 language mode (complete concurrency checking): `swiftLanguageModes` below.
let package = Package(
    name: "tictactoe",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tictactoe", targets: ["tictactoe"]),
        .library(name: "GameRules", targets: ["GameRules"]),
        // For the benchmark package (Benchmarks/Package.swift: `make bench`'s in-process figures), which builds apart.
        .library(name: "GameProtocol", targets: ["GameProtocol"]),
        .library(name: "GameWire", targets: ["GameWire"]),
        // For the fuzzer's own package (Fuzz/Package.swift), which builds apart from the app.
        .library(name: "GameWireFuzzing", targets: ["GameWireFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // TLS 1.2 PSK for encrypted games (protocol 2); only GameTransport imports NIOSSL.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.0"),
    ],
    targets: [
        // System libraries: exactly one module imports each (CursesTerminal, Bonjour).
        // ncursesw: the shim includes <ncursesw/curses.h> and the modulemap links ncursesw (its pkg-config flags
        // are only -D defines, which SwiftPM refuses).
        .systemLibrary(
            name: "CNCurses",
            providers: [.apt(["libncurses-dev"])]
        ),
        // Avahi's dns_sd: the header only (<avahi-compat-libdns_sd/dns_sd.h>); no pkg-config, whose flags would link
        // libdns_sd. The Bonjour module loads libdns_sd.so.1 with dlopen when a Bonjour operation first needs it
        // (a game that uses no Bonjour does not load it, nor avahi-client, D-Bus and systemd).
        .systemLibrary(
            name: "CDNSSD",
            providers: [.apt(["libavahi-compat-libdnssd-dev"])]
        ),
        // Pairing: libsodium for ristretto255, SHA-512, HMAC-SHA256 and the CSPRNG; only GamePairing imports CSodium.
        // No pkg-config: its flags put -L/usr/lib/x86_64-linux-gnu first on the link's library path, where the shared
        // library would win over the archive the release link takes (the header and the library are in the
        // compiler's and linker's default paths).
        .systemLibrary(
            name: "CSodium",
            providers: [.apt(["libsodium-dev"])]
        ),
        // The code that admits a player to a game: a private game's six digits as typed and shown (never in a log),
        // or the open games' fixed code. Pure: what the TUI checks a typed code with, without libsodium.
        .target(name: "PairingCode"),
        // CPace (draft-irtf-cfrg-cpace-21, ristretto255 + SHA-512), the TLS PSK derived from its key (HKDF), the
        // wire text of the PSK hint and identity, and a private game's random code. No NIO, no I/O.
        .target(
            name: "GamePairing",
            dependencies: ["CSodium", "PairingCode"]),
        // Pure game rules: board, marks, turns, outcomes, players. Imports nothing (not even Foundation).
        .target(name: "GameRules"),
        // The engine protocol (docs/ENGINE.md) without I/O: commands, the response reader, cells and times on the
        // wire, the shell-like splitting of an engine's command line.
        .target(name: "EngineProtocol", dependencies: ["GameRules"]),
        // An engine process as a player: posix_spawn with pipes (its own process group, stderr to a log file), the
        // handshake, and every misbehaviour turned into an `EngineFailure` with the process killed and reaped.
        .target(name: "GameEngines", dependencies: ["EngineProtocol", "GameRules"]),
        // Match statistics without I/O: score, Elo difference with its 95% interval, LOS, SPRT (trinomial model, as
        // cutechess-cli and fastchess).
        .target(name: "MatchStatistics"),
        // Plain text without Foundation's ICU: terminal-safe text (`DisplayText`: escaping what came from outside),
        // display width in terminal columns (`DisplayWidth`), line wrapping by columns and script (`LineWrap`), POSIX
        // paths as text (`PathText`), white-space trimming, and the one JSON encoder every module writes with
        // (`JSONLine`: sorted keys, terminal controls and bidi formatting as `\u` escapes). Pure.
        .target(name: "TextSupport"),
        // The app's text in the user's language: the language asked for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), the
        // manifest's InfoPlist.strings and the messages' Localizable.strings beside it (Assets/<lang>.lproj), and
        // `tr`, the one lookup every message goes through (FoundationEssentials only).
        .target(name: "Localization", dependencies: ["TextSupport"]),
        // The protocol without I/O: messages, handshake, the match session state machine, and the states a game
        // connection goes through (NWConnection-like), and what a typed join target is (`JoinTarget`: an address or a
        // game's name, one rule for the CLI and the TUI), and the exit codes a run ends with (`ExitStatus`, and the
        // protocol by which an error says its own). No NIO: front ends can use these types.
        .target(name: "GameProtocol", dependencies: ["GameRules", "TextSupport"]),
        // The frame codec on NIO's ByteBuffer: length-prefixed frames with a limit checked at the header.
        .target(
            name: "GameWire",
            dependencies: [
                "GameProtocol",
                "GameRules",
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // The invariants of the frame decoder and the message parser on arbitrary bytes, checked by the libFuzzer
        // target (Fuzz/: `make fuzz`) and by the bounded pass in GameProtocolTests. Not part of the app.
        .target(
            name: "GameWireFuzzing",
            dependencies: [
                "GameWire",
                "GameProtocol",
                "GameRules",
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // The app as installed and the files it keeps: the manifest (Assets/Info.plist: usage description, Bonjour
        // service types, App Transport Security), the entitlements, the XDG directories and the locked file several
        // processes share (the decision, the settings).
        .target(
            name: "AppManifest",
            dependencies: [
                "GameProtocol",
                "TextSupport",
                "Localization",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The privacy report's file: one JSON record a line of what the gate decided and asked, rotated, kept 7 days
        // and read back (`tictactoe privacy report`, Settings).
        .target(
            name: "PrivacyReport",
            dependencies: [
                "AppManifest",
                "GameProtocol",
                "TextSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Local network privacy: the remembered decision (and its watch) and THE gate: the only maker of the
        // capabilities that Bonjour and GameTransport require for every local-network operation (browse, advertise,
        // listen, connect, multicast). It depends on neither of them.
        .target(
            name: "LocalNetworkPrivacy",
            dependencies: [
                "AppManifest",
                "PrivacyReport",
                "TextSupport",
                "GameProtocol",
                "Localization",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // TCP over SwiftNIO: a one-game-at-a-time listener and a connection with explicit states; both take the gate's
        // capabilities (a ListenCapability; a ConnectCapability per resolved address). TLS 1.2 PSK for protocol 2:
        // the only importer of NIOSSL; its PSK comes from GamePairing's CPace (PairedPSKExchange).
        .target(
            name: "GameTransport",
            dependencies: [
                "PairingCode",
                "GamePairing",
                "GameProtocol",
                "GameWire",
                "LocalNetworkPrivacy",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The lobby's multicast conversation (`tictactoe lobby`): a connection group in the spirit of Network.framework's
        // NWConnectionGroup, made from the gate's MulticastCapability, on NIO datagram channels.
        .target(
            name: "LobbyMulticast",
            dependencies: [
                "AppManifest",
                "GameTransport",
                "LocalNetworkPrivacy",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The LAN lobby, pure: its datagrams (`LobbyMessage`, docs/LOBBY.md), who is in it (`LobbyRoster`), what
        // happens in it and what the person does (`LobbyEvent`, `LobbyCommand`), and the state machine both front
        // ends' lobbies run (time, datagrams and commands in, actions out). No transport: the live lobby (`runLobby`)
        // carries its actions out.
        .target(name: "Lobby", dependencies: ["GameProtocol", "TextSupport"]),
        // What a front end can ask of the game (host, join, search, local network privacy) as a struct of closures,
        // with the events and reports it sees: the interface half of an interface/live split. No
        // networking types: the TUI depends on this, not on Bonjour, GameTransport, the gate or NIO.
        .target(
            name: "GameClient", dependencies: ["TextSupport", "GameRules", "GameProtocol", "Lobby", "Localization"]),
        // The one event type of the command line's `--json` event lines (`JSONEvent`): a match's events,
        // discovery's, the lobby's, a game record's, a replayed game and a series' own lines, each written by
        // TextSupport's one encoder (`JSONLine`).
        .target(
            name: "JSONLines",
            dependencies: ["GameClient", "GameProtocol", "GameRules", "Lobby", "MatchStatistics", "TextSupport"]),
        // The work of `tictactoe privacy` and `tictactoe manifest`: the gate's state and the remembered decision
        // (`PrivacyStatusReport`), a change to the decision (`PrivacyChange`), the privacy report's lines
        // (`PrivacyReportText`) and what the manifest declares and means (`ManifestReport`).
        .target(
            name: "PrivacyCommands",
            dependencies: [
                "LocalNetworkPrivacy",
                "PrivacyReport",
                "AppManifest",
                "GameProtocol",
                "TextSupport",
                "Localization",
            ]),
        // The process's edges: signals and shutdown (`StopSignal`, `Shutdown`), standard output and error checked on
        // every write, the log file, the main thread's one wait for async work, and the command lines taken without
        // argument-parser (`FastPath`).
        .target(
            name: "AppProcess",
            dependencies: [
                "GameProtocol",
                "TextSupport",
                "Localization",
                "AppManifest",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // One match played: the runner that drives MatchSession over a peer link for the local players (a person at
        // the line, the computer, an engine process), its options, the turn timer and the spectators' feed.
        .target(
            name: "MatchPlay",
            dependencies: [
                "AppProcess",
                "GameClient",
                "GameProtocol",
                "GameRules",
                "GameTransport",
                "GameEngines",
                "EngineProtocol",
                "TextSupport",
                "Localization",
                "AppManifest",
                "LocalNetworkPrivacy",
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        // The files the app keeps for its player: the settings (settings.json), the saved games, and a game record
        // read back (`tictactoe replay`, Past games), each behind GameClient's interface.
        .target(
            name: "AppFiles",
            dependencies: [
                "AppManifest",
                "GameClient",
                "GameProtocol",
                "GameRules",
                "JSONLines",
                "Localization",
                "TextSupport",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The app core: the host, join (by name or address), browse, lobby and service-type coordinators both front
        // ends drive, and `GameClient.live` (every local-network operation through the gate). One clock from the root
        // for every wait (AppCore.swift).
        .target(
            name: "AppCore",
            dependencies: [
                "PrivacyCommands",
                "MatchPlay",
                "AppProcess",
                "Lobby",
                "LobbyMulticast",
                "PrivacyReport",
                "AppManifest",
                "PairingCode",
                "TextSupport",
                "GameClient",
                "GameRules",
                "GameProtocol",
                "GamePairing",
                "GameTransport",
                "Localization",
                "Bonjour",
                "LocalNetworkPrivacy",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The headless front end, the terminal UI's sibling: what the command line writes, as text transcripts or JSON
        // lines (one event a line), the line-mode game, a replayed game's text, and the text of the lobby, discovery,
        // manifest and privacy reports. It reads the events, never the app core that makes them.
        .target(
            name: "HeadlessUI",
            dependencies: [
                "PrivacyCommands",
                "JSONLines",
                "MatchPlay",
                "AppProcess",
                "GameClient",
                "Lobby",
                "GameEngines",
                "GameProtocol",
                "GameRules",
                "TextSupport",
                "Localization",
                "AppManifest",
                "LocalNetworkPrivacy",
            ]),
        // A series of games between two players (`tictactoe match`): the schedule, each game by the rules, an engine
        // or over the network, and the report with its statistics (MatchStatistics), as text or JSON lines.
        .target(
            name: "Series",
            dependencies: [
                "JSONLines",
                "MatchPlay",
                "AppProcess",
                "AppCore",
                "HeadlessUI",
                "MatchStatistics",
                "GameClient",
                "GameEngines",
                "GameProtocol",
                "GameRules",
                "GameTransport",
                "Bonjour",
                "TextSupport",
                "AppManifest",
                "LocalNetworkPrivacy",
            ]),
        // Bonjour discovery on Avahi's dns_sd compatibility library: advertise, browse, resolve. The only importer
        // of CDNSSD.
        .target(
            name: "Bonjour",
            dependencies: [
                "CDNSSD",
                "GameProtocol",
                "LocalNetworkPrivacy",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The terminal seam and what every screen draws and edits with, screen-agnostic: keys, the `Terminal`
        // protocol and the queue that wakes its wait from other threads, the canvas, the line editor, the board's
        // layout and drawing, a question in a box.
        .target(
            name: "TerminalWidgets",
            dependencies: ["TextSupport", "Localization", "GameRules", "GameProtocol"]),
        // What each network screen shows, as a pure value that GameClient's reports update, with the keys that act on
        // it alone: a match with a person (`NetworkGame`), a watched one, the games and service types found, the
        // lobby, the local network prompt, the host/join/watch form (EngineProtocol checks its engine command) and a
        // private game's code as typed (PairingCode checks it).
        .target(
            name: "NetworkScreenState",
            dependencies: [
                "TerminalWidgets", "TextSupport", "GameClient", "Lobby", "Localization", "PairingCode",
                "EngineProtocol",
                "GameRules", "GameProtocol",
            ]),
        // Screens, input handling and the UI event loop, written against a small `Terminal` seam (no curses here).
        .target(
            name: "TerminalUI",
            dependencies: [
                "TerminalWidgets",
                "NetworkScreenState",
                "TextSupport",
                "GameClient",
                "Lobby",
                "Localization",
                "GameRules",
                "GameProtocol",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The real terminal: the only importer of CNCurses.
        .target(
            name: "CursesTerminal",
            dependencies: ["CNCurses", "TerminalWidgets", "GameProtocol"]),
        .executableTarget(
            name: "tictactoe",
            dependencies: [
                "AppFiles",
                "PrivacyReport",
                "AppManifest",
                "TextSupport",
                "AppCore",
                "Lobby",
                "GameClient",
                "PrivacyCommands",
                "JSONLines",
                "MatchPlay",
                "AppProcess",
                "HeadlessUI",
                "Series",
                "TerminalUI",
                "CursesTerminal",
                "Bonjour",
                "GameProtocol",
                "LocalNetworkPrivacy",
                "Localization",
                "MatchStatistics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The release link (make install, make bench): lld, the toolchain's linker (clang's default here, gold,
            // has no packed relocations), with packed relative relocations (DT_RELR, glibc 2.36+), so that the
            // position-independent binary's relocation table is a small fraction of its size for the loader to read;
            // and no dynamic symbol table of the executable's own (the static Swift runtime's link arguments export
            // every symbol, though nothing looks one up; --no-export-dynamic comes after them and wins). libgcc's
            // unwinder is linked in (-static-libgcc), and so are libstdc++, libsodium, ncursesw and tinfo when
            // scripts/static-libs.sh has linked their archives into .build/static-libs, searched first (-ltinfo: the
            // shared ncursesw brings tinfo through a linker script, its archive does not); a missing archive leaves
            // that library shared. The binary then loads only libc and libm (glibc's libm.a needs libc's internals).
            linkerSettings: [
                .unsafeFlags(
                    ["-L", "\(Context.packageDirectory)/.build/static-libs", "-ltinfo", "-Xclang-linker", "-static-libgcc",
                     "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                     "-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        // `make bench`'s figures for the secure transport: joins with and without CPace + TLS, and move
        // round trips over TLS and plaintext, on 127.0.0.1. A release-build tool: `make install` does not install it.
        .executableTarget(
            name: "transport-bench",
            dependencies: [
                "PairingCode",
                "GameTransport",
                "GamePairing",
                "GameProtocol",
                "GameRules",
                "LocalNetworkPrivacy",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Helpers shared by the test targets: the built binary's path, a quiet posix_spawn, a tmux driver, a recorder,
        // temporary directories, a recording logger, manifests and the one gate fixture.
        .target(
            name: "TicTacToeTestSupport",
            dependencies: [
                "LocalNetworkPrivacy", "AppManifest", "PrivacyReport", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"),
        .testTarget(name: "GameRulesTests", dependencies: ["GameRules"]),
        .testTarget(name: "EngineProtocolTests", dependencies: ["EngineProtocol", "GameRules"]),
        .testTarget(name: "MatchStatisticsTests", dependencies: ["MatchStatistics"]),
        // The lobby in process: its wire format, its roster, its machine (whose challenge check is the live lobby's).
        .testTarget(
            name: "LobbyTests",
            dependencies: ["Lobby", "AppCore", "HeadlessUI", "JSONLines", "GameClient", "GameProtocol",
                           "TicTacToeTestSupport"]),
        // The JSON lines: escaping (lossless, terminal controls and bidi as `\u`) and each event's line.
        .testTarget(
            name: "JSONLinesTests",
            dependencies: [
                "JSONLines", "HeadlessUI", "AppCore", "TicTacToeTestSupport", "GameClient", "GameProtocol",
                "GameRules", "TextSupport",
            ]),
        // What the command line writes: transcripts, JSON lines (escaping, samples), the line game, the reports' text.
        .testTarget(
            name: "HeadlessUITests",
            dependencies: [
                "AppFiles", "HeadlessUI", "AppCore", "PrivacyCommands", "JSONLines", "MatchPlay", "Series", "TicTacToeTestSupport", "AppManifest", "LocalNetworkPrivacy",
                "GameClient", "GameProtocol", "GameRules", "TextSupport", "MatchStatistics",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The process's edges: checked output and its gathering, the log file, signals and shutdown, the fast path.
        .testTarget(
            name: "AppProcessTests",
            dependencies: [
                "AppProcess", "AppCore", "HeadlessUI", "TicTacToeTestSupport", "GameClient", "GameProtocol",
                "TextSupport", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "SeriesTests", dependencies: [
                "Series", "MatchPlay", "AppCore", "GameRules", "MatchStatistics", "TicTacToeTestSupport",
                "AppProcess", "GameProtocol",
            ]),
        // One match's players: the `--player` and `--computer` specs.
        .testTarget(name: "MatchPlayTests", dependencies: ["MatchPlay"]),
        .testTarget(name: "TextSupportTests", dependencies: ["TextSupport", "Localization", "GameRules", "GameProtocol"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "TicTacToeTestSupport"]),
        .testTarget(name: "PairingCodeTests", dependencies: ["PairingCode"]),
        .testTarget(name: "GamePairingTests", dependencies: ["GamePairing", "PairingCode"]),
        .testTarget(
            name: "GameProtocolTests",
            dependencies: [
                "GameProtocol",
                "GameWire",
                "GameWireFuzzing",
                "GameRules",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        .testTarget(
            name: "GameTransportTests",
            dependencies: [
                "PairingCode",
                "TicTacToeTestSupport",
                "GameTransport",
                "GamePairing",
                "GameProtocol",
                "GameWire",
                "LocalNetworkPrivacy",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        .testTarget(
            name: "AppManifestTests",
            dependencies: ["AppManifest", "TicTacToeTestSupport"]),
        .testTarget(
            name: "PrivacyReportTests",
            dependencies: ["PrivacyReport", "TicTacToeTestSupport"]),
        .testTarget(
            name: "LocalNetworkPrivacyTests",
            dependencies: [
                "PrivacyReport",
                "AppManifest",
                "LocalNetworkPrivacy", "GameTransport", "GameProtocol", "TicTacToeTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "BonjourTests",
            dependencies: ["TextSupport", "Bonjour", "GameProtocol", "LocalNetworkPrivacy", "TicTacToeTestSupport"]),
        .testTarget(name: "TerminalWidgetsTests", dependencies: ["TerminalWidgets"]),
        // The screens over a fake terminal; with the app core's files (settings, saved games, the manifest's prompt)
        // in a scratch directory where a test follows a setting or a game through a relaunch.
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "AppFiles", "TextSupport", "TerminalWidgets", "NetworkScreenState", "TerminalUI", "GameClient", "Lobby",
                "GameRules",
                "GameProtocol", "Localization", "AppCore", "AppManifest", "AppProcess", "TicTacToeTestSupport",
            ]),
        // The app core: coordinators in process over loopback, exit codes, waiting with a clock the test advances.
        .testTarget(
            name: "AppCoreTests",
            dependencies: [
                "AppFiles",
                "PrivacyReport",
                "AppManifest",
                "PairingCode",
                "TextSupport",
                "AppCore", "JSONLines", "MatchPlay", "AppProcess", "HeadlessUI", "Series", "GameClient",
                "TicTacToeTestSupport", "LocalNetworkPrivacy", "GameTransport",
                "GameProtocol", "Bonjour", "Lobby",
                "GamePairing", "GameRules", "GameWire", "MatchStatistics",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Inside the project's LAN lab (network namespaces with their own avahi-daemon): needs root; skipped with a
        // reason outside CI, a failure in CI.
        .testTarget(name: "LabTests", dependencies: ["TextSupport", "TicTacToeTestSupport", "GameProtocol"]),
        // Real processes: the built `tictactoe` binary against itself and raw TCP peers on loopback, and engine
        // processes (the engine adapter's own tests, misbehaving engines, the samples in Assets/engines).
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TextSupport",
                "TicTacToeTestSupport",
                "GameProtocol",
                "GameEngines",
                "EngineProtocol",
                "GameRules",
                "GameWire",
                "GameClient",
                "GameTransport",
                "JSONLines",
                "MatchPlay",
                "AppCore",
                "LocalNetworkPrivacy",
                "AppManifest",
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)

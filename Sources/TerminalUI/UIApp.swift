import GameClient
import Localization
import FoundationEssentials
import GameProtocol
import Logging

#if canImport(Glibc)
import Glibc
import TerminalWidgets
#endif

/// The UI loop: one thread does every terminal call. Keys come from the terminal, network and signal events
/// through the `EventQueue`, timers from the loop's own deadline list; between them the process sleeps in `poll`.
public final class UIApp {
    public let queue = EventQueue<AppInput>()
    private let terminal: Terminal
    private let client: GameClient
    /// Where a changed setting is kept (`settings.json`; nothing in tests).
    private let settingsStore: SettingsClient
    /// Where finished games are kept (`$XDG_DATA_HOME/tictactoe/games`; nothing in tests).
    private let gameArchive: GameArchiveClient
    private var privacy: PrivacyClient { client.privacy }
    private let promptAtLaunch: Bool
    private var watching: SessionHandle?
    private let clock: () -> Duration
    private let logger: Logger
    private var colors: Bool
    public private(set) var model: AppModel
    private var timers: [TimerID: Duration] = [:]
    private var handle: SessionHandle?
    private var browsing: SessionHandle?
    /// All services on this network, while it lists them.
    private var listingTypes: SessionHandle?
    /// The lobby, while the person is in it, and its number: updates of lobbies left since are dropped.
    private var lobby: LobbyHandle?
    private var lobbySession = 0
    private var session = 0
    /// The engine playing the computer's side (Play against an engine), and its number: events of engines stopped
    /// since are dropped.
    private var engine: EngineHandle?
    private var engineSession = 0
    private let privacyLogger = Logger(label: "tictactoe.privacy")

    /// The time on `clock` since this call: what the event loop's timers are measured on. The root passes the
    /// process's `ContinuousClock`; a test, its fake terminal's time.
    public static func elapsed(on clock: some Clock<Duration>) -> () -> Duration {
        clock.stopwatch()
    }

    public init(
        terminal: Terminal,
        settings: UISettings,
        client: GameClient,
        settingsStore: SettingsClient = .none,
        gameArchive: GameArchiveClient = .none,
        replay: ReplayViewer? = nil,
        promptAtLaunch: Bool = false,
        colors: Bool = true,
        seed: UInt64 = UInt64.random(in: 0...UInt64(UInt32.max)),
        clock: @escaping () -> Duration,
        logger: Logger = Logger(label: "tictactoe.ui")
    ) {
        self.terminal = terminal
        self.client = client
        self.settingsStore = settingsStore
        self.gameArchive = gameArchive
        self.promptAtLaunch = promptAtLaunch
        self.clock = clock
        self.colors = colors
        self.logger = logger
        let size = TerminalSize(rows: 24, columns: 80)
        if let replay {
            self.model = AppModel(settings: settings, size: size, replay: replay)
        } else {
            self.model = AppModel(settings: settings, size: size, seed: seed)
        }
    }

    /// Runs until the person quits; returns the exit status. The terminal is restored on every way out.
    public func run() throws -> ExitStatus {
        try terminal.start(colors: colors)
        // A terminal that cannot show UTF-8 (the ASCII mode: the locale named in the environment may not even be
        // installed) shows English, whatever LANGUAGE asks for: the other languages' characters would be garbage.
        if !terminal.unicode {
            Localization.current = Localization.current.inEnglish(
                because: "the terminal is not UTF-8 (is the locale installed? locale -a lists them)")
        }
        defer {
            browsing?.cancel()
            listingTypes?.cancel()
            lobby?.cancel()
            watching?.cancel()
            engine?.stop()
            terminal.stop()
        }
        model.size = terminal.size
        // Deferred prompting: launching touches no network. Only --prompt-at-launch asks (and browses) right away.
        if promptAtLaunch, let status = apply(.launchEagerly) { return status }
        var dirty = true
        while true {
            if dirty {
                terminal.useColors(model.settings.colors)  // the Colours setting, as it is now
                terminal.present(model.render(unicode: terminal.unicode))
                dirty = false
            }
            let timeout = timers.values.min().map { max(.zero, $0 - clock()) }
            let alive = terminal.waitForInput(timeout: timeout, wakeDescriptor: queue.wakeDescriptor)
            var inputs: [AppInput] = terminal.readKeys().map { $0 == .resize ? .resized(terminal.size) : .key($0) }
            if queue.takeResize() {
                terminal.applyResize()
                inputs.append(.resized(terminal.size))
            }
            inputs += queue.drain().filter { input in
                if case .network(_, let id) = input { return id == session }
                if case .engine(_, let id) = input { return id == engineSession && engine != nil }
                if case .lobby(_, let id) = input { return id == lobbySession }
                return true
            }
            let now = clock()
            for (id, deadline) in timers.sorted(by: { $0.value < $1.value }) where deadline <= now {
                timers[id] = nil
                inputs.append(.timer(id))
            }
            if inputs.isEmpty {
                if !alive { return .success }
                continue
            }
            dirty = true
            for input in inputs {
                if let status = apply(input) { return status }
            }
        }
    }

    /// Hands `input` to the model and carries out its effects; answers the runtime has at once (the gate's verdict,
    /// the privacy state) go back to the model before anything else. Returns the exit status once the model quits.
    private func apply(_ input: AppInput) -> ExitStatus? {
        var inputs = [input]
        while !inputs.isEmpty {
            let next = inputs.removeFirst()
            var immediate: [AppInput] = []
            for effect in model.handle(next) {
                switch perform(effect) {
                case .quit(let status): return status
                case .feed(let more): immediate += more
                }
            }
            inputs = immediate + inputs
        }
        return nil
    }

    private enum Performed {
        case feed([AppInput])
        case quit(ExitStatus)
    }

    private func privacyInfo() -> [AppInput] {
        [.privacy(privacy.info())]
    }

    private func perform(_ effect: AppEffect) -> Performed {
        switch effect {
        case .schedule(let id, let delay):
            timers[id] = clock() + delay
        case .host, .watch, .join, .lobbyGame, .command, .cancelNetwork:
            performMatch(effect)
        case .startBrowsing, .stopBrowsing, .startServiceTypes, .stopServiceTypes, .startLobby, .stopLobby,
             .lobbyCommand:
            performDiscovery(effect)
        case .checkNetwork, .answerPrompt, .setLocalNetwork, .resetLocalNetwork, .loadPrivacyInfo:
            return .feed(performPrivacy(effect))
        case .saveSettings, .saveGame, .loadPastGames:
            return .feed(performStorage(effect))
        case .startEngine, .engineMove, .stopEngine:
            performEngine(effect)
        case .quit(let status):
            return .quit(status)
        }
        return .feed([])
    }

    /// A match or a watch: each new one is a new session, so that what an abandoned one still reports is dropped.
    private func performMatch(_ effect: AppEffect) {
        switch effect {
        case .host(let name, let port, let security, let spectators):
            handle?.cancel()
            session += 1
            let id = session
            let watchers = spectators > 0 ? " for up to \(spectators) spectators" : ""
            logger.info("hosting \(security == .private ? "a private game " : "")as \(name) on port \(port)\(watchers)")
            handle = client.host(name, port, security, spectators) { [queue] in
                queue.post(.network($0, session: id))
            }
        case .watch(let name, let address, let code):
            handle?.cancel()
            session += 1
            let id = session
            logger.info("watching \(address) as \(name)\(code == nil ? "" : " with a code")")
            handle = client.watch(name, address, code) { [queue] in queue.post(.network($0, session: id)) }
        case .join(let name, let address, let code):
            handle?.cancel()
            session += 1
            let id = session
            // Never the code itself: only whether one was given.
            logger.info("joining \(address) as \(name)\(code == nil ? "" : " with a code")")
            handle = client.join(name, address, code) { [queue] in queue.post(.network($0, session: id)) }
        case .lobbyGame(let name, let game):
            handle?.cancel()
            session += 1
            let id = session
            let what = game == .host ? "hosting the game of a challenge" : "joining a challenger's game"
            logger.info("\(what) as \(name)")
            handle = client.lobbyGame(name, game) { [queue] in queue.post(.network($0, session: id)) }
        case .command(let command):
            handle?.send(command)
        case .cancelNetwork:
            handle?.cancel()
        default:
            break
        }
    }

    /// Search for games, All services on this network, and the lobby.
    private func performDiscovery(_ effect: AppEffect) {
        switch effect {
        case .startBrowsing:
            browsing?.cancel()
            browsing = client.browse { [queue] in queue.post(.discovery($0)) }
        case .stopBrowsing:
            browsing?.cancel()
            browsing = nil
        case .startServiceTypes:
            listingTypes?.cancel()
            listingTypes = client.serviceTypes { [queue] in queue.post(.serviceTypes($0)) }
        case .stopServiceTypes:
            listingTypes?.cancel()
            listingTypes = nil
        case .startLobby(let name):
            lobby?.cancel()
            lobbySession += 1
            let id = lobbySession
            logger.info("joining the lobby as \(name)")
            lobby = client.lobby(name) { [queue] in queue.post(.lobby($0, session: id)) }
        case .stopLobby:
            // Leaving says so to the others; what it reports afterwards is dropped (a new number).
            lobby?.cancel()
            lobby = nil
            lobbySession += 1
        case .lobbyCommand(let command):
            lobby?.send(command)
        default:
            break
        }
    }

    /// The privacy gate and the decision: their answers go back to the model at once.
    private func performPrivacy(_ effect: AppEffect) -> [AppInput] {
        switch effect {
        case .checkNetwork(let intent):
            let (verdict, prompt) = privacy.verdict(intent)
            logger.info("local network for \(intent): \(verdict)")
            if verdict == .needsPrompt {
                privacyLogger.info("prompt shown for \(intent): \(prompt?.title ?? "")")
            }
            return [.gate(verdict, intent, prompt: prompt.map { ($0.title, $0.message) })]
        case .answerPrompt(let allow):
            privacy.answerPrompt(allow)
        case .setLocalNetwork(let allowed):
            privacy.setAllowed(allowed)
        case .resetLocalNetwork:
            privacy.reset()
        case .loadPrivacyInfo:
            if watching == nil {
                // Settings follows decisions made elsewhere (another process, `tictactoe privacy grant`).
                // The watcher calls from its own thread: it only posts; the decision is read here, on the UI thread.
                watching = privacy.watch { [queue] in queue.post(.privacyChanged) }
            }
        default:
            return []
        }
        return privacyInfo()
    }

    /// The settings and the saved games, on disk.
    private func performStorage(_ effect: AppEffect) -> [AppInput] {
        switch effect {
        case .saveSettings(let settings):
            // A failure is one warning in the status line; the game goes on with the settings as they are.
            if let warning = settingsStore.save(settings.stored) { return [.notice(tr("Warning: %@", warning))] }
        case .saveGame(let record):
            // Never a crash or a lost game: a failure is a warning in the log and the status line.
            if let warning = gameArchive.save(record) {
                logger.warning("\(warning)")
                return [.notice(tr("Warning: %@", warning))]
            }
        case .loadPastGames:
            return [.pastGames(gameArchive.list())]
        default:
            break
        }
        return []
    }

    /// The engine playing the computer's side: each one started is a new session, as a match is.
    private func performEngine(_ effect: AppEffect) {
        switch effect {
        case .startEngine(let command):
            engine?.stop()
            engineSession += 1
            let id = engineSession
            logger.info("starting an engine for play against the computer")
            engine = client.engine(command) { [queue] in queue.post(.engine($0, session: id)) }
        case .engineMove(let game, let position):
            engine?.move(game, position)
        case .stopEngine:
            engine?.stop()
            engine = nil
        default:
            break
        }
    }
}

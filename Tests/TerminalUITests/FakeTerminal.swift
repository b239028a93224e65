import Foundation
import GameClient
import GameProtocol
import Lobby
import Synchronization
import TerminalUI
import TerminalWidgets

/// A terminal for tests: replays a script of keys and resizes, records every frame as text, and keeps a virtual
/// clock that jumps to the next timer when the script is waiting.
final class FakeTerminal: Terminal {
    enum Step {
        case key(Key)
        case keys(String)
        case resize(TerminalSize)
        /// Something from the network or a signal, posted to the app's queue.
        case input(AppInput)
        /// Let time pass (timers fire).
        case wait(Duration)
        /// A network event for the latest host/join.
        case network(NetworkEvent)
        /// A browser event for the running search.
        case discovery(DiscoveryUpdate)
        /// Search is waiting for permission, or cannot browse.
        case discoveryUpdate(DiscoveryUpdate)
        /// What the running "All services on this network" listing reports.
        case serviceTypes(ServiceTypesUpdate)
        /// What the running lobby reports.
        case lobby(LobbyUpdate)
    }

    private var script: [Step]
    private(set) var frames: [Canvas] = []
    private(set) var size: TerminalSize
    let unicode: Bool
    private(set) var colors = false
    private(set) var started = false
    private(set) var stopped = false
    var now: Duration = .seconds(1000)
    weak var queue: EventQueue<AppInput>?
    weak var network: FakeNetwork?
    private var pendingKeys: [Key] = []

    init(size: TerminalSize = TerminalSize(rows: 30, columns: 100), unicode: Bool = true, script: [Step]) {
        self.size = size
        self.unicode = unicode
        self.script = script
    }

    /// What `start(colors:)` was told: whether the Colours setting can turn colours on.
    private var colorsAvailable = false

    func start(colors: Bool) throws {
        started = true
        colorsAvailable = colors
        self.colors = colors
    }

    func useColors(_ on: Bool) { colors = colorsAvailable && on }

    func stop() { stopped = true }

    func present(_ canvas: Canvas) { frames.append(canvas) }

    var lastFrame: String { frames.last?.text ?? "" }

    /// The last frame's words in reading order, box lines and wrapping removed (to find sentences that wrap).
    var lastFrameWords: String { flattened(lastFrame) }

    func waitForInput(timeout: Duration?, wakeDescriptor: Int32) -> Bool {
        guard !script.isEmpty else {
            if let timeout {
                now += timeout
                return true
            }
            return false
        }
        switch script.removeFirst() {
        case .key(let key): pendingKeys.append(key)
        case .keys(let text): pendingKeys += text.map { Key.character($0) }
        case .resize(let newSize):
            size = newSize
            pendingKeys.append(.resize)
        case .input(let input): queue?.post(input)
        case .wait(let duration): now += duration
        case .network(let event): network?.deliver(event)
        case .discovery(let update): network?.deliverDiscovery(update)
        case .discoveryUpdate(let update): network?.deliverDiscovery(update)
        case .serviceTypes(let update): network?.deliverServiceTypes(update)
        case .lobby(let update): network?.deliverLobby(update)
        }
        return true
    }

    func applyResize() {}

    func readKeys() -> [Key] {
        defer { pendingKeys = [] }
        return pendingKeys
    }
}

/// A network that records what the UI asked for and lets tests answer.
final class FakeNetwork {
    /// What the UI did with one host, join or search (the handle's closures are `@Sendable`).
    final class Handle: Sendable {
        private let state = Mutex<(sent: [LocalCommandRecord], cancelled: Bool)>(([], false))
        var sent: [LocalCommandRecord] { state.withLock { $0.sent } }
        var cancelled: Bool { state.withLock { $0.cancelled } }
        func send(_ command: LocalCommand) { state.withLock { $0.sent.append(LocalCommandRecord(command)) } }
        func cancel() { state.withLock { $0.cancelled = true } }
    }

    private(set) var hosted: [(name: String, port: Int, security: GameSecurity)] = []
    /// How many spectators each host allowed.
    private(set) var hostedSpectators: [Int] = []
    private(set) var watched: [(name: String, address: String, code: String?)] = []
    private(set) var joined: [(name: String, address: String, code: String?)] = []
    private(set) var handles: [Handle] = []
    private var events: (@Sendable (NetworkEvent) -> Void)?

    func deliver(_ event: NetworkEvent) { events?(event) }

    private(set) var browses = 0
    private(set) var browseHandles: [Handle] = []
    private var discovery: (@Sendable (DiscoveryUpdate) -> Void)?

    func deliverDiscovery(_ update: DiscoveryUpdate) { discovery?(update) }

    func browse(events: @escaping @Sendable (DiscoveryUpdate) -> Void) -> Handle {
        browses += 1
        discovery = events
        let handle = Handle()
        browseHandles.append(handle)
        return handle
    }

    /// All services on this network: each listing the UI started, and its handle.
    private(set) var typeListings: [Handle] = []
    private var serviceTypes: (@Sendable (ServiceTypesUpdate) -> Void)?

    func deliverServiceTypes(_ update: ServiceTypesUpdate) { serviceTypes?(update) }

    func listServiceTypes(events: @escaping @Sendable (ServiceTypesUpdate) -> Void) -> Handle {
        serviceTypes = events
        let handle = Handle()
        typeListings.append(handle)
        return handle
    }

    /// The lobbies the UI joined (as which name), and what it did with each.
    final class LobbyRecord: Sendable {
        let name: String
        private let state = Mutex<(sent: [LobbyCommand], cancelled: Bool)>(([], false))
        var sent: [LobbyCommand] { state.withLock { $0.sent } }
        var cancelled: Bool { state.withLock { $0.cancelled } }
        init(name: String) { self.name = name }
        var handle: LobbyHandle {
            LobbyHandle(send: { command in self.state.withLock { $0.sent.append(command) } },
                        cancel: { self.state.withLock { $0.cancelled = true } })
        }
    }

    private(set) var lobbies: [LobbyRecord] = []
    /// The lobby's games the UI started (hosted for a challenge, or a challenger's joined), and their handles.
    private(set) var lobbyGames: [LobbyGame] = []

    func lobbyGame(name: String, game: LobbyGame, events: @escaping @Sendable (NetworkEvent) -> Void) -> Handle {
        self.events = events
        lobbyGames.append(game)
        let handle = Handle()
        handles.append(handle)
        return handle
    }
    private var lobbyUpdates: (@Sendable (LobbyUpdate) -> Void)?

    func deliverLobby(_ update: LobbyUpdate) { lobbyUpdates?(update) }

    func lobby(name: String, events: @escaping @Sendable (LobbyUpdate) -> Void) -> LobbyHandle {
        lobbyUpdates = events
        let record = LobbyRecord(name: name)
        lobbies.append(record)
        return record.handle
    }

    func host(name: String, port: Int, security: GameSecurity, spectators: Int = 0,
              events: @escaping @Sendable (NetworkEvent) -> Void) -> Handle
    {
        self.events = events
        hosted.append((name, port, security))
        hostedSpectators.append(spectators)
        let handle = Handle()
        handles.append(handle)
        return handle
    }

    func watch(name: String, address: String, code: String?, events: @escaping @Sendable (NetworkEvent) -> Void)
        -> Handle
    {
        self.events = events
        watched.append((name, address, code))
        let handle = Handle()
        handles.append(handle)
        return handle
    }

    func join(name: String, address: String, code: String?, events: @escaping @Sendable (NetworkEvent) -> Void)
        -> Handle
    {
        self.events = events
        joined.append((name, address, code))
        let handle = Handle()
        handles.append(handle)
        return handle
    }
}


struct LocalCommandRecord: Equatable, Sendable {
    let command: LocalCommand
    init(_ command: LocalCommand) { self.command = command }
}

/// Runs an app over a fake terminal until its script ends; returns the exit status.
/// A privacy gate stand-in: a fixed verdict per intent kind, and a record of what the UI did with it.
final class FakePrivacy {
    var state: LocalNetworkState = .notDetermined
    var noAuth = false
    /// The app's entitlements lack the multicast one: listing every service type is refused at once.
    var missingMulticastEntitlement = false
    private(set) var answers: [Bool] = []
    private(set) var verdictRequests: [NetworkIntent] = []
    var title = "“TicTacToe” would like to find and connect to devices on your local network."
    var message = "TicTacToe uses the local network to discover players around you."

    init(state: LocalNetworkState = .notDetermined) {
        self.state = state
    }

    func verdict(for intent: NetworkIntent) -> (LocalNetworkVerdict, prompt: PromptText?) {
        verdictRequests.append(intent)
        if case .join(_, let address) = intent, address.hasPrefix("127.") { return (.exempt, nil) }
        if intent == .browseServiceTypes || intent == .lobby, missingMulticastEntitlement {
            return (.missingEntitlement("com.apple.developer.networking.multicast"), nil)
        }
        if noAuth { return (.noAuth(serviceType: "_tictactoe._tcp"), nil) }
        switch state {
        case .allowed: return (.allowed, nil)
        case .denied: return (.denied, nil)
        case .notDetermined: return (.needsPrompt, PromptText(title: title, message: message))
        }
    }

    func answerPrompt(allow: Bool) {
        answers.append(allow)
        state = allow ? .allowed : .denied
    }

    func setAllowed(_ allowed: Bool) { state = allowed ? .allowed : .denied }
    func reset() { state = .notDetermined }

    /// The privacy report's latest records, newest first, as Settings gets them.
    var activity: [PrivacyActivity] = []

    func info() -> PrivacyInfo {
        PrivacyInfo(state: state, usageDescription: message, services: ["_tictactoe._tcp"], manifestPath: "/x/Info.plist",
                    manifestError: nil, decisionFile: "/x/local-network.json", logFile: "/x/tictactoe.log",
                    entitlements: ["com.apple.developer.networking.multicast"],
                    reportFile: "/x/privacy-report.jsonl", activity: activity)
    }

}

@discardableResult
func runApp(_ terminal: FakeTerminal, network: FakeNetwork = FakeNetwork(),
            privacy: FakePrivacy = FakePrivacy(state: .allowed),
            promptAtLaunch: Bool = false, settings: UISettings = UISettings(name: "tester"),
            seed: UInt64 = 7, colors: Bool = true, archive: GameArchiveClient = .none) throws -> (UIApp, ExitStatus) {
    let app = UIApp(terminal: terminal, settings: settings, client: fakeClient(network, privacy),
                    gameArchive: archive, promptAtLaunch: promptAtLaunch, colors: colors, seed: seed,
                    clock: { [unowned terminal] in terminal.now })
    terminal.queue = app.queue
    terminal.network = network
    let status = try app.run()
    return (app, status)
}

/// Screen text with box-drawing characters dropped and all whitespace collapsed to single spaces.
func flattened(_ screen: String) -> String {
    screen.replacingOccurrences(of: "│", with: " ").replacingOccurrences(of: "|", with: " ")
        .split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
}

extension FakeNetwork.Handle {
    var sessionHandle: SessionHandle {
        SessionHandle(send: { self.send($0) }, cancel: { self.cancel() })
    }
}

/// The client the UI under test drives: the fakes record what it asked for and let the test answer.
func fakeClient(_ network: FakeNetwork, _ privacy: FakePrivacy) -> GameClient {
    GameClient(
        host: { network.host(name: $0, port: $1, security: $2, spectators: $3, events: $4).sessionHandle },
        join: { network.join(name: $0, address: $1, code: $2, events: $3).sessionHandle },
        watch: { network.watch(name: $0, address: $1, code: $2, events: $3).sessionHandle },
        browse: { network.browse(events: $0).sessionHandle },
        serviceTypes: { network.listServiceTypes(events: $0).sessionHandle },
        lobby: { network.lobby(name: $0, events: $1) },
        lobbyGame: { network.lobbyGame(name: $0, game: $1, events: $2).sessionHandle },
        privacy: PrivacyClient(
            verdict: { privacy.verdict(for: $0) },
            answerPrompt: { privacy.answerPrompt(allow: $0) },
            setAllowed: { privacy.setAllowed($0) },
            reset: { privacy.reset() },
            info: { privacy.info() },
            watch: { _ in SessionHandle(cancel: {}) }
        )
    )
}

import AppManifest
import Bonjour
import FoundationEssentials
import GameClient
import GamePairing
import GameProtocol
import GameTransport
import Lobby
import LocalNetworkPrivacy
import MatchPlay
import PairingCode
import PrivacyCommands
import PrivacyReport

#if canImport(Glibc)
import Glibc
#endif

/// The real network: host and join through the same coordinators as the headless commands (`InteractiveSession`),
/// search through Bonjour; every local-network operation needs a capability only the gate mints.
struct LiveNetwork {
    let gate: LocalNetworkGate
    /// The root's clock, for every session it starts.
    let clock: any Clock<Duration>

    func host(
        name: String, port: Int, security: GameSecurity, spectators: Int,
        events: @escaping @Sendable (NetworkEvent) -> Void
    ) -> SessionHandle {
        InteractiveSession.host(
            name: name, port: port, security: security, spectators: spectators,
            origin: security == .private ? .privateHostScreen : .hostScreen, gate: gate, clock: clock,
            // The code goes to the host's screen only, beside the reports (never one of them).
            showCode: { code, replacedBecause in
                guard let digits = code.revealed else { return }
                events(.privateCode(digits, replacedBecause: replacedBecause))
            },
            report: { events(.report($0)) }, finished: { events(.finished($0)) }
        ).handle
    }

    func join(
        name: String, address: String, code: String?, watching: Bool = false,
        events: @escaping @Sendable (NetworkEvent) -> Void
    ) -> SessionHandle {
        let target: JoinTarget
        let gameCode: GameCode?
        do {
            target = try JoinTarget(parsing: address)
            gameCode = try code.map { try GameCode(parsing: $0) }  // the error never repeats the code
        } catch {
            events(.report(.error("\(error)", .usage)))
            events(.finished(.usage))
            return .finished
        }
        if watching {
            return InteractiveSession.watch(
                name: name, target: target, security: .encrypted(code: gameCode), gate: gate, clock: clock,
                report: { events(.report($0)) }, finished: { events(.finished($0)) }
            ).handle
        }
        return InteractiveSession.join(
            name: name, target: target, security: .encrypted(code: gameCode), gate: gate, clock: clock,
            report: { events(.report($0)) }, finished: { events(.finished($0)) }
        ).handle
    }

    func browse(events: @escaping @Sendable (DiscoveryUpdate) -> Void) -> SessionHandle {
        let (gate, clock) = (gate, clock)
        let task = Task { await searchGames(gate: gate, origin: .searchScreen, clock: clock, onUpdate: events) }
        return SessionHandle(cancel: { task.cancel() })
    }

    func lobby(name: String, events: @escaping @Sendable (LobbyUpdate) -> Void) -> LobbyHandle {
        let (gate, clock) = (gate, clock)
        let (commands, input) = AsyncStream<LobbyCommand>.makeStream()
        let task = Task {
            let status = await runLobby(
                LobbyRequest(name: name, origin: .lobbyScreen, policy: .init(interactive: true)),
                games: .askingFrontEnd(events), gate: gate, commands: commands, report: { events(.event($0)) },
                clock: clock)
            events(.ended(status))
        }
        return LobbyHandle(send: { input.yield($0) }, cancel: { task.cancel() })
    }

    func lobbyGame(name: String, game: LobbyGame, events: @escaping @Sendable (NetworkEvent) -> Void) -> SessionHandle {
        switch game {
        case .host:
            return InteractiveSession.host(
                name: name, port: 0, advertise: false, origin: .lobbyScreen, gate: gate, clock: clock,
                report: { events(.report($0)) }, finished: { events(.finished($0)) }
            ).handle
        case .join(let address, let port):
            return InteractiveSession.join(
                name: name, target: .address(Endpoint(host: address, port: port)), origin: .lobbyScreen, gate: gate,
                clock: clock,
                report: { events(.report($0)) }, finished: { events(.finished($0)) }
            ).handle
        }
    }

    func serviceTypes(events: @escaping @Sendable (ServiceTypesUpdate) -> Void) -> SessionHandle {
        let (gate, clock) = (gate, clock)
        let task = Task {
            await watchServiceTypes(gate: gate, origin: .serviceTypesScreen, clock: clock, onUpdate: events)
        }
        return SessionHandle(cancel: { task.cancel() })
    }
}

extension InteractiveSession {
    /// The session as a front end holds it.
    public var handle: SessionHandle { SessionHandle(send: { self.send($0) }, cancel: { self.cancel() }) }
}

extension GameListing {
    /// A discovered game as front ends list it (`GameList` sets when a game not answering failed, and whether it is
    /// on this machine).
    public init(_ game: DiscoveredGame) {
        switch game.lookup {
        case .pending:
            self.init(name: game.name, state: .lookingUp)
        case .notAnswering:
            self.init(name: game.name, state: .notAnswering(since: .zero))
        case .answered(let compatibility, let host, let addresses):
            let state: State
            switch compatibility {
            case .compatible(let security): state = .joinable(security)
            case .incompatible(let reason): state = .notJoinable(reason: reason)
            }
            self.init(name: game.name, state: state, host: host.isEmpty ? nil : host, addresses: addresses)
        }
        playing = game.activity.playing
        spectatorRoom = game.activity.spectatorRoom
    }
}

extension GameList {
    /// A list that knows this machine's addresses now (getifaddrs).
    public static func onThisMachine() -> GameList {
        GameList(localAddresses: Set(InterfaceAddress.current().map(\.address)))
    }
}

extension GameClient {
    /// The real client: TCP through `InteractiveSession`, discovery through Bonjour, and every local-network operation
    /// through `gate` (each needs a capability only the gate mints). `logFile` is where Settings says the log is;
    /// `clock` is the root's, on which every session it starts waits and times.
    public static func live(gate: LocalNetworkGate, logFile: String, clock: any Clock<Duration>) -> GameClient {
        let network = LiveNetwork(gate: gate, clock: clock)
        return GameClient(
            host: { network.host(name: $0, port: $1, security: $2, spectators: $3, events: $4) },
            join: { network.join(name: $0, address: $1, code: $2, events: $3) },
            watch: { network.join(name: $0, address: $1, code: $2, watching: true, events: $3) },
            browse: { network.browse(events: $0) },
            serviceTypes: { network.serviceTypes(events: $0) },
            lobby: { network.lobby(name: $0, events: $1) },
            lobbyGame: { network.lobbyGame(name: $0, game: $1, events: $2) },
            privacy: .live(gate: gate, logFile: logFile),
            engine: { command, events in Self.startEngine(command, clock: clock, events: events) }
        )
    }

    /// An engine for Play against an engine: an `EngineWorker` (the same process handling as `--player engine:…`) in
    /// a task of its own, with `play --computer engine:…`'s limits (told `-`: 60 s a move); every outcome is posted.
    static func startEngine(
        _ command: String, clock: any Clock<Duration>, events: @escaping @Sendable (EngineEvent) -> Void
    ) -> EngineHandle {
        let (jobs, continuation) = AsyncStream<EngineWorker.Job>.makeStream()
        let worker = EngineWorker(seat: EngineSeat(command: command, clock: clock))
        let task = Task {
            await worker.run(jobs) { outcome in
                switch outcome {
                case .started(let name, _, let log): events(.started(name: name, log: log))
                case .moved(let game, let cell): events(.moved(game: game, cell: cell))
                case .failed(let game, let failure):
                    events(.failed(game: game, engine: failure.engine, reason: failure.reasonText, log: failure.logPath))
                }
            }
        }
        return EngineHandle(
            move: { game, position in continuation.yield(.move(game: game, position, gameClock: nil)) },
            stop: {
                continuation.finish()
                task.cancel()
            })
    }
}

extension PrivacyClient {
    /// The gate over the user's decision file and the app manifest.
    public static func live(gate: LocalNetworkGate, logFile: String) -> PrivacyClient {
        PrivacyClient(
            verdict: { intent in
                let operation = LocalNetworkOperation(intent)
                let verdict = gate.evaluate(operation, for: intent.origin)
                guard verdict == .needsPrompt, let request = try? gate.promptRequest(for: operation) else {
                    return (LocalNetworkVerdict(verdict), nil)
                }
                gate.promptPresented(for: operation, origin: intent.origin)
                return (LocalNetworkVerdict(verdict), PromptText(title: request.title, message: request.message))
            },
            answerPrompt: { allow in try? gate.answerPrompt(allow: allow) },
            setAllowed: { allowed in try? gate.store.write(allowed ? .allowed : .denied, source: "settings") },
            reset: { try? gate.store.reset(source: "settings") },
            info: {
                let manifest = Result { try gate.manifest() }
                let entitlements = PrivacyClient.entitlements(manifest: try? manifest.get())
                return PrivacyInfo(
                    state: LocalNetworkState(gate.store.read()),
                    usageDescription: (try? manifest.get())?.localizedUsageDescription(),
                    services: (try? manifest.get())?.bonjourServices ?? [],
                    manifestPath: (try? manifest.get())?.path,
                    manifestError: { if case .failure(let error) = manifest { return "\(error)" } else { return nil } }(),
                    decisionFile: gate.store.decisionPath,
                    logFile: logFile,
                    entitlements: entitlements.granted,
                    entitlementsError: entitlements.error,
                    reportFile: gate.report?.path,
                    activity: (gate.report?.latest(PrivacyClient.settingsActivityCount) ?? []).map(PrivacyActivity.init)
                )
            },
            watch: { changed in
                let stream: AsyncStream<LocalNetworkAuthorization> = gate.changes()
                let task = Task {
                    for await _ in stream { changed() }
                }
                return SessionHandle(cancel: { task.cancel() })
            }
        )
    }
}

extension PrivacyClient {
    /// How many of the privacy report's latest records Settings gets.
    static let settingsActivityCount = 8

    /// The entitlements declared true beside `manifest`, or why they cannot be read.
    static func entitlements(manifest: AppManifest?) -> (granted: [String], error: String?) {
        guard let manifest else { return ([], nil) }
        do {
            let entitlements = try AppEntitlements.load(besideManifest: manifest.path)
            return (entitlements?.entries.filter { $0.value == .bool(true) }.map(\.key) ?? [], nil)
        } catch {
            return ([], "\(error)")
        }
    }
}

extension PrivacyActivity {
    /// A record of the privacy report as Settings shows it (the time in UTC: "11-25 15:30:02").
    init(_ entry: PrivacyReportEntry) {
        let kind: Kind
        switch entry.event {
        case .decision:
            switch entry.outcome {
            case .allowed?: kind = .allowed
            case .refused?: kind = .refused
            case .waiting?, nil: kind = .waiting
            }
        case .promptShown: kind = .promptShown
        case .operation: kind = .done
        case .promptAnswered: kind = .promptAnswered(allow: entry.answer == "allow")
        }
        self.init(
            time: PrivacyReportText.shortTime(entry.time), kind: kind, operation: entry.operation,
            destination: entry.destination, origin: entry.origin)
    }
}

extension LocalNetworkOperation {
    /// What the user's intent needs from the gate (a Bonjour name is resolved first, so joining one is a browse).
    init(_ intent: NetworkIntent) {
        switch intent {
        case .search:
            self = .browse(serviceType: GameService.type)
        case .browseServiceTypes:
            self = .browseServiceTypes
        case .lobby:
            self = .multicast(.lobby)
        case .host:
            self = .listen(bindHost: ListenTarget.everyInterface.bindHost)
        case .join(_, let address), .watch(_, let address):
            if case .address(let endpoint)? = try? JoinTarget(parsing: address) {
                self = .connect(endpoint)
            } else {
                self = .browse(serviceType: GameService.type)
            }
        }
    }
}

extension NetworkIntent {
    var origin: OperationOrigin {
        switch self {
        case .search: return .searchScreen
        case .browseServiceTypes: return .serviceTypesScreen
        case .lobby: return .lobbyScreen
        case .host(_, _, let isPrivate): return isPrivate ? .privateHostScreen : .hostScreen
        case .join: return .joinScreen
        case .watch: return .watchScreen
        }
    }
}

extension LocalNetworkVerdict {
    init(_ verdict: GateVerdict) {
        switch verdict {
        case .allowed: self = .allowed
        case .exempt: self = .exempt
        case .needsPrompt: self = .needsPrompt
        case .denied: self = .denied
        case .noAuth(let type): self = .noAuth(serviceType: type)
        case .manifestError(let text): self = .manifestError(text)
        case .missingEntitlement(let key): self = .missingEntitlement(key)
        }
    }
}

extension LocalNetworkState {
    init(_ authorization: LocalNetworkAuthorization) {
        switch authorization {
        case .notDetermined: self = .notDetermined
        case .allowed: self = .allowed
        case .denied: self = .denied
        }
    }
}

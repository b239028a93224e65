import AppProcess
import Bonjour
import GameClient
import GameProtocol
import GameTransport
import Lobby
import LobbyMulticast
import LocalNetworkPrivacy
import Logging
import MatchPlay
import Synchronization

/// The LAN lobby's group (docs/LOBBY.md): an administratively scoped IPv4 group, a link-local IPv6 group, UDP 7879.
extension MulticastGroup {
    public static let lobby = try! MulticastGroup(ipv4: "239.255.77.77", ipv6: "ff02::7474", port: 7879)
}

extension OperationOrigin {
    public static let lobbyCommand = OperationOrigin("tictactoe lobby")
}

/// What to do in the lobby.
public struct LobbyRequest: Sendable {
    public var name: String
    public var group: MulticastGroup
    /// The interface to join on (nil: the first multicast-capable one up).
    public var interface: String?
    public var origin: OperationOrigin
    /// How long to wait for local network permission (nil: until it comes).
    public var waitTimeout: Duration?
    /// How long to stay (nil: until stopped, or a game).
    public var duration: Duration?
    /// Who decides challenges, and what is said once joined: the command line's `--challenge`, `--accept` and
    /// `--greet`, or the person (`.interactive`, the Lobby screen).
    public var policy: LobbyMachine.Policy
    /// How often we announce ourselves (and look for the silent).
    public var announceInterval: Duration
    /// How long a challenge waits for its answer.
    public var answerTimeout: Duration

    public init(
        name: String, group: MulticastGroup = .lobby, interface: String? = nil, origin: OperationOrigin = .lobbyCommand,
        waitTimeout: Duration? = nil, duration: Duration? = nil, policy: LobbyMachine.Policy = .init(),
        announceInterval: Duration = .seconds(2), answerTimeout: Duration = .seconds(30)
    ) {
        self.name = PlayerName.fitted(name)
        self.group = group
        self.interface = interface
        self.origin = origin
        self.waitTimeout = waitTimeout
        self.duration = duration
        self.policy = policy
        self.announceInterval = announceInterval
        self.answerTimeout = answerTimeout
    }
}

/// Runs a stay in the LAN lobby, for either front end: asks the gate for the lobby's group (the multicast
/// entitlement first: without it, exit 15 at once), joins it, announces itself every `announceInterval`, reports who
/// is around and what they say, and challenges or answers as `request.policy` says: by the command line's options,
/// or by the person (`.interactive`: what they do comes in on `commands`). A challenge's game is played by `games`.
/// An accepted challenge is joined by address, with the checks of any joined address (the gate, and no loopback,
/// unspecified, multicast or broadcast address from the network). The result is the exit status: the game's, or 0
/// when the lobby ended by its duration, a `stop` or the task's cancellation (leaving the group first, saying so to
/// the others). The logic is `LobbyMachine`'s.
public func runLobby(
    _ request: LobbyRequest,
    games: LobbyGames,
    gate: LocalNetworkGate,
    commands: AsyncStream<LobbyCommand>? = nil,
    report: @escaping @Sendable (LobbyEvent) -> Void,
    stop: StopSignal? = nil,
    clock: any Clock<Duration>,
    logger: Logger = Logger(label: "tictactoe.lobby")
) async -> ExitStatus {
    let capability: MulticastCapability
    do {
        let group = request.group
        capability = try await LocalNetworkAccess(gate: gate, clock: clock).obtain(
            { $0.joinGroup(group, for: request.origin) }, waitTimeout: request.waitTimeout,
            onWaiting: { report(.waiting($0)) })
    } catch {
        let status = ExitStatus(failure: error, stop: stop?.raised ?? (Task.isCancelled ? .quit : nil))
        report(.left("\(error)"))
        return status
    }
    let lobby = Lobby(request: request, capability: capability, logger: logger)
    return await lobby.run(games: games, gate: gate, report: report, commands: commands, clock: clock) { input in
        guard let stop else { return nil }
        return Task {
            for await reason in stop.stream() {
                input(.stop(ExitStatus(stoppedBy: reason)))
                return
            }
        }
    }
}

/// How a lobby's games are played: by the command line itself, or by the front end that drives the lobby.
public struct LobbyGames: Sendable {
    /// Hosts a game for our challenge to `name`; what becomes of it goes to `input` (`.hostListening`,
    /// `.hostConnected`, `.hostDone`). Returns how to stop it.
    var host: @Sendable (_ name: String, _ input: @escaping @Sendable (LobbyMachine.Input) -> Void) -> @Sendable () -> Void
    /// Joins the game of `name`, whose challenge we accepted; the lobby's result.
    var join: @Sendable (_ name: String, _ address: String, _ port: Int) async -> ExitStatus

    /// The command line's (`tictactoe lobby`): each game a normal match (`hostMatches`, `joinMatch`) played with
    /// `options` and reported to `reporter`; the joined game's status is the lobby's.
    public static func played(
        _ request: LobbyRequest, options: MatchOptions, gate: LocalNetworkGate, reporter: MatchReporter,
        stop: StopSignal?
    ) -> LobbyGames {
        LobbyGames(
            host: { _, input in
                let stopHost = StopSignal()
                Task {
                    let status = await hostMatches(
                        HostRequest(
                            port: 0, matches: 1, advertise: false, origin: request.origin, endsWithFirstMatch: true),
                        options: options, gate: gate,
                        reporter: ClosureReporter { report in
                            switch report {
                            case .listening(_, let port, _, _, _): input(.hostListening(port))
                            case .connected: input(.hostConnected)
                            default: break
                            }
                            reporter.report(report)
                        },
                        stop: stopHost)
                    input(.hostDone(status))  // the driver waits for this before it ends
                }
                return { stopHost.raise(stop?.raised ?? .quit) }
            },
            join: { _, address, port in
                let join = JoinRequest(
                    target: .address(Endpoint(host: address, port: port)), waitTimeout: request.waitTimeout,
                    origin: request.origin)
                return await joinMatch(join, options: options, gate: gate, reporter: reporter, stop: stop)
            })
    }

    /// The Lobby screen's (`GameClient.lobby`): the front end is asked to host or join each game (`.hostGame`,
    /// `.stopHosting`, `.join`) and plays it itself.
    public static func askingFrontEnd(_ update: @escaping @Sendable (LobbyUpdate) -> Void) -> LobbyGames {
        LobbyGames(
            host: { name, _ in
                update(.hostGame(for: name))
                return { update(.stopHosting) }
            },
            join: { name, address, port in
                update(.join(name: name, address: address, port: port))
                return .success
            })
    }
}

/// One stay in the lobby: carries out a `LobbyMachine`'s actions (the group, the timers, the games).
private final class Lobby: Sendable {
    let request: LobbyRequest
    let group: ConnectionGroup
    let me = LobbyMessage.MemberID.random()
    let logger: Logger
    /// The next message's sequence number.
    private let sequence = Mutex<UInt32>(UInt32.random(in: 0...UInt32.max / 2))
    /// Datagrams received and not yet handled: beyond `backlog`, new ones are dropped before the roster's rate
    /// limits see them (a flood never crowds out the lobby's own inputs, which are never dropped).
    private let pending = Mutex<Int>(0)
    static let backlog = 256

    init(request: LobbyRequest, capability: MulticastCapability, logger: Logger) {
        self.request = request
        self.logger = logger
        group = ConnectionGroup(
            capability: capability,
            parameters: .init(maximumMessageSize: LobbyMessage.maximumSize, interface: request.interface),
            logger: logger)
    }

    func send(_ body: LobbyMessage.Body) async {
        do {
            let number = sequence.withLock { number in
                number &+= 1
                return number
            }
            try await group.send(try LobbyMessage(sender: me, sequence: number, name: request.name, body: body).encoded())
        } catch {
            logger.warning("lobby: cannot send \(body): \(error)")
        }
    }

    /// Runs the lobby until the machine finishes; `stopping` may start a task that feeds `.stop` (cancelled at the
    /// end). Cancelling the calling task stops the lobby as `.stop(.success)` does.
    func run(
        games: LobbyGames, gate: LocalNetworkGate, report: @escaping @Sendable (LobbyEvent) -> Void,
        commands: AsyncStream<LobbyCommand>?, clock: any Clock<Duration>,
        stopping: (@escaping @Sendable (LobbyMachine.Input) -> Void) -> Task<Void, Never>?
    ) async -> ExitStatus {
        let (inputs, continuation) = AsyncStream<LobbyMachine.Input>.makeStream()
        let input: @Sendable (LobbyMachine.Input) -> Void = { continuation.yield($0) }
        let elapsed = clock.stopwatch()  // the roster's time input
        let group = self.group
        let description = "\(request.group)"
        group.start(
            stateUpdate: { state in
                switch state {
                case .ready: input(.ready(group: description, addresses: group.joinedOn))
                case .waiting(let reason): input(.waiting("\(reason)"))
                case .failed(let reason): input(.failed("\(reason)"))
                case .setup, .cancelled: break
                }
            },
            receive: { message in
                let admitted = self.pending.withLock { pending in
                    guard pending < Self.backlog else { return false }
                    pending += 1
                    return true
                }
                guard admitted else { return }
                // A link-local IPv6 source keeps its interface ("fe80::1%eth0"): it is where a challenge leads.
                input(.datagram(message.bytes, from: message.sender.numericHost, at: elapsed()))
            })
        defer { group.cancel() }
        var tasks = feed(input, elapsed: elapsed, gate: gate, commands: commands, clock: clock)
        if let task = stopping(input) { tasks.append(task) }
        var answerTimer: Task<Void, Never>?
        var stopHost: (@Sendable () -> Void)?
        defer {
            for task in tasks { task.cancel() }
            answerTimer?.cancel()
            continuation.finish()
        }
        var machine = LobbyMachine(
            me: me, policy: request.policy, answerTimeout: request.answerTimeout,
            checkChallenge: { [local = InterfaceAddress.current().map(\.address)] address, challenger in
                LobbyChallenge.problem(joining: address, challenger: challenger, localAddresses: local)
            })
        return await withTaskCancellationHandler {
            for await next in inputs {
                if case .datagram = next { pending.withLock { $0 -= 1 } }
                for action in machine.handle(next) {
                    switch action {
                    case .send(let body): await send(body)
                    case .report(let event): report(event)
                    case .hostGame(let name): stopHost = games.host(name, input)
                    case .stopHosting: stopHost?()
                    case .startAnswerTimer(let generation):
                        answerTimer?.cancel()
                        let timeout = request.answerTimeout
                        answerTimer = Task {
                            try? await clock.sleep(for: timeout)
                            if !Task.isCancelled { input(.answerTimedOut(generation: generation)) }
                        }
                    case .cancelAnswerTimer: answerTimer?.cancel()
                    case .leaveGroup: group.cancel()
                    case .join(let name, let address, let port):
                        group.cancel()
                        return await games.join(name, address, port)
                    case .finish(let status):
                        return status
                    }
                }
            }
            return .success
        } onCancel: {
            input(.stop(.success))
        }
    }

    /// The tasks that feed the machine besides the group: the announce ticks, `--duration`, the gate's revocation and
    /// the person's commands (cancelled when the lobby ends).
    private func feed(
        _ input: @escaping @Sendable (LobbyMachine.Input) -> Void, elapsed: @escaping @Sendable () -> Duration,
        gate: LocalNetworkGate, commands: AsyncStream<LobbyCommand>?, clock: any Clock<Duration>
    ) -> [Task<Void, Never>] {
        var tasks: [Task<Void, Never>] = []
        tasks.append(Task {
            while !Task.isCancelled {
                input(.tick(at: elapsed()))
                try? await clock.sleep(for: self.request.announceInterval)
            }
        })
        if let duration = request.duration {
            tasks.append(Task {
                try? await clock.sleep(for: duration)
                if !Task.isCancelled { input(.timeUp) }
            })
        }
        tasks.append(Task {
            for await _ in gate.revocations() {
                input(.revoked)
                return
            }
        })
        if let commands {
            tasks.append(Task {
                for await command in commands { input(.command(command, at: elapsed())) }
            })
        }
        return tasks
    }
}

/// The checks of a challenge's address before it is joined.
public enum LobbyChallenge {
    /// Why `address` (from a challenge) cannot be joined, or nil: it must be one the challenger's own messages come
    /// from (so nobody can send us elsewhere in its name), a host on the LAN (no loopback, unspecified, multicast or
    /// broadcast address), and not one of this machine's own (`localAddresses`: that would reach our own services).
    public static func problem(
        joining address: String, challenger: LobbyRoster.Member?,
        localAddresses: [String]
    ) -> String? {
        guard let challenger else { return "it has not announced itself" }
        guard challenger.addresses.contains(address) else {
            return "its address \(address) is not the one its messages come from"
        }
        guard AddressScope(address: address) == .unicast else {
            return "its address \(address) is not a host on the LAN (loopback, unspecified, multicast or broadcast)"
        }
        func host(_ text: String) -> String { text.split(separator: "%").first.map(String.init) ?? text }
        if localAddresses.contains(where: { host($0) == host(address) }) {
            return "its address \(address) is this machine's own"
        }
        return nil
    }
}

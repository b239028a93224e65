import Bonjour
import GameProtocol
import GameTransport
import LocalNetworkPrivacy
import Logging
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
    /// Said once, when joined.
    public var greeting: String?
    /// Challenge the first member of this name seen (matched as names are: `PlayerName.matches`): host a game and
    /// invite them; play it if they accept.
    public var challenge: String?
    /// Accept the first challenge (else each is declined): join the challenger's game.
    public var acceptChallenges: Bool
    /// How often we announce ourselves (and look for the silent).
    public var announceInterval: Duration
    /// How long a challenge waits for its answer.
    public var answerTimeout: Duration

    public init(
        name: String, group: MulticastGroup = .lobby, interface: String? = nil, origin: OperationOrigin = .lobbyCommand,
        waitTimeout: Duration? = nil, duration: Duration? = nil, greeting: String? = nil, challenge: String? = nil,
        acceptChallenges: Bool = false, announceInterval: Duration = .seconds(2), answerTimeout: Duration = .seconds(30)
    ) {
        self.name = PlayerName.fitted(name)
        self.group = group
        self.interface = interface
        self.origin = origin
        self.waitTimeout = waitTimeout
        self.duration = duration
        self.greeting = greeting
        self.challenge = challenge
        self.acceptChallenges = acceptChallenges
        self.announceInterval = announceInterval
        self.answerTimeout = answerTimeout
    }
}

extension LobbyRequest {
    /// Why `text` cannot be a greeting (too long, empty, a control or bidi character), or nil.
    public static func greetingProblem(_ text: String) -> String? {
        do {
            _ = try LobbyMessage(sender: .init(1), name: "x", body: .greeting(text)).encoded()
            return nil
        } catch {
            return "\(error)"
        }
    }
}

/// What happened in the lobby, for a front end to show.
public enum LobbyEvent: Sendable, Hashable {
    /// Waiting for local network permission (the reason).
    case waiting(String)
    case joined(group: String, addresses: [String])
    /// The group waits for an interface, or failed.
    case groupState(String)
    case roster(LobbyRoster.Event)
    case greetingSent(String)
    case challengeSent(to: String, port: Int)
    /// A challenge we turned down, and why.
    case challengeDeclined(from: String, why: String)
    /// A challenge we took: the game follows.
    case challengeAccepted(from: String, address: String, port: Int)
    /// The lobby is over: why.
    case left(String)
}

/// Runs `tictactoe lobby` (and later the TUI's Lobby screen): asks the gate for the lobby's group (the multicast
/// entitlement first: without it, exit 15 at once), joins it, announces itself every `announceInterval`, reports who
/// is around and what they say, and, as asked, challenges a member (hosting a game they are invited to join) or
/// accepts a challenge (joining the challenger's game by address, with the checks of any joined address: the gate,
/// and no loopback, unspecified, multicast or broadcast address from the network). The game is a normal match
/// (`hostMatches`, `joinMatch`) reported to `matchReporter`. The result is the exit status: the game's, or 0 when the
/// lobby ended by its duration or a stop.
public func runLobby(
    _ request: LobbyRequest,
    options: MatchOptions,
    gate: LocalNetworkGate,
    report: @escaping @Sendable (LobbyEvent) -> Void,
    matchReporter: MatchReporter,
    stop: StopSignal? = nil,
    clock: any Clock<Duration> = ContinuousClock(),
    logger: Logger = Logger(label: "tictactoe.lobby")
) async -> ExitStatus {
    let capability: MulticastCapability
    do {
        let group = request.group
        capability = try await LocalNetworkAccess(gate: gate).obtain(
            { $0.joinGroup(group, for: request.origin) }, waitTimeout: request.waitTimeout,
            onWaiting: { report(.waiting($0)) })
    } catch {
        let status = ExitStatus(failure: error, stop: stop?.raised)
        report(.left("\(error)"))
        return status
    }
    let lobby = Lobby(request: request, capability: capability, logger: logger)
    return await lobby.run(options: options, gate: gate, report: report, matchReporter: matchReporter, stop: stop,
                           clock: clock)
}

/// One stay in the lobby.
private final class Lobby: Sendable {
    enum Input: Sendable {
        case state(ConnectionGroup.State)
        case message(ConnectionGroup.Message)
        case tick
        case stop
        /// `--duration` is up.
        case timeUp
        /// Local network access was turned off.
        case revoked
        case hostListening(Int)
        /// Someone joined the game we host for our challenge.
        case hostConnected
        case hostDone(ExitStatus)
        case answerTimedOut
    }

    let request: LobbyRequest
    let group: ConnectionGroup
    let me = LobbyMessage.MemberID.random()
    let logger: Logger
    /// The next message's sequence number.
    private let sequence = Atomic<UInt32>(UInt32.random(in: 0...UInt32.max / 2))

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
            let number = sequence.add(1, ordering: .relaxed).newValue
            try await group.send(try LobbyMessage(sender: me, sequence: number, name: request.name, body: body).encoded())
        } catch {
            logger.warning("lobby: cannot send \(body): \(error)")
        }
    }

    func run(
        options: MatchOptions, gate: LocalNetworkGate, report: @escaping @Sendable (LobbyEvent) -> Void,
        matchReporter: MatchReporter, stop: StopSignal?, clock: any Clock<Duration>
    ) async -> ExitStatus {
        // Bounded: a flood is dropped here before the roster's rate limits see it (the newest kept).
        let (inputs, input) = AsyncStream<Input>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let elapsed = Self.stopwatch(clock)
        group.start(stateUpdate: { input.yield(.state($0)) }, receive: { input.yield(.message($0)) })
        defer { group.cancel() }
        return await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                while !Task.isCancelled {
                    input.yield(.tick)
                    try? await clock.sleep(for: self.request.announceInterval)
                }
            }
            if let stop {
                tasks.addTask {
                    for await _ in stop.stream() {
                        input.yield(.stop)
                        return
                    }
                }
            }
            if let duration = request.duration {
                tasks.addTask {
                    try? await clock.sleep(for: duration)
                    if !Task.isCancelled { input.yield(.timeUp) }
                }
            }
            tasks.addTask {
                for await _ in gate.revocations() {
                    input.yield(.revoked)
                    return
                }
            }
            defer { tasks.cancelAll() }
            var roster = LobbyRoster(me: me)
            var ready = false
            var challenged: LobbyMessage.MemberID?  // whom we invited
            var hostStop: StopSignal?
            var hostPort: Int?
            var hostTask: Task<Void, Never>?
            var answerTimer: Task<Void, Never>?
            var unanswered: ExitStatus?  // our challenge was declined (4) or not answered (6); or time was up (0)
            var inGame = false  // the challenge was accepted: the lobby is left, the game goes on
            func leave(_ why: String) async {
                if ready { await send(.leave) }
                ready = false
                group.cancel()
                report(.left(why))
            }
            for await next in inputs {
                switch next {
                case .state(let state):
                    switch state {
                    case .ready:
                        ready = true
                        report(.joined(group: "\(request.group)", addresses: group.joinedOn))
                        await send(announcement(hostPort: nil))
                        if let greeting = request.greeting {
                            await send(.greeting(greeting))
                            report(.greetingSent(greeting))
                        }
                    case .failed(let reason):
                        report(.groupState("failed: \(reason)"))
                        report(.left("the lobby's group could not be joined"))
                        return .cannotListen
                    case .waiting(let reason):
                        report(.groupState("waiting: \(reason)"))
                    case .setup, .cancelled:
                        break
                    }
                case .tick:
                    guard ready else { continue }
                    for event in roster.expire(at: elapsed()) { report(.roster(event)) }
                    await send(announcement(hostPort: hostPort))
                case .message(let message):
                    // A link-local IPv6 source keeps its interface ("fe80::1%eth0"): it is where a challenge leads.
                    let address = message.sender.numericHost
                    for event in roster.receive(message.bytes, from: address, at: elapsed()) {
                        report(.roster(event))
                        switch event {
                        case .arrived(let member) where challenged == nil && hostStop == nil:
                            guard let wanted = request.challenge, PlayerName.matches(wanted, member.name) else { break }
                            // Host a game for them; the challenge goes out once it listens.
                            challenged = member.id
                            let stopHost = StopSignal()
                            hostStop = stopHost
                            hostTask = Task {
                                let status = await hostMatches(
                                    HostRequest(port: 0, matches: 1, advertise: false, origin: request.origin,
                                                endsWithFirstMatch: true),
                                    options: options, gate: gate,
                                    reporter: ClosureReporter { report in
                                        switch report {
                                        case .listening(_, let port, _, _, _): input.yield(.hostListening(port))
                                        case .connected: input.yield(.hostConnected)
                                        default: break
                                        }
                                        matchReporter.report(report)
                                    },
                                    stop: stopHost)
                                input.yield(.hostDone(status))
                            }
                        case .challenged(let id, let name, let address, let port):
                            guard request.acceptChallenges, challenged == nil, hostStop == nil else {
                                await send(.answer(target: id, accepted: false))
                                report(.challengeDeclined(
                                    from: name, why: request.acceptChallenges ? "already in a game" : "not accepting challenges (--accept)"))
                                break
                            }
                            if let problem = LobbyChallenge.problem(joining: address, challenger: roster.members[id]) {
                                await send(.answer(target: id, accepted: false))
                                report(.challengeDeclined(from: name, why: problem))
                                break
                            }
                            await send(.answer(target: id, accepted: true))
                            report(.challengeAccepted(from: name, address: address, port: Int(port)))
                            await leave("accepted \(name)'s challenge")
                            let join = JoinRequest(
                                target: .address(Endpoint(host: address, port: Int(port))),
                                waitTimeout: request.waitTimeout, origin: request.origin)
                            return await joinMatch(join, options: options, gate: gate, reporter: matchReporter, stop: stop)
                        case .answered(let id, let name, let accepted) where id == challenged && !inGame:
                            answerTimer?.cancel()
                            if accepted {
                                inGame = true
                                await leave("\(name) accepted the challenge")
                                // They have as long again to connect; then the game is withdrawn.
                                answerTimer = Task {
                                    try? await clock.sleep(for: self.request.answerTimeout)
                                    if !Task.isCancelled { input.yield(.answerTimedOut) }
                                }
                            } else {
                                report(.challengeDeclined(from: name, why: "they declined"))
                                unanswered = .rejected
                                hostStop?.raise(.quit)
                            }
                        default:
                            break
                        }
                    }
                case .hostListening(let port):
                    hostPort = port
                    if ready { await send(announcement(hostPort: port)) }  // everyone sees the game at once
                    guard let challenged else { break }
                    await send(.challenge(target: challenged, port: UInt16(port), address: nil))
                    let name = roster.members[challenged]?.name ?? request.challenge ?? ""
                    report(.challengeSent(to: name, port: port))
                    let timeout = request.answerTimeout
                    answerTimer = Task {
                        try? await clock.sleep(for: timeout)
                        if !Task.isCancelled { input.yield(.answerTimedOut) }
                    }
                case .hostConnected:
                    answerTimer?.cancel()
                case .answerTimedOut:
                    let seconds = Int(request.answerTimeout.components.seconds)
                    let why = inGame ? "accepted, but did not connect within \(seconds) s" : "no answer within \(seconds) s"
                    report(.challengeDeclined(from: request.challenge ?? "", why: why))
                    unanswered = .timeout
                    hostStop?.raise(.quit)
                case .revoked:
                    guard !inGame else { continue }  // the game's own connection ends as local-network-off
                    hostStop?.raise(.quit)
                    if hostTask != nil { unanswered = .localNetworkNotAllowed; continue }
                    await leave("local network access was turned off")
                    return .localNetworkNotAllowed
                case .timeUp:
                    guard !inGame else { continue }  // a game in progress is not cut short
                    if hostTask != nil {
                        // A challenge still unanswered is withdrawn.
                        unanswered = .success
                        hostStop?.raise(.quit)
                        continue
                    }
                    await leave("its time is up (--duration)")
                    return .success
                case .hostDone(let status):
                    await hostTask?.value
                    answerTimer?.cancel()
                    if let unanswered {
                        if ready { await leave("the challenge was not taken") }
                        return unanswered
                    }
                    if ready { await leave(status == .success ? "the game is over" : "the game ended (exit \(status.rawValue))") }
                    return status
                case .stop:
                    hostStop?.raise(stop?.raised ?? .quit)
                    if hostTask != nil { continue }  // the host says goodbye, then .hostDone
                    await leave("stopped")
                    return stop?.raised.map { $0 == .shutdown ? ExitStatus.terminated : .interrupted } ?? .success
                }
            }
            return .success
        }
    }

    /// The time since now on `clock` (the roster's time input).
    private static func stopwatch<C: Clock>(_ clock: C) -> @Sendable () -> Duration where C.Duration == Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }

    private func announcement(hostPort: Int?) -> LobbyMessage.Body {
        guard let hostPort else { return .announce(hosting: .none, port: 0, protocolVersion: 2) }
        return .announce(hosting: .open, port: UInt16(hostPort), protocolVersion: 2)
    }
}

/// The checks of a challenge's address before it is joined.
public enum LobbyChallenge {
    /// Why `address` (from a challenge) cannot be joined, or nil: it must be one the challenger's own messages come
    /// from (so nobody can send us elsewhere in its name), a host on the LAN (no loopback, unspecified, multicast or
    /// broadcast address), and not one of this machine's own (`localAddresses`: that would reach our own services).
    public static func problem(
        joining address: String, challenger: LobbyRoster.Member?,
        localAddresses: [InterfaceAddress] = InterfaceAddress.current()
    ) -> String? {
        guard let challenger else { return "it has not announced itself" }
        guard challenger.addresses.contains(address) else {
            return "its address \(address) is not the one its messages come from"
        }
        guard AddressScope(address: address) == .unicast else {
            return "its address \(address) is not a host on the LAN (loopback, unspecified, multicast or broadcast)"
        }
        func host(_ text: String) -> String { text.split(separator: "%").first.map(String.init) ?? text }
        if localAddresses.contains(where: { host($0.address) == host(address) }) {
            return "its address \(address) is this machine's own"
        }
        return nil
    }
}

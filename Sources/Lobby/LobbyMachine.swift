import GameProtocol

/// The lobby's logic, pure (time is an input, as in `LobbyRoster`): what it does with the group's state, each
/// datagram, the announce ticks, the person's commands and the game hosted for a challenge, as actions a driver
/// carries out (`runLobby`, for `tictactoe lobby` and the TUI's Lobby screen). One machine for both front ends:
/// `Policy` says who decides challenges (the command line's `--challenge`/`--accept`, or the person).
public struct LobbyMachine: Sendable {
    public struct Policy: Sendable, Hashable {
        /// Challenge the first member of this name seen (`PlayerName.matches`).
        public var challenge: String?
        /// Accept the first challenge (else each is declined), unless `interactive`.
        public var acceptChallenges: Bool
        /// The person decides: challenges to us wait for `LobbyCommand.answer`, ours come from
        /// `LobbyCommand.challenge`; a challenge that ends without a game leaves us in the lobby.
        public var interactive: Bool
        /// Said to everyone once joined (`--greet`).
        public var greeting: String?

        public init(
            challenge: String? = nil, acceptChallenges: Bool = false, interactive: Bool = false, greeting: String? = nil
        ) {
            self.challenge = challenge
            self.acceptChallenges = acceptChallenges
            self.interactive = interactive
            self.greeting = greeting
        }
    }

    public enum Input: Sendable, Hashable {
        /// The group is joined (its description, the local addresses it joined on).
        case ready(group: String, addresses: [String])
        case waiting(String)
        case failed(String)
        /// Time to announce ourselves (and look for the silent).
        case tick(at: Duration)
        case datagram([UInt8], from: String, at: Duration)
        case command(LobbyCommand, at: Duration)
        /// The game hosted for our challenge listens on this port.
        case hostListening(Int)
        /// Someone joined the game hosted for our challenge.
        case hostConnected
        /// The game hosted for our challenge is over (its status).
        case hostDone(ExitStatus)
        /// The answer timer started by `.startAnswerTimer(generation)` ran out (an older one is ignored).
        case answerTimedOut(generation: Int)
        /// Local network access was turned off.
        case revoked
        /// `--duration` is up.
        case timeUp
        /// Ctrl-C, SIGTERM or the front end leaving: the status to end with.
        case stop(ExitStatus)
    }

    public enum Action: Sendable, Hashable {
        case send(LobbyMessage.Body)
        case report(LobbyEvent)
        /// Host one game (any free port) for our challenge to `name`; its port comes back as `.hostListening`.
        case hostGame(for: String)
        /// Stop the game hosted for our challenge (its end comes back as `.hostDone`, except interactively).
        case stopHosting
        /// Start the answer timer (replacing any other); it reports `.answerTimedOut` with this generation.
        case startAnswerTimer(generation: Int)
        case cancelAnswerTimer
        /// Leave the group (after the `.send(.leave)` that comes first when it was joined).
        case leaveGroup
        /// Join the challenger's game: the lobby is over, the game's status is the result.
        case join(name: String, address: String, port: Int)
        /// The lobby is over with this status.
        case finish(ExitStatus)
    }

    public let policy: Policy
    public let answerTimeout: Duration
    public private(set) var roster: LobbyRoster
    public private(set) var ready = false
    /// Whom we challenged, while the game hosted for it runs.
    public private(set) var challenged: LobbyMessage.MemberID?
    public private(set) var hosting = false
    public private(set) var hostPort: Int?
    /// Challenges to us waiting for the person's answer (interactive), with when they came.
    public private(set) var waiting: [LobbyMessage.MemberID: (name: String, address: String, port: Int, since: Duration)] = [:]
    /// Our challenge came to nothing (declined 4, unanswered 6, time up 0, access off 12): the status once the game
    /// hosted for it has stopped.
    private var unanswered: ExitStatus?
    /// Our challenge was accepted: the lobby is left, the game goes on.
    public private(set) var inGame = false
    /// Someone joined the game hosted for our challenge.
    private var connected = false
    /// The running answer timer's generation (nil: none runs): a timer cancelled as it fired is not obeyed.
    private var answerTimer: Int?
    private var timers = 0
    /// Why a challenge's address cannot be joined, or nil (the live lobby's `LobbyChallenge.problem`: the
    /// challenger's own address, a host on the LAN, not this machine).
    private let checkChallenge: @Sendable (_ address: String, _ challenger: LobbyRoster.Member?) -> String?
    public private(set) var finished = false

    public init(
        me: LobbyMessage.MemberID, policy: Policy, answerTimeout: Duration = .seconds(30),
        checkChallenge: @escaping @Sendable (_ address: String, _ challenger: LobbyRoster.Member?) -> String?
    ) {
        roster = LobbyRoster(me: me)
        self.policy = policy
        self.answerTimeout = answerTimeout
        self.checkChallenge = checkChallenge
    }

    /// Whether our challenge's game is being hosted or played.
    private var busy: Bool { challenged != nil || hosting }

    public mutating func handle(_ input: Input) -> [Action] {
        guard !finished else { return [] }
        switch input {
        case .ready(let group, let addresses):
            ready = true
            let greeting = policy.greeting.map { [Action.send(.greeting($0)), .report(.greetingSent($0))] } ?? []
            return [.report(.joined(group: group, addresses: addresses)), .send(announcement)] + greeting
        case .waiting(let reason):
            return [.report(.groupState("waiting: \(reason)"))]
        case .failed(let reason):
            ready = false
            return [.report(.groupState("failed: \(reason)")), .leaveGroup,
                    .report(.left("the lobby's group could not be joined")), finish(.cannotListen)]
        case .tick(let now):
            return ticked(at: now)
        case .datagram(let bytes, let address, let now):
            var actions: [Action] = []
            for event in roster.receive(bytes, from: address, at: now) {
                actions.append(.report(.roster(event)))
                actions += received(event, at: now)
                if finished { break }
            }
            return actions
        case .command(let command, let now):
            return commanded(command, at: now)
        case .hostListening(let port):
            hostPort = port
            var actions: [Action] = ready ? [.send(announcement)] : []  // everyone sees the game at once
            guard let challenged else { return actions }
            let name = roster.members[challenged]?.name ?? policy.challenge ?? ""
            actions += [.send(.challenge(target: challenged, port: UInt16(port), address: nil)),
                        .report(.challengeSent(to: name, port: port)), startAnswerTimer()]
            return actions
        case .hostConnected:
            connected = true
            return cancelAnswerTimer()
        case .answerTimedOut(let generation):
            guard answerTimer == generation, hosting || inGame else { return [] }  // cancelled as it fired
            answerTimer = nil
            let why = inGame ? "accepted, but did not connect within \(seconds) s" : "no answer within \(seconds) s"
            let name = challenged.flatMap { roster.members[$0]?.name } ?? policy.challenge ?? ""
            return [.report(.challengeDeclined(from: name, why: why))] + cameToNothing(.timeout)
        case .revoked:
            guard !inGame else { return [] }  // the game's own connection ends as local-network-off
            if hosting {
                unanswered = .localNetworkNotAllowed
                if policy.interactive { return [.stopHosting] + leave("local network access was turned off") + [finish(.localNetworkNotAllowed)] }
                return [.stopHosting]
            }
            return leave("local network access was turned off") + [finish(.localNetworkNotAllowed)]
        case .timeUp:
            guard !inGame else { return [] }  // a game in progress is not cut short
            if hosting {
                unanswered = .success  // a challenge still unanswered is withdrawn
                return [.stopHosting]
            }
            return leave("its time is up (--duration)") + [finish(.success)]
        case .hostDone(let status):
            hosting = false
            let actions = cancelAnswerTimer()
            if let unanswered {
                return actions + (ready ? leave("the challenge was not taken") : []) + [finish(unanswered)]
            }
            let why = status == .success ? "the game is over" : "the game ended (exit \(status.rawValue))"
            return actions + (ready ? leave(why) : []) + [finish(status)]
        case .stop(let status):
            if hosting && !policy.interactive {
                return [.stopHosting]  // the host says goodbye, then .hostDone
            }
            return (hosting ? [.stopHosting] : []) + leave("stopped") + [finish(status)]
        }
    }

    /// The announce tick: the silent leave the roster, challenges unanswered too long are declined, we announce.
    private mutating func ticked(at now: Duration) -> [Action] {
        guard ready else { return [] }
        var actions: [Action] = []
        for event in roster.expire(at: now) {
            actions.append(.report(.roster(event)))
            actions += received(event, at: now)
        }
        for (id, challenge) in waiting where now - challenge.since >= answerTimeout {
            waiting[id] = nil
            actions += [.send(.answer(target: id, accepted: false)),
                        .report(.challengeClosed(id: id, from: challenge.name, why: "not answered within \(seconds) s"))]
        }
        return actions + [.send(announcement)]
    }

    /// What a roster event asks of us.
    private mutating func received(_ event: LobbyRoster.Event, at now: Duration) -> [Action] {
        switch event {
        case .arrived(let member) where !policy.interactive && !busy:
            guard let wanted = policy.challenge, PlayerName.matches(wanted, member.name) else { return [] }
            return startChallenge(member)
        case .challenged(let id, _, let address, let port) where waiting[id] != nil:
            // The same challenger again (a repeat, or a new game after withdrawing one): the question stays as it
            // was asked, its time too; only where it leads follows.
            waiting[id]?.address = address
            waiting[id]?.port = Int(port)
            return []
        case .challenged(let id, let name, let address, let port):
            let acceptsAny = policy.interactive || policy.acceptChallenges
            guard acceptsAny, !busy, !inGame else {
                return [.send(.answer(target: id, accepted: false)),
                        .report(.challengeDeclined(from: name, why: acceptsAny ? "already in a game" : "not accepting challenges (--accept)"))]
            }
            if let problem = checkChallenge(address, roster.members[id]) {
                return [.send(.answer(target: id, accepted: false)), .report(.challengeDeclined(from: name, why: problem))]
            }
            if policy.interactive {
                waiting[id] = (name, address, Int(port), now)
                return [.report(.challengeWaiting(id: id, from: name, address: address, port: Int(port)))]
            }
            return accept(id: id, name: name, address: address, port: Int(port))
        case .left(let member, _):
            guard let challenge = waiting.removeValue(forKey: member.id) else { return [] }
            return [.report(.challengeClosed(id: member.id, from: challenge.name, why: "they left the lobby"))]
        case .updated(let member) where waiting[member.id] != nil:
            // A challenger no longer hosting the game it offered has withdrawn its challenge.
            guard let challenge = waiting[member.id],
                  member.hosting == .none || Int(member.port) != challenge.port else { return [] }
            waiting[member.id] = nil
            return [.report(.challengeClosed(id: member.id, from: challenge.name, why: "they withdrew it"))]
        case .answered(let id, let name, let accepted) where id == challenged && !inGame:
            if accepted {
                inGame = true
                // They have as long again to connect; then the game is withdrawn.
                var actions: [Action] = cancelAnswerTimer() + leave("the game with \(name) starts")
                if policy.interactive {
                    // The front end plays the game it hosts; the lobby is over.
                    actions.append(finish(.success))
                } else if !connected {
                    actions.append(startAnswerTimer())  // as long again to connect
                }
                return actions
            }
            return cancelAnswerTimer() + [.report(.challengeDeclined(from: name, why: "they declined"))]
                + cameToNothing(.rejected)
        default:
            return []
        }
    }

    private mutating func commanded(_ command: LobbyCommand, at now: Duration) -> [Action] {
        switch command {
        case .greet(let text):
            guard ready else { return [] }
            return [.send(.greeting(text)), .report(.greetingSent(text))]
        case .challenge(let id):
            guard !busy, !inGame else { return [] }  // one challenge at a time (a second key press)
            guard ready, let member = roster.members[id] else {
                return [.report(.challengeDeclined(from: "", why: ready ? "that player left the lobby" : "not in the lobby"))]
            }
            return startChallenge(member)
        case .answer(let id, let accepted):
            guard let challenge = waiting.removeValue(forKey: id) else { return [] }  // expired meanwhile
            guard accepted, !busy, !inGame else {
                return [.send(.answer(target: id, accepted: false)),
                        .report(.challengeClosed(id: id, from: challenge.name, why: accepted ? "already in a game" : "you declined"))]
            }
            return accept(id: id, name: challenge.name, address: challenge.address, port: challenge.port)
        case .hostListening(let port):
            return handle(.hostListening(port))
        case .hostConnected:
            return handle(.hostConnected)
        case .withdraw:
            guard hosting, !inGame else { return [] }
            challenged = nil
            hosting = false
            hostPort = nil
            connected = false
            return cancelAnswerTimer() + (ready ? [.send(announcement)] : [])
        }
    }

    private mutating func startChallenge(_ member: LobbyRoster.Member) -> [Action] {
        challenged = member.id
        hosting = true
        connected = false
        return [.hostGame(for: member.name)]  // the challenge goes out once it listens
    }

    private mutating func accept(id: LobbyMessage.MemberID, name: String, address: String, port: Int) -> [Action] {
        waiting[id] = nil
        var actions: [Action] = [.send(.answer(target: id, accepted: true)),
                                 .report(.challengeAccepted(from: name, address: address, port: port))]
        actions += leave("accepted \(name)'s challenge")  // the other waiting challenges are declined
        finished = true
        return actions + [.join(name: name, address: address, port: port)]
    }

    /// Our challenge was declined or not answered: on the command line the lobby ends with `status` once the game
    /// hosted for it stopped; interactively the game is stopped and we stay.
    private mutating func cameToNothing(_ status: ExitStatus) -> [Action] {
        guard policy.interactive else {
            unanswered = status
            return [.stopHosting]
        }
        challenged = nil
        hosting = false
        hostPort = nil
        inGame = false
        connected = false
        return [.stopHosting] + (ready ? [.send(announcement)] : [])
    }

    /// Leaves the group: challenges still waiting for the person's answer are declined first (their challengers
    /// hear no rather than nothing), then `leave` goes out.
    private mutating func leave(_ why: String) -> [Action] {
        let wasReady = ready
        ready = false
        var actions: [Action] = []
        for (id, challenge) in waiting.sorted(by: { $0.key.value < $1.key.value }) {
            if wasReady { actions.append(.send(.answer(target: id, accepted: false))) }
            actions.append(.report(.challengeClosed(id: id, from: challenge.name, why: "you left the lobby")))
        }
        waiting = [:]
        return actions + (wasReady ? [.send(.leave)] : []) + [.leaveGroup, .report(.left(why))]
    }

    private mutating func startAnswerTimer() -> Action {
        timers += 1
        answerTimer = timers
        return .startAnswerTimer(generation: timers)
    }

    private mutating func cancelAnswerTimer() -> [Action] {
        answerTimer = nil
        return [.cancelAnswerTimer]
    }

    private mutating func finish(_ status: ExitStatus) -> Action {
        finished = true
        return .finish(status)
    }

    private var seconds: Int { Int(answerTimeout.components.seconds) }

    private var announcement: LobbyMessage.Body {
        guard let hostPort else { return .announce(hosting: .none, port: 0, protocolVersion: 2) }
        return .announce(hosting: .open, port: UInt16(hostPort), protocolVersion: 2)
    }
}

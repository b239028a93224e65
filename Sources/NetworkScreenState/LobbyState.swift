import GameClient
import GameProtocol
import Lobby
import Localization
import TextSupport
import TerminalWidgets

/// The Lobby screen: who is on the LAN (the app core's lobby: `GameClient.lobby`), what they say, and challenges.
/// The person greets everyone (g), challenges the chosen player (c or Enter: a game is hosted for them), and answers
/// a challenge to them (y or n). Everything from the network is shown escaped.
public struct LobbyState: Sendable, Hashable {
    public enum Status: Sendable, Hashable {
        case starting
        /// Waiting for local network access (why).
        case waiting(String)
        /// In the lobby (the group, as the core describes it).
        case joined(String)
        /// Not in the lobby any more, or never got in (why): `r` tries again.
        case left(String)
    }

    /// A challenge to us that waits for the person's answer.
    public struct Invitation: Sendable, Hashable {
        public var id: LobbyMessage.MemberID
        public var name: String
        public var address: String
        public var port: Int
    }

    package enum Outcome: Equatable {
        case none, back, retry
        /// Settings (t), e.g. to allow local network access: the lobby goes on meanwhile.
        case settings
        case command(LobbyCommand)
    }

    /// The most log lines kept (the screen shows the latest that fit).
    package static let logLimit = 100

    public private(set) var status: Status = .starting
    /// The players around, by name.
    public private(set) var members: [LobbyRoster.Member] = []
    /// What happened, oldest first (escaped).
    public private(set) var log: [String] = []
    public private(set) var selected = 0
    /// The greeting being typed (g), if any.
    public private(set) var greeting: LineEditor?
    /// Why the greeting typed cannot be said, until the next key.
    public private(set) var greetingProblem: String?
    /// Challenges to us waiting for an answer: the first is asked.
    public private(set) var invitations: [Invitation] = []
    /// Whom we challenged, while the game hosted for it waits.
    public package(set) var challenging: String?

    public init() {}

    public var isLeft: Bool {
        if case .left = status { return true }
        return false
    }

    /// In the lobby's group: greeting and challenging make sense.
    public var isJoined: Bool {
        if case .joined = status { return true }
        return false
    }

    public var selectedMember: LobbyRoster.Member? {
        members.indices.contains(selected) ? members[selected] : nil
    }

    package mutating func apply(_ event: LobbyEvent) {
        func name(_ text: String) -> String { DisplayText.escaped(text) }
        switch event {
        case .waiting(let reason):
            status = .waiting(reason)
        case .joined(let group, _):
            status = .joined(group)
            note(tr("You are in the lobby"))
        case .groupState(let state):
            note(tr("Lobby group: %@", state))
        case .roster(let roster):
            switch roster {
            case .arrived(let member):
                upsert(member)
                note(tr("+ %@ (%@) is here", name(member.name), member.address))
            case .updated(let member):
                upsert(member)
            case .left(let member, let said):
                let chosen = selectedMember?.id
                members.removeAll { $0.id == member.id }
                if let chosen, let index = members.firstIndex(where: { $0.id == chosen }) { selected = index }
                selected = min(selected, max(0, members.count - 1))
                note(said ? tr("- %@ left", name(member.name)) : tr("- %@ went silent", name(member.name)))
            case .greeted(_, let from, _, let text):
                note(tr("%@: %@", name(from), name(text)))
            case .challenged:
                break  // `.challengeWaiting` asks, or `.challengeDeclined` says why not
            case .answered(_, let from, let accepted):
                note(accepted
                     ? tr("%@ accepted your challenge", name(from)) : tr("%@ declined your challenge", name(from)))
            case .rateLimited(let address) where address == LobbyRoster.manySources:
                note(tr("Too many messages from many addresses: some are dropped for now"))
            case .rateLimited(let address):
                note(tr("%@ sends too much: its messages are dropped for now", address))
            case .rejected(let address, let reason):
                note(tr("Ignored a message from %@: %@", address, reason))
            }
        case .greetingSent(let text):
            note(tr("You: %@", name(text)))
        case .challengeSent(let to, _):
            challenging = to
            note(tr("You challenged %@: waiting for the answer", name(to)))
        case .challengeWaiting(let id, let from, let address, let port):
            invitations.removeAll { $0.id == id }
            invitations.append(Invitation(id: id, name: from, address: address, port: port))
            note(tr("%@ challenges you to a game", name(from)))
        case .challengeDeclined(let from, let why):
            // Ours, before its game was hosted (the screen shows the host screen meanwhile): "" is a player gone.
            if challenging == from || from.isEmpty { challenging = nil }
            note(from.isEmpty
                 ? DisplayText.escaped(why) : tr("No game with %@: %@", name(from), DisplayText.escaped(why)))
        case .challengeClosed(let id, let from, let why):
            invitations.removeAll { $0.id == id }
            note(tr("No game with %@: %@", name(from), DisplayText.escaped(why)))
        case .challengeAccepted(let from, _, _):
            note(tr("You accepted %@'s challenge", name(from)))
        case .left(let why):
            status = .left(why)
            invitations = []
            members = []
            challenging = nil
            note(tr("Left the lobby: %@", DisplayText.escaped(why)))
        }
    }

    /// The core could not start the lobby at all (the gate's answer: a missing entitlement, no manifest): the screen
    /// says why where the players would be.
    package mutating func fail(_ text: String) {
        status = .left(text)
    }

    /// What a key does to the lobby itself.
    package mutating func react(to key: Key) -> Outcome {
        greetingProblem = nil
        if var editor = greeting {
            switch key {
            case .escape:
                greeting = nil
            case .enter:
                let text = editor.text.trimmingWhitespace()
                if text.isEmpty {
                    greeting = nil
                    return .none
                }
                if let problem = LobbyMessage.greetingProblem(text) {
                    greetingProblem = problem
                    return .none
                }
                greeting = nil
                return .command(.greet(text))
            default:
                _ = editor.handle(key)
                greeting = editor
            }
            return .none
        }
        if let asked = invitations.first {
            switch key {
            case .character("y"):  // y only: a key typed just after a greeting must not accept
                invitations.removeFirst()
                return .command(.answer(asked.id, accept: true))
            case .character("n"), .character("d"), .escape:
                invitations.removeFirst()
                return .command(.answer(asked.id, accept: false))
            default:
                return .none  // the question takes the keys until answered
            }
        }
        switch key {
        case .escape, .character("q"):
            return .back
        case .character("r") where isLeft:
            return .retry
        case .character("t"):
            return .settings
        case .up, .character("k"):
            selected = max(0, selected - 1)
        case .down, .character("j"):
            selected = min(max(0, members.count - 1), selected + 1)
        case .character("g") where isJoined:
            greeting = LineEditor("", limit: .characters(Self.greetingCharacters))
        case .character("c"), .enter:
            guard isJoined, challenging == nil, let member = selectedMember else { return .none }
            challenging = member.name  // one challenge at a time: a second press does nothing
            return .command(.challenge(member.id))
        default:
            break
        }
        return .none
    }

    /// The most characters the greeting field takes (the message's own limit, 140 UTF-8 bytes, is checked on Enter).
    package static let greetingCharacters = 140

    private mutating func upsert(_ member: LobbyRoster.Member) {
        let chosen = selectedMember?.id
        members.removeAll { $0.id == member.id }
        members.append(member)
        members.sort { ($0.name, $0.id.value) < ($1.name, $1.id.value) }
        if let chosen, let index = members.firstIndex(where: { $0.id == chosen }) { selected = index }
    }

    private mutating func note(_ line: String) {
        log.append(line)
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    }
}

import GameProtocol
import GameRules
import XCTest

typealias Action = MatchSession.Action
typealias Event = MatchSession.Event
typealias Score = MatchSession.Score

/// A host and a joiner `MatchSession` wired to each other: every `.send` goes into the other side's inbox (FIFO,
/// like TCP), and `pump()` delivers until both inboxes are empty. All actions are logged per side.
final class SessionPair {
    var host: MatchSession
    var joiner: MatchSession
    private(set) var hostLog: [Action] = []
    private(set) var joinerLog: [Action] = []
    private var toHost: [GameMessage] = []
    private var toJoiner: [GameMessage] = []
    /// Whose turn the sessions asked for (set on `.requestLocalMove`, cleared when that side plays).
    private(set) var hostMoveRequested = false
    private(set) var joinerMoveRequested = false
    /// Set on `.requestRematchDecision`, cleared when that side decides.
    private(set) var hostDecisionRequested = false
    private(set) var joinerDecisionRequested = false
    private(set) var hostClosed = false
    private(set) var joinerClosed = false
    /// The peer turn each side's turn timer runs for (set by `.startTurnTimer`, cleared by `.stopTurnTimer`).
    private(set) var hostTimedTurn: MatchSession.PeerTurn?
    private(set) var joinerTimedTurn: MatchSession.PeerTurn?

    /// The time both sessions were last told (`advance(by:)`): frames take no time here.
    private(set) var now: Duration = .zero

    /// A host with `hostTimeLimit` (the host's `--move-timeout`; none by default) and a joiner without one; the
    /// joiner knows the host's limit as the host's `accept` announces it.
    init(hostTimeLimit: Duration? = nil) {
        host = MatchSession(role: .host, turnTimeLimit: hostTimeLimit)
        joiner = MatchSession(role: .joiner)
        joiner.peerLimits = TimeLimits(move: hostTimeLimit)
    }

    /// Time passes for both sides.
    func advance(by duration: Duration) {
        now += duration
        host.clockTime(now)
        joiner.clockTime(now)
    }

    /// The host begins (sending `start`) and the frames are delivered.
    func begin() {
        apply(host.begin(), at: .host)
        apply(joiner.begin(), at: .joiner)
        pump()
    }

    func apply(_ actions: [Action], at role: MatchSession.Role) {
        for action in actions {
            switch (action, role) {
            case (.send(let message), .host): toJoiner.append(message)
            case (.send(let message), .joiner): toHost.append(message)
            case (.requestLocalMove, .host): hostMoveRequested = true
            case (.requestLocalMove, .joiner): joinerMoveRequested = true
            case (.requestRematchDecision, .host): hostDecisionRequested = true
            case (.requestRematchDecision, .joiner): joinerDecisionRequested = true
            case (.close, .host): hostClosed = true
            case (.close, .joiner): joinerClosed = true
            case (.emit, _): break
            case (.startTurnTimer(let turn, _), .host): hostTimedTurn = turn
            case (.startTurnTimer(let turn, _), .joiner): joinerTimedTurn = turn
            case (.stopTurnTimer, .host): hostTimedTurn = nil
            case (.stopTurnTimer, .joiner): joinerTimedTurn = nil
            }
        }
        if role == .host { hostLog += actions } else { joinerLog += actions }
    }

    /// Delivers queued frames, alternating sides, until nothing is in flight.
    func pump() {
        while !toHost.isEmpty || !toJoiner.isEmpty {
            if !toJoiner.isEmpty {
                let message = toJoiner.removeFirst()
                apply(joiner.receive(message), at: .joiner)
            }
            if !toHost.isEmpty {
                let message = toHost.removeFirst()
                apply(host.receive(message), at: .host)
            }
        }
    }

    /// Delivers only the frames queued for `role` (the other direction stays in flight).
    func deliver(to role: MatchSession.Role) {
        if role == .host {
            while !toHost.isEmpty { apply(host.receive(toHost.removeFirst()), at: .host) }
        } else {
            while !toJoiner.isEmpty { apply(joiner.receive(toJoiner.removeFirst()), at: .joiner) }
        }
    }

    /// The side whose turn was requested plays `cell`; then frames are delivered.
    func play(_ cell: Int, file: StaticString = #filePath, line: UInt = #line) {
        if hostMoveRequested {
            XCTAssertFalse(joinerMoveRequested, "both sides asked to move", file: file, line: line)
            hostMoveRequested = false
            XCTAssertNoThrow(apply(try host.playLocalMove(cell), at: .host), file: file, line: line)
        } else if joinerMoveRequested {
            joinerMoveRequested = false
            XCTAssertNoThrow(apply(try joiner.playLocalMove(cell), at: .joiner), file: file, line: line)
        } else {
            XCTFail("nobody was asked to move (cell \(cell))", file: file, line: line)
        }
        pump()
    }

    func play(_ cells: [Int], file: StaticString = #filePath, line: UInt = #line) {
        for cell in cells { play(cell, file: file, line: line) }
    }

    func decide(_ role: MatchSession.Role, _ wants: Bool, deliver: Bool = true) {
        if role == .host {
            hostDecisionRequested = false
            apply(host.decideRematch(wants), at: .host)
        } else {
            joinerDecisionRequested = false
            apply(joiner.decideRematch(wants), at: .joiner)
        }
        if deliver { pump() }
    }

    func log(_ role: MatchSession.Role) -> [Action] { role == .host ? hostLog : joinerLog }

    func clearLogs() {
        hostLog = []
        joinerLog = []
    }

    /// The events `role` emitted.
    func events(_ role: MatchSession.Role) -> [Event] { MatchSessionTestSupport.events(in: log(role)) }

    /// The frames `role` sent.
    func sent(_ role: MatchSession.Role) -> [GameMessage] { MatchSessionTestSupport.sent(in: log(role)) }
}

enum MatchSessionTestSupport {
    static func events(in actions: [Action]) -> [Event] {
        actions.compactMap { if case .emit(let event) = $0 { return event } else { return nil } }
    }

    static func sent(in actions: [Action]) -> [GameMessage] {
        actions.compactMap { if case .send(let message) = $0 { return message } else { return nil } }
    }

    /// The board after `cells` were played from an empty game (X first unless told otherwise).
    static func board(_ cells: [Int], firstMover: Mark = .x) -> Board {
        var game = Game(firstMover: firstMover)
        for cell in cells { try! game.play(cell, by: game.turn) }
        return game.board
    }

    /// A joiner session in game 1 (X, to move), with `cells` already played alternately starting with it.
    static func joinerInGame(after cells: [Int] = []) -> MatchSession {
        var session = MatchSession(role: .joiner)
        _ = session.receive(.start(game: 1, joinerMark: .x, firstMover: .x))
        for (index, cell) in cells.enumerated() {
            if index % 2 == 0 {
                _ = try! session.playLocalMove(cell)
            } else {
                _ = session.receive(.move(cell: UInt8(cell)))
            }
        }
        return session
    }
}

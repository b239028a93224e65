/// A match's clocks, as `MatchSession` keeps them. Pure: the time is an input (`set(_:)`), from any origin.
///
/// Chess-clock style, each side's time used in the current game: only the side to move has its clock running, and
/// both start again from zero when a game starts. Beside them, the turn the local side owes the peer (a move, a
/// rematch answer) and since when, and how long the last one it finished took: what a peer's `bye(timeout)` is
/// checked against.
struct MatchClock: Sendable {
    /// The time now, as the caller last said.
    private(set) var now: Duration = .zero
    /// Each side's time used in the current game, as of `runningSince`.
    private var localUsed: Duration = .zero
    private(set) var peerUsed: Duration = .zero
    /// The side whose clock runs (the side to move in a game in progress), since when, and in which game.
    private var running: MatchSession.Side?
    private var runningSince: Duration = .zero
    private var game: Int?
    /// The turn the local side owes the peer since `localOwedSince`, and how long the last one it finished took.
    private var localOwed: MatchSession.PeerTurn?
    private var localOwedSince: Duration = .zero
    private var lastLocalTurn: Duration = .zero

    /// Says what time it is; a time earlier than the last one is ignored (the clock never goes back).
    mutating func set(_ time: Duration) {
        if time > now { now = time }
    }

    /// A side's time used in the current game (or the last one) until now.
    func used(by side: MatchSession.Side) -> Duration {
        let running = running == side ? now - runningSince : .zero
        return (side == .local ? localUsed : peerUsed) + running
    }

    /// After an input: notes when the turn the local side owes (`owed`) began or how long the one it finished took,
    /// charges the side whose turn ended and starts the clock of `mover`, the side to move in game `number` (both
    /// clocks start from zero when `number` is a new game).
    mutating func advance(owed: MatchSession.PeerTurn?, mover: MatchSession.Side?, game number: Int?) {
        if owed != localOwed {
            if localOwed != nil { lastLocalTurn = now - localOwedSince }
            localOwed = owed
            localOwedSince = now
        }
        if let number, number != game {
            // A new game (or the first): fresh clocks.
            game = number
            localUsed = .zero
            peerUsed = .zero
            running = mover
            runningSince = now
            return
        }
        guard mover != running else { return }
        let used = now - runningSince
        switch running {
        case .local?: localUsed += used
        case .peer?: peerUsed += used
        case nil: break
        }
        running = mover
        runningSince = now
    }

    /// The time of the turn the local side owes the peer so far, or of the last one it finished (it may have crossed
    /// the peer's verdict).
    var localTurnTime: Duration { localOwed != nil ? now - localOwedSince : lastLocalTurn }

    /// Whether a `bye(timeout)` from a peer that announced `limits` can be true now: the local side's turn (or its
    /// last one) has reached the announced move limit, or its time in the game the announced game limit, each less
    /// `tolerance`.
    func timeoutClaimHolds(_ limits: TimeLimits, tolerance: Duration) -> Bool {
        if let limit = limits.move, localTurnTime + tolerance >= limit { return true }
        if let limit = limits.game, used(by: .local) + tolerance >= limit { return true }
        return false
    }

    /// Why a `bye(timeout)` from a peer that announced `limits` is not true, for its `error` frame.
    func timeoutClaimRefutation(_ limits: TimeLimits) -> String {
        if limits == .none { return "you announced no time limit in your handshake" }
        var used: [String] = []
        if let limit = limits.move {
            used.append("\(Self.seconds(localTurnTime)) of the \(Self.seconds(limit)) move limit")
        }
        if let limit = limits.game {
            used.append("\(Self.seconds(self.used(by: .local))) of the \(Self.seconds(limit)) game clock")
        }
        return "our time has not run out: " + used.joined(separator: ", ") + " used"
    }

    /// A duration as seconds with one decimal, for texts ("2.5 s").
    private static func seconds(_ duration: Duration) -> String {
        let tenths = Int64(duration.components.seconds) * 10 + duration.components.attoseconds / 100_000_000_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}

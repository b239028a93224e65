import GameRules

/// What a spectator is shown (`GameMessage.watch`, host → spectator, protocol 2): the whole position, sent when a
/// spectator gets in and again after every change. A spectator joining mid-game needs nothing else to show the game,
/// and one that misses an update (it never does on TCP, but it may be dropped as too slow) is never out of step.
public struct WatchedMatch: Sendable, Hashable {
    /// Where the match is.
    public struct Phase: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// No player yet, or between two matches: the host waits for a joiner.
        public static let waiting = Phase(rawValue: 0)
        /// A game is being played: `toMove` has the move.
        public static let playing = Phase(rawValue: 1)
        /// The game `game` is over (`winner`, `reason`); a rematch may follow.
        public static let over = Phase(rawValue: 2)

        public var description: String {
            switch self {
            case .waiting: return "waiting"
            case .playing: return "playing"
            case .over: return "over"
            default: return "phase-\(rawValue)"
            }
        }
    }

    /// Why a game ended, as a spectator is told (`GameEndReason` without its details).
    public struct Ending: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let none = Ending(rawValue: 0)
        public static let line = Ending(rawValue: 1)
        public static let draw = Ending(rawValue: 2)
        public static let resignation = Ending(rawValue: 3)
        public static let forfeit = Ending(rawValue: 4)
        public static let timeout = Ending(rawValue: 5)

        public init(_ reason: GameEndReason) {
            switch reason {
            case .line: self = .line
            case .draw: self = .draw
            case .resignation: self = .resignation
            case .forfeit: self = .forfeit
            case .timeout: self = .timeout
            }
        }

        public var description: String {
            switch self {
            case .none: return "none"
            case .line: return "line"
            case .draw: return "draw"
            case .resignation: return "resignation"
            case .forfeit: return "forfeit"
            case .timeout: return "timeout"
            default: return "ending-\(rawValue)"
            }
        }
    }

    /// The host's player name.
    public var hostName: String
    /// The joiner's player name ("" while nobody plays).
    public var joinerName: String
    /// The game's number in the match (1-based; 0 before the first).
    public var game: UInt16
    /// The host's mark in this game (nil before the first game); the joiner has the other.
    public var hostMark: Mark?
    /// The mark that moved first in this game.
    public var firstMover: Mark?
    public var board: Board
    public var phase: Phase
    /// The game's winner once it is over (nil: a draw, or not over).
    public var winner: Mark?
    public var ending: Ending
    /// The match's score so far.
    public var hostWins: UInt16
    public var joinerWins: UInt16
    public var draws: UInt16

    public init(
        hostName: String, joinerName: String = "", game: UInt16 = 0, hostMark: Mark? = nil, firstMover: Mark? = nil,
        board: Board = Board(), phase: Phase = .waiting, winner: Mark? = nil, ending: Ending = .none,
        hostWins: UInt16 = 0, joinerWins: UInt16 = 0, draws: UInt16 = 0
    ) {
        self.hostName = hostName
        self.joinerName = joinerName
        self.game = game
        self.hostMark = hostMark
        self.firstMover = firstMover
        self.board = board
        self.phase = phase
        self.winner = winner
        self.ending = ending
        self.hostWins = hostWins
        self.joinerWins = joinerWins
        self.draws = draws
    }

    /// The longest name a `watch` frame carries, in UTF-8 bytes (so that the frame stays far below the frame limit).
    public static let maximumNameLength = 100

    /// The player name of `mark`'s side in this game (nil before the first game).
    public func name(of mark: Mark) -> String? {
        guard let hostMark else { return nil }
        return mark == hostMark ? hostName : joinerName
    }

    /// Whose move it is while a game is played: the first mover after an even number of marks.
    public var toMove: Mark? {
        guard phase == .playing, let firstMover else { return nil }
        let placed = Board.cellCount - board.emptyCells.count
        return placed % 2 == 0 ? firstMover : firstMover.opponent
    }
}

import AppCore
import GameRules
import MatchPlay

/// The games of a series (`tictactoe match`), in the order they are reported: every pair of players (the first
/// listed against each later one, in the order given: (1,2), (1,3), …, (2,3), …) plays `gamesPerPair` games, one pair
/// after the other. In a pair's odd games its first player is X, in its even games the second: X always moves first,
/// so the first move alternates like a network match's (where the joiner is X in odd games). Pure: no I/O.
public struct SeriesSchedule: Sendable {
    /// One scheduled game: which players (indices into the players given), who is X.
    public struct Game: Sendable, Hashable {
        /// 1-based number in the whole series (the transcript's file name: `game-0001.jsonl`).
        public var number: Int
        /// The index of the pair in `SeriesSchedule.pairs`.
        public var pair: Int
        /// 1-based number within the pair.
        public var pairGame: Int
        /// The player playing X (moves first), and O.
        public var x: Int
        public var o: Int

        /// The pair's first player (the side its score is counted from).
        public var first: Int { min(x, o) }
    }

    /// Each pair (first, second) with first < second, in play order.
    public let pairs: [(first: Int, second: Int)]
    public let gamesPerPair: Int
    public let players: Int

    public init(players: Int, gamesPerPair: Int) {
        precondition(players >= 2 && gamesPerPair >= 1)
        self.players = players
        self.gamesPerPair = gamesPerPair
        var pairs: [(Int, Int)] = []
        for first in 0..<players {
            for second in (first + 1)..<players { pairs.append((first, second)) }
        }
        self.pairs = pairs
    }

    /// Games in the series.
    public var count: Int { pairs.count * gamesPerPair }

    /// The game numbered `number` (1...count).
    public func game(_ number: Int) -> Game {
        let index = number - 1
        let pair = index / gamesPerPair
        let pairGame = index % gamesPerPair + 1
        let (first, second) = pairs[pair]
        let firstIsX = pairGame % 2 == 1
        return Game(
            number: number, pair: pair, pairGame: pairGame, x: firstIsX ? first : second, o: firstIsX ? second : first)
    }
}

/// The seeds a series derives from its one seed (`--seed`, printed first): each game's X and O players get their
/// own, from the game's number alone, so a game plays the same whichever games run beside it (`--concurrency`) and
/// whatever ran before it.
public enum SeriesSeeds {
    /// The seed of the player of `mark` in game `number`: the first output of SplitMix64 seeded with the series seed
    /// mixed with the game number and the mark.
    public static func seed(series: UInt64, game number: Int, mark: Mark) -> UInt64 {
        let slot = UInt64(truncatingIfNeeded: number) &* 2 &+ (mark == .x ? 0 : 1)
        var mixer = SplitMix64(seed: series ^ (slot &* 0xD1B5_4A32_D192_ED03))
        return mixer.next()
    }
}

/// The players' names in the output: each `PlayerSpec` as written, an engine by its program's file name (as its log
/// is named: `engine:python3 bots/perfect.py` is `perfect.py`); one given twice or more gets `#1`, `#2`, … in the
/// order given (`perfect#1 vs perfect#2`).
public enum SeriesNames {
    public static func names(_ specs: [PlayerSpec]) -> [String] {
        let plain = specs.map { spec in spec.engineCommand.map(EngineSeat.logName) ?? spec.description }
        var seen: [String: Int] = [:]
        return plain.map { name in
            guard plain.filter({ $0 == name }).count > 1 else { return name }
            seen[name, default: 0] += 1
            return "\(name)#\(seen[name]!)"
        }
    }
}

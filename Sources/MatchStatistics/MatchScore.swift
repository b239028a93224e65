#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The results of a series between two players, from the first player's side: wins, losses, draws. Pure arithmetic
/// (the trinomial model of cutechess-cli and fastchess), no I/O.
public struct MatchScore: Sendable, Hashable {
    public var wins: Int
    public var losses: Int
    public var draws: Int

    public init(wins: Int = 0, losses: Int = 0, draws: Int = 0) {
        self.wins = wins
        self.losses = losses
        self.draws = draws
    }

    /// The games played.
    public var games: Int { wins + losses + draws }

    /// Points: a win 1, a draw ½.
    public var points: Double { Double(wins) + Double(draws) / 2 }

    /// The mean score per game (0...1), or nil when no game has been played.
    public var score: Double? {
        games == 0 ? nil : points / Double(games)
    }

    /// The per-game variance of the score under the trinomial model, from the observed frequencies w, d, l and the
    /// mean score s: w·(1−s)² + d·(½−s)² + l·(0−s)². Nil when no game has been played.
    public var variance: Double? {
        guard let s = score else { return nil }
        let n = Double(games)
        let w = Double(wins) / n
        let d = Double(draws) / n
        let l = Double(losses) / n
        return w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s
    }

    /// The Elo difference, its 95% interval and LOS; nil when no game has been played.
    public var elo: EloEstimate? {
        guard let s = score, let variance else { return nil }
        let standardError = (variance / Double(games)).squareRoot()
        let lower = Elo.difference(forScore: s - Elo.z975 * standardError)
        let upper = Elo.difference(forScore: s + Elo.z975 * standardError)
        let margin = lower.isFinite && upper.isFinite ? (upper - lower) / 2 : Double.infinity
        let decisive = Double(wins + losses)
        let los = decisive == 0 ? 0.5 : 0.5 * (1 + erf(Double(wins - losses) / (2 * decisive).squareRoot()))
        return EloEstimate(
            difference: Elo.difference(forScore: s), lower: lower, upper: upper, margin: margin,
            likelihoodOfSuperiority: los, drawRatio: Double(draws) / Double(games))
    }

    /// Adds one game's result from the first player's side.
    public mutating func record(_ outcome: Outcome) {
        switch outcome {
        case .win: wins += 1
        case .loss: losses += 1
        case .draw: draws += 1
        }
    }

    public enum Outcome: Sendable, Hashable {
        case win, loss, draw
    }

    /// cutechess-cli's progress line: `Score of A vs B: 10 - 5 - 3  [0.639] 18` (wins, losses, draws from A's side,
    /// then the score to three decimals and the games; `[-]` before the first game).
    public func progressLine(_ first: String, versus second: String) -> String {
        let ratio = score.map { Formatting.fixed($0, digits: 3) } ?? "-"
        return "Score of \(first) vs \(second): \(wins) - \(losses) - \(draws)  [\(ratio)] \(games)"
    }

    /// cutechess-cli's Elo line: `Elo difference: 31.4 +/- 132.6, LOS: 67.5 %, DrawRatio: 16.7 %` (`inf` where the
    /// interval is unbounded, e.g. all wins); nil when no game has been played.
    public var eloLine: String? {
        guard let elo else { return nil }
        let difference = Formatting.fixed(elo.difference, digits: 1)
        let margin = Formatting.fixed(elo.margin, digits: 1)
        let los = Formatting.fixed(elo.likelihoodOfSuperiority * 100, digits: 1)
        let draws = Formatting.fixed(elo.drawRatio * 100, digits: 1)
        return "Elo difference: \(difference) +/- \(margin), LOS: \(los) %, DrawRatio: \(draws) %"
    }
}

/// An Elo difference with its 95% confidence interval (normal approximation of the mean score, converted to Elo).
///
/// Edge cases, without NaN: all wins gives +∞ with the interval [+∞, +∞]; all losses −∞ with [−∞, −∞]; all draws 0
/// with [0, 0]; whenever a bound is infinite the margin is +∞.
public struct EloEstimate: Sendable, Hashable {
    /// Elo(mean score).
    public var difference: Double
    /// Elo(s − 1.959964·σ/√n) and Elo(s + 1.959964·σ/√n).
    public var lower: Double
    public var upper: Double
    /// Half the interval's width, `(upper − lower) / 2`: what cutechess-cli and fastchess print after `+/-`.
    public var margin: Double
    /// The likelihood of superiority, ½·(1 + erf((W − L) / √(2(W + L)))); ½ when no game was decisive.
    public var likelihoodOfSuperiority: Double
    /// Draws / games.
    public var drawRatio: Double
}

/// The logistic Elo scale.
public enum Elo {
    /// The 97.5% quantile of the standard normal distribution (a two-sided 95% interval).
    public static let z975 = 1.959963984540054

    /// Elo(p) = −400·log10(1/p − 1); −∞ for p ≤ 0, +∞ for p ≥ 1.
    public static func difference(forScore p: Double) -> Double {
        if p <= 0 { return -.infinity }
        if p >= 1 { return .infinity }
        return -400 * log10(1 / p - 1)
    }

    /// The expected score of an Elo difference: 1 / (1 + 10^(−elo/400)).
    public static func score(forDifference elo: Double) -> Double {
        1 / (1 + pow(10, -elo / 400))
    }
}

/// Fixed-point text without Foundation.
public enum Formatting {
    /// `x` rounded to `digits` decimals (half away from zero): `fixed(0.6388, digits: 3)` is `"0.639"`; `"inf"`,
    /// `"-inf"` and `"nan"` for those values.
    public static func fixed(_ x: Double, digits: Int) -> String {
        if x.isNaN { return "nan" }
        if x.isInfinite { return x < 0 ? "-inf" : "inf" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(x) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(x) }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        let fraction = units % Int64(scale)
        let sign = x < 0 && units != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }
}

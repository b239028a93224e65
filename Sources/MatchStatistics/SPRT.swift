#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1 (logistic Elo), with the trinomial
/// (win/draw/loss) model and the generalized SPRT's normal approximation, as fastchess computes it
/// (`--sprt model=logistic`) and fishtest's `LLR_logistic`:
///
///     LLR = n · (s1 − s0) · (2·s − s0 − s1) / (2·σ²)
///
/// where s0, s1 are the expected scores of elo0 and elo1, s the mean score and σ² the per-game variance
/// (`MatchScore.variance`). Stop with H0 when LLR ≤ ln(β/(1−α)), with H1 when LLR ≥ ln((1−β)/α).
/// With no game, or a variance of 0 (all wins, all draws, all losses), the LLR is 0 (fastchess does the same): the
/// test goes on until the runner's game limit.
public struct SPRT: Sendable, Hashable {
    public var elo0: Double
    public var elo1: Double
    public var alpha: Double
    public var beta: Double

    public enum Decision: String, Sendable, Hashable {
        case acceptH0 = "H0"
        case acceptH1 = "H1"
        case `continue` = "continue"
    }

    public enum ParameterError: Error, Sendable, Hashable, CustomStringConvertible {
        case elo0NotBelowElo1
        case probabilityOutOfRange(String)

        public var description: String {
            switch self {
            case .elo0NotBelowElo1: return "SPRT: elo0 must be less than elo1"
            case .probabilityOutOfRange(let name): return "SPRT: \(name) must be between 0 and 1 (exclusive)"
            }
        }
    }

    /// - Throws: `ParameterError` unless elo0 < elo1 and 0 < α, β < 1 (and α + β < 1, so the bounds are ordered).
    public init(elo0: Double, elo1: Double, alpha: Double, beta: Double) throws(ParameterError) {
        guard elo0 < elo1 else { throw .elo0NotBelowElo1 }
        guard alpha > 0, alpha < 1 else { throw .probabilityOutOfRange("alpha") }
        guard beta > 0, beta < 1, alpha + beta < 1 else { throw .probabilityOutOfRange("beta") }
        self.elo0 = elo0
        self.elo1 = elo1
        self.alpha = alpha
        self.beta = beta
    }

    /// ln(β / (1 − α)): at or below it, H0 is accepted.
    public var lowerBound: Double { log(beta / (1 - alpha)) }
    /// ln((1 − β) / α): at or above it, H1 is accepted.
    public var upperBound: Double { log((1 - beta) / alpha) }

    /// The log-likelihood ratio of the results so far.
    public func logLikelihoodRatio(_ results: MatchScore) -> Double {
        guard let s = results.score, let variance = results.variance, variance > 0 else { return 0 }
        let s0 = Elo.score(forDifference: elo0)
        let s1 = Elo.score(forDifference: elo1)
        return Double(results.games) * (s1 - s0) * (2 * s - s0 - s1) / (2 * variance)
    }

    public func decision(_ results: MatchScore) -> Decision {
        let llr = logLikelihoodRatio(results)
        if llr >= upperBound { return .acceptH1 }
        if llr <= lowerBound { return .acceptH0 }
        return .continue
    }

    /// fastchess's line: `LLR: 2.95 (-2.94,2.94) [0.00,5.00]`.
    public func line(_ results: MatchScore) -> String {
        "LLR: \(Formatting.fixed(logLikelihoodRatio(results), digits: 2)) "
            + "(\(Formatting.fixed(lowerBound, digits: 2)),\(Formatting.fixed(upperBound, digits: 2))) "
            + "[\(Formatting.fixed(elo0, digits: 2)),\(Formatting.fixed(elo1, digits: 2))]"
    }
}

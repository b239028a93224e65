import MatchStatistics
import XCTest

/// The expected figures were computed independently with Python 3.11's standard library (math, statistics.NormalDist),
/// from the formulas as cutechess-cli and fastchess state them (score s = (W + D/2)/N; per-game variance
/// w(1−s)² + d(½−s)² + l·s²; interval s ± NormalDist().inv_cdf(0.975)·√(var/N) converted with
/// Elo(p) = −400·log10(1/p − 1); LOS ½(1 + erf((W−L)/√(2(W+L)))); LLR = N(s1−s0)(2s−s0−s1)/(2·var)):
///
///     import math
///     from statistics import NormalDist
///     def elo(p): return -400 * math.log10(1 / p - 1)
///     def stats(w, l, d):
///         n = w + l + d; s = (w + d / 2) / n
///         var = (w / n) * (1 - s) ** 2 + (d / n) * (0.5 - s) ** 2 + (l / n) * (0 - s) ** 2
///         se = math.sqrt(var / n); z = NormalDist().inv_cdf(0.975)
///         los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l))))
///         return s, var, elo(s), elo(s - z * se), elo(s + z * se), (elo(s + z * se) - elo(s - z * se)) / 2, los
///     def llr(w, l, d, e0, e1):
///         n = w + l + d; s = (w + d / 2) / n
///         var = (w / n) * (1 - s) ** 2 + (d / n) * (0.5 - s) ** 2 + (l / n) * (0 - s) ** 2
///         s0 = 1 / (1 + 10 ** (-e0 / 400)); s1 = 1 / (1 + 10 ** (-e1 / 400))
///         return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
///     print(stats(10, 5, 3), stats(30, 20, 50), stats(7, 3, 0))
///     print(llr(1200, 1000, 1800, 0, 5), llr(1000, 1000, 2000, 0, 5), llr(10, 5, 3, 0, 5))
///     print(math.log(0.05 / 0.95), math.log(0.95 / 0.05))
final class MatchStatisticsTests: XCTestCase {
    func testScoreEloAndIntervalAgainstPython() throws {
        // (10, 5, 3): score 0.6388888888888888, var 0.18904320987654322, Elo 99.11379348430242,
        // interval [-43.284142637296846, 287.73871149852636], margin 165.5114270679116, LOS 0.9016471987705266.
        let a = MatchScore(wins: 10, losses: 5, draws: 3)
        XCTAssertEqual(a.games, 18)
        XCTAssertEqual(try XCTUnwrap(a.score), 0.6388888888888888, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(a.variance), 0.18904320987654322, accuracy: 1e-12)
        let eloA = try XCTUnwrap(a.elo)
        XCTAssertEqual(eloA.difference, 99.11379348430242, accuracy: 1e-9)
        XCTAssertEqual(eloA.lower, -43.284142637296846, accuracy: 1e-9)
        XCTAssertEqual(eloA.upper, 287.73871149852636, accuracy: 1e-9)
        XCTAssertEqual(eloA.margin, 165.5114270679116, accuracy: 1e-9)
        XCTAssertEqual(eloA.likelihoodOfSuperiority, 0.9016471987705266, accuracy: 1e-12)
        XCTAssertEqual(eloA.drawRatio, 3.0 / 18, accuracy: 1e-12)

        // (30, 20, 50): score 0.55, var 0.1225, Elo 34.86007028756008, interval [-12.929693470337863,
        // 84.01076264940247], margin 48.470228059870166, LOS 0.9213503964748575.
        let b = try XCTUnwrap(MatchScore(wins: 30, losses: 20, draws: 50).elo)
        XCTAssertEqual(b.difference, 34.86007028756008, accuracy: 1e-9)
        XCTAssertEqual(b.lower, -12.929693470337863, accuracy: 1e-9)
        XCTAssertEqual(b.upper, 84.01076264940247, accuracy: 1e-9)
        XCTAssertEqual(b.margin, 48.470228059870166, accuracy: 1e-9)
        XCTAssertEqual(b.likelihoodOfSuperiority, 0.9213503964748575, accuracy: 1e-12)

        // (7, 3, 0): Elo 147.19071411783776, interval [-58.94623015823473, 715.8345612641904].
        let c = try XCTUnwrap(MatchScore(wins: 7, losses: 3, draws: 0).elo)
        XCTAssertEqual(c.difference, 147.19071411783776, accuracy: 1e-9)
        XCTAssertEqual(c.lower, -58.94623015823473, accuracy: 1e-9)
        XCTAssertEqual(c.upper, 715.8345612641904, accuracy: 1e-9)
    }

    func testEloOfScoreByHand() {
        // By hand: Elo(0.5) = 0; Elo(0.75) = -400·log10(1/3) = 400·log10(3) = 190.848...; the inverse: 0.75.
        XCTAssertEqual(Elo.difference(forScore: 0.5), 0, accuracy: 1e-12)
        XCTAssertEqual(Elo.difference(forScore: 0.75), 190.84850188786497, accuracy: 1e-9)
        XCTAssertEqual(Elo.score(forDifference: 190.84850188786497), 0.75, accuracy: 1e-12)
        XCTAssertEqual(Elo.difference(forScore: 0), -.infinity)
        XCTAssertEqual(Elo.difference(forScore: 1), .infinity)
    }

    func testLines() {
        // cutechess-cli's format, the figures above rounded.
        let score = MatchScore(wins: 10, losses: 5, draws: 3)
        XCTAssertEqual(score.progressLine("A", versus: "B"), "Score of A vs B: 10 - 5 - 3  [0.639] 18")
        XCTAssertEqual(score.eloLine, "Elo difference: 99.1 +/- 165.5, LOS: 90.2 %, DrawRatio: 16.7 %")
        XCTAssertEqual(MatchScore().progressLine("A", versus: "B"), "Score of A vs B: 0 - 0 - 0  [-] 0")
    }

    func testEdgeCasesHaveDocumentedValuesNotNaN() throws {
        XCTAssertNil(MatchScore().score)
        XCTAssertNil(MatchScore().elo)
        XCTAssertNil(MatchScore().eloLine)

        let allWins = try XCTUnwrap(MatchScore(wins: 4).elo)
        XCTAssertEqual(allWins.difference, .infinity)
        XCTAssertEqual(allWins.lower, .infinity)
        XCTAssertEqual(allWins.upper, .infinity)
        XCTAssertEqual(allWins.margin, .infinity)
        // python3: 0.5 * (1 + math.erf(4 / math.sqrt(8))) = 0.9772498680518208.
        XCTAssertEqual(allWins.likelihoodOfSuperiority, 0.9772498680518208, accuracy: 1e-12)
        XCTAssertEqual(MatchScore(wins: 4).eloLine, "Elo difference: inf +/- inf, LOS: 97.7 %, DrawRatio: 0.0 %")

        let allLosses = try XCTUnwrap(MatchScore(losses: 4).elo)
        XCTAssertEqual(allLosses.difference, -.infinity)
        XCTAssertEqual(allLosses.lower, -.infinity)
        XCTAssertEqual(allLosses.margin, .infinity)
        XCTAssertEqual(allLosses.likelihoodOfSuperiority, 0.02275013194817921, accuracy: 1e-12)

        let allDraws = try XCTUnwrap(MatchScore(draws: 6).elo)
        XCTAssertEqual(allDraws.difference, 0)
        XCTAssertEqual(allDraws.lower, 0)
        XCTAssertEqual(allDraws.upper, 0)
        XCTAssertEqual(allDraws.margin, 0)
        XCTAssertEqual(allDraws.likelihoodOfSuperiority, 0.5)
        XCTAssertEqual(allDraws.drawRatio, 1)
    }

    func testSPRTAgainstPython() throws {
        let sprt = try SPRT(elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05)
        // Bounds: math.log(0.05/0.95) = -2.9444389791664403 and its negation.
        XCTAssertEqual(sprt.lowerBound, -2.9444389791664403, accuracy: 1e-12)
        XCTAssertEqual(sprt.upperBound, 2.9444389791664403, accuracy: 1e-12)
        // LLR (1200 W, 1000 L, 1800 D) = 4.500235757481542: H1.
        let better = MatchScore(wins: 1200, losses: 1000, draws: 1800)
        XCTAssertEqual(sprt.logLikelihoodRatio(better), 4.500235757481542, accuracy: 1e-9)
        XCTAssertEqual(sprt.decision(better), .acceptH1)
        XCTAssertEqual(sprt.line(better), "LLR: 4.50 (-2.94,2.94) [0.00,5.00]")
        // LLR (1000, 1000, 2000) = -0.8283072127988083: go on.
        let even = MatchScore(wins: 1000, losses: 1000, draws: 2000)
        XCTAssertEqual(sprt.logLikelihoodRatio(even), -0.8283072127988083, accuracy: 1e-9)
        XCTAssertEqual(sprt.decision(even), .continue)
        // LLR (10, 5, 3) = 0.09268664807835136.
        XCTAssertEqual(sprt.logLikelihoodRatio(MatchScore(wins: 10, losses: 5, draws: 3)), 0.09268664807835136,
            accuracy: 1e-12)
        // Four times (1000, 1000, 2000): LLR -3.313...: H0.
        XCTAssertEqual(sprt.decision(MatchScore(wins: 4000, losses: 4000, draws: 8000)), .acceptH0)
    }

    func testSPRTEdgeCases() throws {
        let sprt = try SPRT(elo0: 0, elo1: 10, alpha: 0.05, beta: 0.1)
        // No games, all wins, all draws: variance 0 or no data; the LLR is 0 (as in fastchess) and the test goes on.
        XCTAssertEqual(sprt.logLikelihoodRatio(MatchScore()), 0)
        XCTAssertEqual(sprt.logLikelihoodRatio(MatchScore(wins: 50)), 0)
        XCTAssertEqual(sprt.decision(MatchScore(draws: 50)), .continue)
        XCTAssertThrowsError(try SPRT(elo0: 5, elo1: 0, alpha: 0.05, beta: 0.05))
        XCTAssertThrowsError(try SPRT(elo0: 0, elo1: 5, alpha: 0, beta: 0.05))
        XCTAssertThrowsError(try SPRT(elo0: 0, elo1: 5, alpha: 0.05, beta: 1))
    }

    func testFixedFormatting() {
        XCTAssertEqual(Formatting.fixed(0.63888, digits: 3), "0.639")
        XCTAssertEqual(Formatting.fixed(-0.04, digits: 1), "0.0")  // no "-0.0"
        XCTAssertEqual(Formatting.fixed(-2.9444, digits: 2), "-2.94")
        XCTAssertEqual(Formatting.fixed(5, digits: 2), "5.00")
        XCTAssertEqual(Formatting.fixed(12.05, digits: 0), "12")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How fast an online guesser can find a private code under `PairingAttempts`'s limits: the figures its
/// documentation quotes, computed from a configuration (so a changed limit cannot leave them stale).
public struct GuessingOdds: Sendable, Hashable {
    /// How many private codes there are (six digits).
    public static let possibleCodes = 1_000_000

    /// The most guesses any one code faces.
    public let guessesPerCode: Int
    /// The shortest a code can live when the guesser uses many addresses in parallel (the cool-down).
    public let shortestCodeLifetime: Duration
    /// The shortest a code can live when the guesser uses one address: its guesses a `minimumInterval` apart, then
    /// the cool-down.
    public let shortestCodeLifetimeFromOneSource: Duration

    public init(guessesPerCode: Int, shortestCodeLifetime: Duration, shortestCodeLifetimeFromOneSource: Duration) {
        self.guessesPerCode = guessesPerCode
        self.shortestCodeLifetime = shortestCodeLifetime
        self.shortestCodeLifetimeFromOneSource = shortestCodeLifetimeFromOneSource
    }

    /// The chance that one code falls: `guessesPerCode` distinct guesses out of a million.
    public var chancePerCode: Double { Double(guessesPerCode) / Double(Self.possibleCodes) }

    /// The chance that the guesser has found a code after going through `codes` codes.
    public func chance(afterCodes codes: Int) -> Double {
        -expm1(Double(codes) * log1p(-chancePerCode))
    }

    /// How many codes the guesser must go through for `chance` (0 < chance < 1).
    public func codes(forChance chance: Double) -> Int {
        precondition(chance > 0 && chance < 1, "a chance is between 0 and 1")
        return Int((log1p(-chance) / log1p(-chancePerCode)).rounded(.up))
    }

    /// The least time the guesser needs for `chance`, from many addresses or from one.
    public func time(forChance chance: Double, fromOneSource: Bool = false) -> Duration {
        (fromOneSource ? shortestCodeLifetimeFromOneSource : shortestCodeLifetime) * codes(forChance: chance)
    }
}

extension PairingAttempts.Configuration {
    /// The guessing odds under these limits.
    public var guessingOdds: GuessingOdds {
        let spacedGuesses = minimumInterval * (failuresBeforeReplacement - 1) + cooldownAfterReplacement
        return GuessingOdds(
            guessesPerCode: failuresBeforeReplacement,
            shortestCodeLifetime: cooldownAfterReplacement,
            shortestCodeLifetimeFromOneSource: max(spacedGuesses, minimumInterval * failuresBeforeReplacement))
    }
}

import GamePairing
import XCTest

/// A guesser at the most the policy allows, over a minute of simulated time: how often the code is replaced, and
/// that no address gets more than one attempt a second and no code more than three guesses.
final class PairingAttemptsSimulationTests: XCTestCase {
    struct Scenario {
        var addresses: Int
        /// How long each handshake takes before it fails with a wrong code.
        var handshake: Int64
        var expectedReplacements: Int
    }

    struct Result {
        var replacements: [Int64] = []
        var guessesPerCode: [Int: Int] = [:]
        var attemptsPerSource: [AttemptSource: [Int64]] = [:]
        var refusals = 0
    }

    /// Every 10 ms each address tries again unless its handshake is under way; each handshake ends `handshake` ms
    /// later with a wrong code.
    func simulate(_ scenario: Scenario, seconds: Int64 = 60) -> Result {
        var policy = PairingAttempts<TestInstant>()
        let sources = (0..<scenario.addresses).map { AttemptSource(ipAddress: "10.0.\($0 / 256).\($0 % 256)")! }
        var result = Result()
        var code = 0
        var running: [(ends: Int64, attempt: PairingAttempts<TestInstant>.Attempt, code: Int)] = []
        for now in stride(from: Int64(0), to: seconds * 1000, by: 10) {
            for finished in running.filter({ $0.ends <= now }) {
                for action in policy.record(finished.attempt, .wrongCode, at: ms(now)) {
                    if case .replaceCode = action {
                        result.replacements.append(now)
                        code += 1
                    }
                }
            }
            running.removeAll { $0.ends <= now }
            for each in sources where !running.contains(where: { $0.attempt.source == each }) {
                switch policy.admit(each, at: ms(now)) {
                case .proceed(let attempt):
                    running.append((now + scenario.handshake, attempt, code))
                    result.guessesPerCode[code, default: 0] += 1
                    result.attemptsPerSource[each, default: []].append(now)
                case .tooSoon:
                    result.refusals += 1
                }
            }
        }
        return result
    }

    func testAGuesserAtTheMaximumRateForAMinute() {
        let scenarios = [
            Scenario(addresses: 1, handshake: 20, expectedReplacements: 12),
            Scenario(addresses: 3, handshake: 20, expectedReplacements: 20),
            Scenario(addresses: 50, handshake: 20, expectedReplacements: 20),
            Scenario(addresses: 50, handshake: 900, expectedReplacements: 16),
        ]
        let odds = PairingAttempts<TestInstant>.Configuration().guessingOdds
        for scenario in scenarios {
            let result = simulate(scenario)
            let guesses = result.guessesPerCode.values.reduce(0, +)
            print("""
                guesser from \(scenario.addresses) address(es), \(scenario.handshake) ms handshakes, 60 s: \
                \(guesses) guesses, \(result.replacements.count) code replacements, \(result.refusals) refusals
                """)
            XCTAssertEqual(result.replacements.count, scenario.expectedReplacements, "\(scenario)")
            XCTAssertLessThanOrEqual(result.guessesPerCode.values.max() ?? 0, 3, "no code faces more than 3 guesses")
            let lifetime = scenario.addresses == 1 ? odds.shortestCodeLifetimeFromOneSource : odds.shortestCodeLifetime
            for (earlier, later) in zip(result.replacements, result.replacements.dropFirst()) {
                XCTAssertGreaterThanOrEqual(Duration.milliseconds(later - earlier), lifetime, "\(scenario)")
            }
            for (source, times) in result.attemptsPerSource {
                for (earlier, later) in zip(times, times.dropFirst()) {
                    XCTAssertGreaterThanOrEqual(later - earlier, 1000, "\(source) tried twice within a second")
                }
            }
        }
    }

    func testTheGuessingOddsFigures() {
        let odds = PairingAttempts<TestInstant>.Configuration().guessingOdds
        XCTAssertEqual(odds.guessesPerCode, 3)
        XCTAssertEqual(odds.chancePerCode, 3.0 / 1_000_000)
        XCTAssertEqual(odds.shortestCodeLifetime, .seconds(3))
        XCTAssertEqual(odds.shortestCodeLifetimeFromOneSource, .seconds(5))
        XCTAssertEqual(odds.codes(forChance: 0.01), 3351)
        XCTAssertEqual(odds.codes(forChance: 0.5), 231_049)
        XCTAssertEqual(odds.time(forChance: 0.01), .seconds(10_053))  // 2 h 47 min
        XCTAssertEqual(odds.time(forChance: 0.01, fromOneSource: true), .seconds(16_755))  // 4 h 39 min
        XCTAssertEqual(odds.time(forChance: 0.5), .seconds(693_147))  // 8.0 days
        XCTAssertEqual(odds.time(forChance: 0.5, fromOneSource: true), .seconds(1_155_245))  // 13.4 days
        XCTAssertEqual(odds.chance(afterCodes: 3351), 0.01, accuracy: 0.0001)
        XCTAssertEqual(odds.chance(afterCodes: 1), 3e-6, accuracy: 1e-12)
        func hours(_ duration: Duration) -> String {
            let seconds = duration.components.seconds
            return "\(seconds / 3600) h \(seconds % 3600 / 60) min (\(seconds / 86_400) d \(seconds % 86_400 / 3600) h)"
        }
        for chance in [0.01, 0.1, 0.5] {
            print("""
                chance \(chance): \(odds.codes(forChance: chance)) codes, \
                \(odds.codes(forChance: chance) * odds.guessesPerCode) guesses; \
                many addresses ≥ \(hours(odds.time(forChance: chance))), \
                one address ≥ \(hours(odds.time(forChance: chance, fromOneSource: true)))
                """)
        }
    }
}

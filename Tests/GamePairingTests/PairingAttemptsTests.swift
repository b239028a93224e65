import GamePairing
import XCTest

/// Time as the test says it is: an offset from the test's start.
struct TestInstant: InstantProtocol, CustomStringConvertible {
    var offset: Duration
    func advanced(by duration: Duration) -> TestInstant { TestInstant(offset: offset + duration) }
    func duration(to other: TestInstant) -> Duration { other.offset - offset }
    static func < (lhs: TestInstant, rhs: TestInstant) -> Bool { lhs.offset < rhs.offset }
    var description: String { "t+\(offset)" }
}

/// The instant `milliseconds` ms after the test's start.
func ms(_ milliseconds: Int64) -> TestInstant { TestInstant(offset: .milliseconds(milliseconds)) }

typealias Attempts = PairingAttempts<TestInstant>

func source(_ text: String) -> AttemptSource { AttemptSource(ipAddress: text)! }

extension Attempts {
    /// Admits an attempt that must proceed.
    mutating func mustAdmit(_ source: AttemptSource, at now: TestInstant, line: UInt = #line) throws -> Attempt {
        guard case .proceed(let attempt) = admit(source, at: now) else {
            XCTFail("\(source) refused at \(now)", line: line)
            throw XCTSkip("refused")
        }
        return attempt
    }
}

final class PairingAttemptsTests: XCTestCase {
    let a = source("192.0.2.1")
    let b = source("192.0.2.2")
    let c = source("2001:db8::3")

    func testThreeWrongCodesInARowReplaceTheCodeWithAReason() throws {
        var policy = Attempts()
        var actions: [[Attempts.Action]] = []
        for second: Int64 in 0..<3 {
            let attempt = try policy.mustAdmit(a, at: ms(second * 1000))
            actions.append(policy.record(attempt, .wrongCode, at: ms(second * 1000 + 20)))
        }
        XCTAssertEqual(actions[0], [.announceFailure(source: a, failuresInARow: 1, fromSource: 1)])
        XCTAssertEqual(actions[1], [.announceFailure(source: a, failuresInARow: 2, fromSource: 2)])
        XCTAssertEqual(actions[2], [
            .announceFailure(source: a, failuresInARow: 3, fromSource: 3),
            .replaceCode(reason: .wrongCodesInARow(3)),
        ])
        XCTAssertEqual(
            "\(Attempts.ReplacementReason.wrongCodesInARow(3))", "3 wrong codes in a row")
        XCTAssertEqual(policy.failuresInARow, 0, "the new code starts with a clean count")
    }

    func testASuccessInBetweenResetsTheStreak() throws {
        var policy = Attempts()
        var attempt = try policy.mustAdmit(a, at: ms(0))
        _ = policy.record(attempt, .wrongCode, at: ms(10))
        attempt = try policy.mustAdmit(b, at: ms(100))
        _ = policy.record(attempt, .wrongCode, at: ms(110))
        attempt = try policy.mustAdmit(c, at: ms(200))
        XCTAssertEqual(policy.record(attempt, .success, at: ms(210)), [.resetStreak])
        XCTAssertEqual(policy.failuresInARow, 0)
        // Two more wrong codes do not replace the code: the count started again.
        attempt = try policy.mustAdmit(a, at: ms(1000))
        XCTAssertEqual(policy.record(attempt, .wrongCode, at: ms(1010)),
                       [.announceFailure(source: a, failuresInARow: 1, fromSource: 2)])
        attempt = try policy.mustAdmit(b, at: ms(1100))
        XCTAssertEqual(policy.record(attempt, .wrongCode, at: ms(1110)),
                       [.announceFailure(source: b, failuresInARow: 2, fromSource: 2)])
        // A success with nothing to reset asks for nothing.
        attempt = try policy.mustAdmit(c, at: ms(1200))
        XCTAssertEqual(policy.record(attempt, .success, at: ms(1210)), [.resetStreak])
        attempt = try policy.mustAdmit(c, at: ms(2200))
        XCTAssertEqual(policy.record(attempt, .success, at: ms(2210)), [])
    }

    func testTwoAttemptsFromOneSourceWithinASecondAreTooSoon() throws {
        var policy = Attempts()
        let attempt = try policy.mustAdmit(a, at: ms(0))
        _ = policy.record(attempt, .wrongCode, at: ms(30))
        XCTAssertEqual(policy.admit(a, at: ms(600)), .tooSoon(retryAfter: .milliseconds(400), because: .sourceTooSoon))
        XCTAssertEqual(policy.admit(a, at: ms(999)), .tooSoon(retryAfter: .milliseconds(1), because: .sourceTooSoon))
        // A refused attempt does not push the next one back.
        _ = try policy.mustAdmit(a, at: ms(1000))
        // The same machine over IPv4-mapped IPv6 (a dual-stack listener) is the same source.
        XCTAssertEqual(policy.admit(source("::ffff:192.0.2.1"), at: ms(1500)),
                       .tooSoon(retryAfter: .milliseconds(500), because: .sourceTooSoon))
    }

    func testSourcesAreIndependentForTheRateLimitButShareTheStreak() throws {
        var policy = Attempts()
        let first = try policy.mustAdmit(a, at: ms(0))
        let second = try policy.mustAdmit(b, at: ms(5))
        XCTAssertEqual(policy.admit(a, at: ms(10)), .tooSoon(retryAfter: .milliseconds(990), because: .sourceTooSoon))
        XCTAssertEqual(policy.record(first, .wrongCode, at: ms(20)),
                       [.announceFailure(source: a, failuresInARow: 1, fromSource: 1)])
        XCTAssertEqual(policy.record(second, .wrongCode, at: ms(25)),
                       [.announceFailure(source: b, failuresInARow: 2, fromSource: 1)])
        let third = try policy.mustAdmit(c, at: ms(30))
        XCTAssertEqual(policy.record(third, .wrongCode, at: ms(40)), [
            .announceFailure(source: c, failuresInARow: 3, fromSource: 1),
            .replaceCode(reason: .wrongCodesInARow(3)),
        ])
    }

    func testTheRightCodeGetsInAfterFailuresOnceTheCooldownIsOver() throws {
        var policy = Attempts()
        for (index, stranger) in [a, b, c].enumerated() {
            let attempt = try policy.mustAdmit(stranger, at: ms(Int64(index)))
            _ = policy.record(attempt, .wrongCode, at: ms(100))
        }
        let joiner = source("192.0.2.50")
        XCTAssertEqual(
            policy.admit(joiner, at: ms(1100)), .tooSoon(retryAfter: .seconds(2), because: .codeJustReplaced))
        XCTAssertEqual(
            policy.admit(a, at: ms(3099)), .tooSoon(retryAfter: .milliseconds(1), because: .codeJustReplaced))
        let attempt = try policy.mustAdmit(joiner, at: ms(3100))
        XCTAssertTrue(policy.isCurrent(attempt))
        XCTAssertEqual(policy.record(attempt, .success, at: ms(3120)), [])

        // Two wrong codes on the new code, then the right one: in at once, and the count is reset.
        var fresh = Attempts()
        for (index, stranger) in [a, b].enumerated() {
            let attempt = try fresh.mustAdmit(stranger, at: ms(Int64(index)))
            _ = fresh.record(attempt, .wrongCode, at: ms(50))
        }
        let right = try fresh.mustAdmit(joiner, at: ms(60))
        XCTAssertEqual(fresh.record(right, .success, at: ms(80)), [.resetStreak])
    }

    func testOtherFailuresNeitherCountNorReset() throws {
        var policy = Attempts()
        var attempt = try policy.mustAdmit(a, at: ms(0))
        _ = policy.record(attempt, .wrongCode, at: ms(10))
        for second: Int64 in 1...10 {
            attempt = try policy.mustAdmit(b, at: ms(second * 1000))
            XCTAssertEqual(policy.record(attempt, .otherFailure, at: ms(second * 1000 + 10)), [])
        }
        XCTAssertEqual(policy.failuresInARow, 1)
        // Other failures are still attempts: the per-source limit applies to them.
        XCTAssertEqual(
            policy.admit(b, at: ms(10_500)), .tooSoon(retryAfter: .milliseconds(500), because: .sourceTooSoon))
    }

    func testNoCodeFacesMoreGuessesThanItHasLeft() throws {
        var policy = Attempts()
        let first = try policy.mustAdmit(a, at: ms(0))
        _ = policy.record(first, .wrongCode, at: ms(10))
        // One wrong code so far: two more attempts may run at once, a third must wait.
        let second = try policy.mustAdmit(b, at: ms(20))
        _ = try policy.mustAdmit(c, at: ms(30))
        XCTAssertEqual(policy.attemptsUnderWay, 2)
        XCTAssertEqual(policy.admit(source("192.0.2.9"), at: ms(40)),
                       .tooSoon(retryAfter: .seconds(1), because: .guessesUnderWay))
        // A source with an attempt under way waits for it to end, even after its second.
        XCTAssertEqual(policy.admit(b, at: ms(1500)), .tooSoon(retryAfter: .seconds(1), because: .sourceBusy))
        // An attempt that ends without a guess frees its place.
        XCTAssertEqual(policy.record(second, .otherFailure, at: ms(1600)), [])
        _ = try policy.mustAdmit(source("192.0.2.9"), at: ms(1700))
    }

    func testAttemptsNeverRecordedStopCountingAfterTheAllowance() throws {
        var policy = Attempts()
        let stalled = [try policy.mustAdmit(a, at: ms(0)), try policy.mustAdmit(b, at: ms(0)),
                       try policy.mustAdmit(c, at: ms(0))]
        XCTAssertEqual(policy.admit(source("192.0.2.9"), at: ms(9_500)),
                       .tooSoon(retryAfter: .milliseconds(500), because: .guessesUnderWay))
        let late = try policy.mustAdmit(source("192.0.2.9"), at: ms(10_000))
        XCTAssertEqual(policy.attemptsUnderWay, 1)
        // Late wrong codes still count (the next replacement can only come sooner) ...
        _ = policy.record(stalled[0], .wrongCode, at: ms(11_000))
        _ = policy.record(stalled[1], .wrongCode, at: ms(11_000))
        let replaced = policy.record(stalled[2], .wrongCode, at: ms(11_000))
        // ... and the attempt still under way on the replaced code is abandoned.
        XCTAssertEqual(replaced, [
            .announceFailure(source: c, failuresInARow: 3, fromSource: 1),
            .replaceCode(reason: .wrongCodesInARow(3)),
            .abandon(late),
        ])
        XCTAssertFalse(policy.isCurrent(late))
        XCTAssertEqual(policy.record(late, .success, at: ms(11_050)), [.abandon(late)],
                       "a joiner whose handshake ran on a replaced code does not get in")
        XCTAssertEqual(policy.attemptsUnderWay, 0)
    }

    func testSourceRecordsExpire() throws {
        var policy = Attempts()
        for second: Int64 in 0..<2 {
            let attempt = try policy.mustAdmit(a, at: ms(second * 1000))
            _ = policy.record(attempt, .wrongCode, at: ms(second * 1000 + 10))
        }
        let success = try policy.mustAdmit(b, at: ms(2000))
        _ = policy.record(success, .success, at: ms(2010))
        // A minute after its last attempt the source is new again: its wrong codes are forgotten.
        var attempt = try policy.mustAdmit(a, at: ms(60_999))
        XCTAssertEqual(policy.record(attempt, .wrongCode, at: ms(61_000)),
                       [.announceFailure(source: a, failuresInARow: 1, fromSource: 3)])
        attempt = try policy.mustAdmit(a, at: ms(122_000))
        XCTAssertEqual(policy.record(attempt, .wrongCode, at: ms(122_010)),
                       [.announceFailure(source: a, failuresInARow: 2, fromSource: 1)])
    }

    func testTheTableIsCappedWithoutForgettingALimit() throws {
        var policy = Attempts(configuration: .init(maximumSources: 4))
        let sources = (1...5).map { source("198.51.100.\($0)") }
        for (index, each) in sources.prefix(4).enumerated() {
            let attempt = try policy.mustAdmit(each, at: ms(Int64(index) * 100))
            _ = policy.record(attempt, .otherFailure, at: ms(Int64(index) * 100 + 10))
        }
        XCTAssertEqual(policy.rememberedSources, 4)
        // Every record still limits its source: the newcomer waits until the oldest one's second is over.
        XCTAssertEqual(
            policy.admit(sources[4], at: ms(500)), .tooSoon(retryAfter: .milliseconds(500), because: .tooManySources))
        _ = try policy.mustAdmit(sources[4], at: ms(1000))
        XCTAssertEqual(policy.rememberedSources, 4)
        // The evicted source is new again, once the next oldest can make room; the others are still limited.
        XCTAssertEqual(
            policy.admit(sources[0], at: ms(1050)), .tooSoon(retryAfter: .milliseconds(50), because: .tooManySources))
        _ = try policy.mustAdmit(sources[0], at: ms(1100))
        XCTAssertEqual(policy.rememberedSources, 4)
        XCTAssertEqual(
            policy.admit(sources[3], at: ms(1150)), .tooSoon(retryAfter: .milliseconds(150), because: .sourceTooSoon))
    }

    func testAFloodOfAddressesKeepsTheTableBounded() throws {
        var policy = Attempts()
        var now = ms(0)
        for index in 0..<5_000 {
            let address = source("2001:db8::\(String(index, radix: 16))")
            if case .proceed(let attempt) = policy.admit(address, at: now) {
                _ = policy.record(attempt, .otherFailure, at: now)
            }
            XCTAssertLessThanOrEqual(policy.rememberedSources, 1024)
            now = now.advanced(by: .milliseconds(1))
        }
        XCTAssertEqual(policy.rememberedSources, 1024)
    }

    func testProductionTimeIsTheContinuousClock() throws {
        var policy = PairingAttempts<ContinuousClock.Instant>()
        let start = ContinuousClock.now
        guard case .proceed(let attempt) = policy.admit(a, at: start) else { return XCTFail("refused") }
        XCTAssertEqual(policy.record(attempt, .wrongCode, at: start + .milliseconds(5)),
                       [.announceFailure(source: a, failuresInARow: 1, fromSource: 1)])
        XCTAssertEqual(policy.admit(a, at: start + .milliseconds(250)),
                       .tooSoon(retryAfter: .milliseconds(750), because: .sourceTooSoon))
    }
}

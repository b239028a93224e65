@testable import AppCore
import XCTest

/// A private host's refused connections: a flood from one address is said once, then counted.
final class RefusalDigestTests: XCTestCase {
    func testAFloodFromOneAddressIsSaidOnceThenCounted() {
        var digest = RefusalDigest(interval: .seconds(5))
        var lines: [RefusalDigest.Line] = []
        // 300 attempts from one address over 3 s, 10 from another.
        for tenth in 0..<300 {
            lines += digest.refused("198.18.0.12", reason: "too soon", at: .milliseconds(10 * tenth))
            if tenth % 30 == 0 { lines += digest.refused("198.18.0.13", reason: "too soon", at: .milliseconds(10 * tenth)) }
            lines += digest.tick(at: .milliseconds(10 * tenth))
        }
        XCTAssertEqual(lines, [.first(source: "198.18.0.12", reason: "too soon"),
                               .first(source: "198.18.0.13", reason: "too soon")])
        // Said once it has stopped (5 s after the first line), and the addresses are then forgotten.
        XCTAssertEqual(digest.tick(at: .seconds(4)), [])
        XCTAssertEqual(digest.tick(at: .seconds(5)), [.more(source: "198.18.0.12", count: 299),
                                                      .more(source: "198.18.0.13", count: 9)])
        XCTAssertEqual(digest.tick(at: .seconds(9)), [])
        XCTAssertTrue(digest.isEmpty)
        XCTAssertEqual(digest.refused("198.18.0.12", reason: "too soon", at: .seconds(20)),
                       [.first(source: "198.18.0.12", reason: "too soon")], "quiet since: said in full again")
    }

    func testAFloodThatGoesOnIsCountedAtMostEveryInterval() {
        var digest = RefusalDigest(interval: .seconds(5))
        var lines: [RefusalDigest.Line] = []
        for second in 0..<12 {
            for _ in 0..<10 { lines += digest.refused("198.18.0.12", reason: "too soon", at: .seconds(second)) }
            lines += digest.tick(at: .seconds(second))
        }
        XCTAssertEqual(lines, [.first(source: "198.18.0.12", reason: "too soon"),
                               .more(source: "198.18.0.12", count: 50), .more(source: "198.18.0.12", count: 50)])
    }
}

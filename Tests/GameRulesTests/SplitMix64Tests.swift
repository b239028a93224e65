import GameRules
import XCTest

final class SplitMix64Tests: XCTestCase {
    func testFirstOutputsForSeedZero() {
        var rng = SplitMix64(seed: 0)
        XCTAssertEqual(rng.next(), 0xE220_A839_7B1D_CDAF)
        XCTAssertEqual(rng.next(), 0x6E78_9E6A_A1B9_65F4)
        XCTAssertEqual(rng.next(), 0x06C4_5D18_8009_454F)
    }

    func testSameSeedSameSequenceDifferentSeedDifferentSequence() {
        var a = SplitMix64(seed: 1234)
        var b = SplitMix64(seed: 1234)
        var c = SplitMix64(seed: 1235)
        let first = (0..<100).map { _ in a.next() }
        XCTAssertEqual(first, (0..<100).map { _ in b.next() })
        XCTAssertNotEqual(first, (0..<100).map { _ in c.next() })
        XCTAssertEqual(Set(first).count, 100)
    }

    func testCopiesContinueIndependently() {
        var a = SplitMix64(seed: .max)
        _ = a.next()
        var b = a
        XCTAssertEqual(a.next(), b.next())
        XCTAssertEqual(a.next(), b.next())
    }
}

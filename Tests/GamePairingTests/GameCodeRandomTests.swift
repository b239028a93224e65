import GamePairing
import PairingCode
import XCTest

/// `GameCode.random()`: libsodium's CSPRNG draws six digits.
final class GameCodeRandomTests: XCTestCase {
    func testRandomCodesAreSixDigitsThatParseBack() throws {
        var seen = Set<String>()
        for _ in 0..<500 {
            let code = GameCode.random()
            let digits = try XCTUnwrap(code.revealed)
            XCTAssertEqual(digits.count, 6)
            XCTAssertTrue(digits.allSatisfy { ("0"..."9").contains($0) }, digits)
            XCTAssertFalse(code.isOpen)
            XCTAssertEqual(try GameCode(parsing: digits), code)
            seen.insert(digits)
        }
        // 500 draws from a million: a repeat is possible (p ≈ 0.12) but hundreds of them mean a broken generator.
        XCTAssertGreaterThan(seen.count, 490)
    }
}

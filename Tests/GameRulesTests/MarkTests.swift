import GameRules
import XCTest

final class MarkTests: XCTestCase {
    func testRawValuesOpponentsAndDescriptions() {
        XCTAssertEqual(Mark.x.rawValue, 1)
        XCTAssertEqual(Mark.o.rawValue, 2)
        XCTAssertEqual(Mark(rawValue: 0), nil)
        XCTAssertEqual(Mark.allCases, [.x, .o])
        XCTAssertEqual(Mark.x.opponent, .o)
        XCTAssertEqual(Mark.o.opponent, .x)
        XCTAssertEqual(Mark.x.description, "X")
        XCTAssertEqual("\(Mark.o)", "O")
    }

}

import AppCore
import Foundation
import GameProtocol
import PairingCode
import TicTacToeTestSupport
import XCTest

/// Where a headless joiner's code comes from (`--code-file`, `--code`, `--code -`, `TICTACTOE_CODE`) and how it is
/// read: the first line of a file, one line of input; a code that cannot be read or is not a code is exit 13 and is
/// never repeated.
final class GameCodeSourceTests: XCTestCase {
    func testTheFileComesFirstThenTheOptionThenTheEnvironment() {
        let environment = ["TICTACTOE_CODE": "111111"]
        XCTAssertEqual(GameCodeSource.from(codeFile: "f", code: "1", environment: environment), .file("f"))
        XCTAssertEqual(GameCodeSource.from(codeFile: nil, code: "-", environment: environment), .standardInput)
        XCTAssertEqual(GameCodeSource.from(codeFile: nil, code: "222 222", environment: environment),
                       .argument("222 222"))
        XCTAssertEqual(GameCodeSource.from(codeFile: nil, code: nil, environment: environment), .environment("111111"))
        XCTAssertNil(GameCodeSource.from(codeFile: nil, code: nil, environment: ["TICTACTOE_CODE": ""]))
        XCTAssertNil(GameCodeSource.from(codeFile: nil, code: nil, environment: [:]))
        XCTAssertTrue(GameCodeSource.argument("222 222").isInArgv)
        XCTAssertFalse(GameCodeSource.environment("111111").isInArgv)
    }

    func testACodeIsReadFromTheFirstLineOfAFileOrOfInput() throws {
        let directory = try makeTemporaryDirectory(self)
        try "482 913\nnot read\n".write(toFile: directory + "/code", atomically: true, encoding: .utf8)
        let expected = try GameCode(parsing: "482913")
        XCTAssertEqual(try GameCodeSource.file(directory + "/code").read(), expected)
        XCTAssertEqual(try GameCodeSource.standardInput.read(readLine: { "482-913" }), expected)
        XCTAssertEqual(try GameCodeSource.environment("482913").read(), expected)
    }

    func testACodeThatCannotBeReadOrIsNotACodeIsExit13WithoutRepeatingIt() {
        XCTAssertThrowsError(try GameCodeSource.environment("12ab56").read()) { error in
            let failure = error as? GameCodeSourceError
            XCTAssertEqual(failure?.exitStatus, .wrongCode)
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("the game's code from TICTACTOE_CODE is not a code"), message)
            XCTAssertFalse(message.contains("12ab56"), message)
        }
        XCTAssertThrowsError(try GameCodeSource.file("/nonexistent/code").read()) { error in
            XCTAssertEqual((error as? GameCodeSourceError)?.exitStatus, .wrongCode)
            XCTAssertTrue("\(error)".hasPrefix("cannot read the game's code from --code-file /nonexistent/code"),
                          "\(error)")
        }
        XCTAssertThrowsError(try GameCodeSource.standardInput.read(readLine: { nil })) { error in
            XCTAssertTrue("\(error)".contains("no line to read"), "\(error)")
        }
    }
}

import AppCore
import AppProcess
import XCTest

/// The command lines the executable runs before argument-parser: exactly `--version` and no arguments;
/// every other line is argument-parser's (EndToEndTests' FastPathTests check the binary's output for both).
final class FastPathTests: XCTestCase {
    func testTheTwoExactLinesAreRecognized() {
        XCTAssertEqual(FastPath.recognize([]), .fullScreenGame)
        XCTAssertEqual(FastPath.recognize(["--version"]), .version)
    }

    func testEverythingElseGoesToArgumentParser() {
        let others: [[String]] = [
            ["--version", "--version"], ["--version", "--plain"], ["--plain", "--version"], ["play", "--version"],
            ["help", "--version"], ["--version=1"], ["-V"], ["-v"], ["--versio"], ["--VERSION"], [" --version"],
            ["--version "], ["--"], [""], ["--help"], ["-h"], ["help"], ["play"], ["--plain"], ["--no-color"],
            ["--seed", "1"], ["host"], ["bogus"], ["--generate-completion-script", "bash"],
        ]
        for arguments in others {
            XCTAssertNil(FastPath.recognize(arguments), "\(arguments)")
        }
    }
}

import Foundation
import XCTest

/// Spectators with the real binary: `--spectators` with `--plaintext` is a usage error of the argument parser (exit 64).
/// What spectators see and how a host treats them is tested in process (`SpectatorMatchTests`).
final class SpectatorTests: ProcessTestCase {
    func testSpectatorsNeedAnEncryptedGame() throws {
        let host = track(try TicTacToeProcess(["host", "--headless", "--plaintext", "--spectators", "1"]))
        XCTAssertEqual(host.waitForExit(), 64)
        XCTAssertTrue(host.standardError.contains("--spectators needs an encrypted game"), host.standardError)
    }
}

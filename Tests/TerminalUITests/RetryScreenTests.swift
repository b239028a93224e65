import GameClient
import GameProtocol
@testable import TerminalUI
import TerminalWidgets
import XCTest
import NetworkScreenState

/// Every failure screen offers `r` to try again (Enter, q or Esc go back); a host offers to wait for another player
/// after a match.
final class RetryScreenTests: XCTestCase {
    private func model() -> AppModel {
        AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 30, columns: 100), seed: 1)
    }

    private func text(_ model: AppModel) -> String { model.render(unicode: true).text }

    private func network(_ model: AppModel) -> NetworkGame? {
        if case .network(let game) = model.screen { return game }
        return nil
    }

    /// Joins 127.0.0.1:9 by address, the gate allowing it.
    private func joinByAddress(_ model: inout AppModel) {
        _ = model.handle(.key(.character("a")))
        for character in "127.0.0.1:9" { _ = model.handle(.key(.character(character))) }
        let effects = model.handle(.key(.enter))
        XCTAssertTrue(effects.contains(.checkNetwork(.join(name: "tester", address: "127.0.0.1:9"))), "\(effects)")
        XCTAssertEqual(model.handle(.gate(.allowed, .join(name: "tester", address: "127.0.0.1:9"), prompt: nil)),
                       [.join(name: "tester", address: "127.0.0.1:9", code: nil), .schedule(.connectCountdown, after: .seconds(1))])
    }

    func testAFailedJoinRetriesTheSameAddressWithR() {
        var model = model()
        joinByAddress(&model)
        _ = model.handle(.network(.report(.error("Could not connect to 127.0.0.1:9: connection refused", .unreachable))))
        _ = model.handle(.network(.finished(.unreachable)))
        XCTAssertEqual(network(model)?.retry, .retry)
        XCTAssertTrue(text(model).contains("r retry · Enter or q back to the menu"), text(model))
        XCTAssertTrue(text(model).contains("Joining 127.0.0.1:9 as tester"), "what failed:\n\(text(model))")
        XCTAssertEqual(model.handle(.key(.character("r"))),
                       [.checkNetwork(.join(name: "tester", address: "127.0.0.1:9"))])
        XCTAssertEqual(network(model)?.phase, .connecting)
        XCTAssertEqual(network(model)?.target, "127.0.0.1:9")
        XCTAssertTrue(text(model).contains("Connecting to 127.0.0.1:9"), text(model))
        XCTAssertEqual(model.handle(.gate(.allowed, .join(name: "tester", address: "127.0.0.1:9"), prompt: nil)),
                       [.join(name: "tester", address: "127.0.0.1:9", code: nil), .schedule(.connectCountdown, after: .seconds(1))])
        // This time the host is there.
        _ = model.handle(.network(.report(.connected(peerName: "Carol", address: "127.0.0.1:9", role: .joiner))))
        XCTAssertEqual(network(model)?.phase, .playing)
    }

    func testTheHelpNamesTheRetryKey() {
        var model = model()
        _ = model.handle(.key(.character("?")))
        XCTAssertTrue(text(model).contains("Failed    r tries again, Enter back to the menu"), text(model))
    }

    func testEnterOnAFailureScreenGoesBackToTheMenu() {
        var model = model()
        joinByAddress(&model)
        _ = model.handle(.network(.report(.connectionState(.failed(.unreachable("connection refused"))))))
        XCTAssertEqual(network(model)?.retry, .retry)
        XCTAssertEqual(model.handle(.key(.enter)), [])
        guard case .menu = model.screen else { return XCTFail("not back at the menu: \(model.screen)") }
    }

    func testAHostThatCouldNotListenTriesTheSamePortAgain() {
        var model = model()
        _ = model.handle(.key(.character("h")))
        XCTAssertEqual(model.handle(.key(.enter)), [.checkNetwork(.host(name: "tester", port: 7878))])
        _ = model.handle(.gate(.allowed, .host(name: "tester", port: 7878), prompt: nil))
        _ = model.handle(.network(.report(.error("cannot listen on [::]:7878: address in use", .cannotListen))))
        XCTAssertEqual(network(model)?.retry, .retry, "nothing listened: no need to wait for the end")
        XCTAssertTrue(text(model).contains("r retry"), text(model))
        XCTAssertEqual(model.handle(.key(.character("r"))), [.checkNetwork(.host(name: "tester", port: 7878))])
        XCTAssertEqual(model.handle(.gate(.allowed, .host(name: "tester", port: 7878), prompt: nil)),
                       [.host(name: "tester", port: 7878, security: .open)])
    }

    /// After a match the host offers to wait for the next joiner, on the port it listened on (the one joiners know,
    /// also when it asked for any free port), once its listener has closed.
    func testAHostWaitsForAnotherPlayerAfterAMatch() {
        var model = model()
        model.settings.port = 0
        _ = model.handle(.key(.character("r")))  // a private game
        _ = model.handle(.key(.enter))
        _ = model.handle(.gate(.allowed, .host(name: "tester", port: 0), prompt: nil))
        _ = model.handle(.network(.report(.listening(host: "::", port: 40123, name: "tester", security: .private))))
        _ = model.handle(.network(.report(.connected(peerName: "Bob", address: "127.0.0.1:5000", role: .host))))
        _ = model.handle(.network(.report(.session(.matchOver(.completed(by: .peer), score: .init(peerWins: 1))))))
        XCTAssertNil(network(model)?.retry, "the listener may still be open")
        XCTAssertEqual(model.handle(.key(.character("r"))), [])
        _ = model.handle(.network(.finished(.success)))
        XCTAssertEqual(network(model)?.retry, .waitForAnotherPlayer)
        XCTAssertTrue(text(model).contains("Wait for another player? r waits · Enter or q back to the menu"),
                      text(model))
        XCTAssertEqual(model.handle(.key(.character("r"))),
                       [.checkNetwork(.host(name: "tester", port: 40123, isPrivate: true))], "a private game again")
        XCTAssertEqual(model.handle(.gate(.allowed, .host(name: "tester", port: 40123, isPrivate: true), prompt: nil)),
                       [.host(name: "tester", port: 40123, security: .private)])
        XCTAssertEqual(network(model)?.playedMatch, false)
        _ = model.handle(.network(.report(.listening(host: "::", port: 40123, name: "tester", security: .private))))
        XCTAssertEqual(network(model)?.phase, .listening(port: 40123))
        XCTAssertTrue(text(model).contains("Waiting for someone to join on port 40123"), text(model))
    }

    func testAJoinerWhoseMatchCompletedHasNothingToRetry() {
        var model = model()
        joinByAddress(&model)
        _ = model.handle(.network(.report(.connected(peerName: "Carol", address: "127.0.0.1:9", role: .joiner))))
        _ = model.handle(.network(.report(.session(.matchOver(.completed(by: .local), score: .init())))))
        _ = model.handle(.network(.finished(.success)))
        XCTAssertNil(network(model)?.retry)
        XCTAssertEqual(model.handle(.key(.character("r"))), [])
        XCTAssertFalse(text(model).contains("r retry"), text(model))
    }

    func testAFailedSearchSearchesAgainWithR() {
        var model = model()
        XCTAssertEqual(model.handle(.key(.character("s"))), [.checkNetwork(.search)])
        _ = model.handle(.gate(.noAuth(serviceType: "_tictactoe._tcp"), .search, prompt: nil))
        guard case .search(let search) = model.screen else { return XCTFail("not on Search") }
        XCTAssertTrue(search.cannotSearch)
        XCTAssertTrue(text(model).contains("r search again"), text(model))
        XCTAssertEqual(model.handle(.key(.character("r"))), [.stopBrowsing, .checkNetwork(.search)])
        _ = model.handle(.gate(.allowed, .search, prompt: nil))
        _ = model.handle(.discovery(.available))
        guard case .search(let again) = model.screen else { return XCTFail("not on Search") }
        XCTAssertFalse(again.cannotSearch)
        XCTAssertEqual(model.handle(.key(.character("r"))), [], "r does nothing while searching works")
    }
}

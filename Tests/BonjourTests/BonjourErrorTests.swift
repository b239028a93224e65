import GameProtocol
@testable import Bonjour
import LocalNetworkPrivacy
import XCTest
import TextSupport

final class BonjourErrorTests: XCTestCase {
    func testDaemonAbsentIsUnavailableWithAnActionableMessage() {
        XCTAssertEqual(BonjourError(code: -65537), .unavailable)  // kDNSServiceErr_Unknown: what Avahi reports
        XCTAssertEqual(BonjourError(code: -65563), .unavailable)  // ServiceNotRunning (Apple's)
        XCTAssertEqual(BonjourError.unavailable.description,
                       "Bonjour is unavailable: is avahi-daemon running? (sudo systemctl start avahi-daemon)")
        XCTAssertTrue(BonjourError.unavailable.isRetryable)
    }

    /// libdns_sd is loaded when Bonjour is first used (not linked): a library that is not there is an error that says
    /// what to install, is not retried, and ends a browse or a join by name as an unavailable Bonjour does (exit 10).
    func testAMissingLibraryIsAnErrorThatSaysWhatToInstall() {
        guard case .failure(let error) = DNSSDLibrary.load("libtictactoe-no-such-library.so.1") else {
            return XCTFail("a library that does not exist was loaded")
        }
        guard case .libraryMissing(let detail) = error else { return XCTFail("not libraryMissing: \(error)") }
        XCTAssertTrue(detail.contains("libtictactoe-no-such-library.so.1"), detail)
        XCTAssertTrue(error.description.contains("sudo apt-get install libavahi-compat-libdnssd1"), error.description)
        XCTAssertTrue(error.description.contains("libdns_sd.so.1"), error.description)
        XCTAssertFalse(error.isRetryable)
    }

    /// The installed library loads, with every function the module calls (and Avahi's allocator set).
    func testTheInstalledLibraryLoads() throws {
        if case .failure(let error) = DNSSDLibrary.load(DNSSDLibrary.soname) { XCTFail("\(error)") }
    }

    func testNoAuthIsNotAllowed() {
        XCTAssertEqual(BonjourError(code: -65555), .notAllowed)  // kDNSServiceErr_NoAuth
        XCTAssertTrue(BonjourError.notAllowed.description.hasPrefix("Not allowed to access the network"))
        XCTAssertFalse(BonjourError.notAllowed.isRetryable)
    }

    func testTheSwitchTurnsBonjourOff() {
        XCTAssertTrue(BonjourSwitch.isDisabled(environment: ["TICTACTOE_BONJOUR": "off"]))
        XCTAssertTrue(BonjourSwitch.isDisabled(environment: ["TICTACTOE_BONJOUR": "0"]))
        XCTAssertFalse(BonjourSwitch.isDisabled(environment: [:]))
        XCTAssertFalse(BonjourSwitch.isDisabled(environment: ["TICTACTOE_BONJOUR": "on"]))
        XCTAssertFalse(BonjourError.disabled.isRetryable)
    }

    func testOtherCodesKeepTheirNumber() {
        XCTAssertEqual(BonjourError(code: -65540), .failed(code: -65540))  // BadParam
        XCTAssertTrue(BonjourError.failed(code: -65540).description.contains("-65540"))
    }
}

final class JoinTargetTests: XCTestCase {
    func testAddressesStayDirect() throws {
        XCTAssertEqual(try JoinTarget(parsing: "127.0.0.1:7878"), .address(Endpoint(host: "127.0.0.1", port: 7878)))
        XCTAssertEqual(try JoinTarget(parsing: "192.0.2.10"), .address(Endpoint(host: "192.0.2.10", port: 7878)))
        XCTAssertEqual(try JoinTarget(parsing: "[::1]:9"), .address(Endpoint(host: "::1", port: 9)))
        XCTAssertEqual(try JoinTarget(parsing: "::1"), .address(Endpoint(host: "::1", port: 7878)))
        XCTAssertEqual(try JoinTarget(parsing: "fe80::1"), .address(Endpoint(host: "fe80::1", port: 7878)))
        XCTAssertEqual(try JoinTarget(parsing: "fe80::1%eth0"), .address(Endpoint(host: "fe80::1%eth0", port: 7878)))
        XCTAssertEqual(try JoinTarget(parsing: "[fe80::1%eth0]:9"), .address(Endpoint(host: "fe80::1%eth0", port: 9)))
        XCTAssertEqual(try JoinTarget(parsing: "localhost"), .address(Endpoint(host: "localhost", port: 7878)))
        XCTAssertEqual(try JoinTarget(parsing: "host-a.example:80"),
                       .address(Endpoint(host: "host-a.example", port: 80)))
    }

    func testBadAddressesAreErrorsNotNames() {
        XCTAssertThrowsError(try JoinTarget(parsing: "host:99999"))
        XCTAssertThrowsError(try JoinTarget(parsing: ":7878"))
        XCTAssertThrowsError(try JoinTarget(parsing: "[::1"))
        XCTAssertThrowsError(try JoinTarget(parsing: ""))
    }

    func testEverythingElseIsABonjourName() throws {
        for name in ["alice", "Bob's game", "Partie d’Élodie 🎲", "alice@laptop", "a: b", "game:one", "my.host"] {
            XCTAssertEqual(try JoinTarget(parsing: name), .bonjour(name: name), name)
        }
    }

    /// `tictactoe join NAME` takes a name exactly as `browse` printed it: escaped (`DisplayText.escaped`).
    func testANameIsTakenAsBrowsePrintedIt() throws {
        for registered in ["evil\u{1B}]0;pwned\u{07}", "a\u{202E}b", #"back\slash"#, #"\x1b as text"#, "Zoë"] {
            let printed = DisplayText.escaped(registered)
            XCTAssertEqual(try JoinTarget(parsing: printed), .bonjour(name: registered), printed)
        }
        // Typed by a person, never escaped: a lone backslash means itself.
        XCTAssertEqual(try JoinTarget(parsing: #"C:\games"#), .bonjour(name: #"C:\games"#))
    }
}

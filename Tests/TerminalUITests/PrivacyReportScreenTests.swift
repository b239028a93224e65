import GameClient
import GameProtocol
@testable import TerminalUI
import TerminalWidgets
import XCTest

/// Settings › Privacy › Local Network shows the privacy report's latest records (what used the local network, what
/// became of it, and which screen or command asked), the app's entitlements and where the report is kept; the
/// report's own row shows the records first, read afresh.
final class PrivacyReportScreenTests: XCTestCase {
    private let activity = [
        PrivacyActivity(time: "11-25 15:30:09", kind: .refused, operation: "multicast",
                        destination: "239.255.77.77:7879", origin: "Lobby screen"),
        PrivacyActivity(time: "11-25 15:30:05", kind: .promptAnswered(allow: true), operation: "browse",
                        destination: "_tictactoe._tcp", origin: "Search for games screen"),
        PrivacyActivity(time: "11-25 15:30:02", kind: .promptShown, operation: "browse",
                        destination: "_tictactoe._tcp", origin: "Search for games screen"),
        PrivacyActivity(time: "11-25 15:30:01", kind: .waiting, operation: "browse",
                        destination: "_tictactoe._tcp", origin: "Search for games screen"),
        PrivacyActivity(time: "11-25 15:29:00", kind: .allowed, operation: "connect",
                        destination: "127.0.0.1:7878", origin: "Join a game screen"),
    ]

    private var lines: [String] {
        [
            "11-25 15:30:09 refused: multicast 239.255.77.77:7879 · Lobby screen",
            "11-25 15:30:05 prompt answered OK: browse _tictactoe._tcp · Search for games screen",
            "11-25 15:30:02 prompt shown: browse _tictactoe._tcp · Search for games screen",
            "11-25 15:30:01 waiting: browse _tictactoe._tcp · Search for games screen",
            "11-25 15:29:00 allowed: connect 127.0.0.1:7878 · Join a game screen",
        ]
    }

    func testSettingsShowsTheLatestRecordsNewestFirstWithWhatAskedForThem() throws {
        let privacy = FakePrivacy(state: .allowed)
        privacy.activity = activity
        let terminal = FakeTerminal(size: TerminalSize(rows: 40, columns: 100), script: [.key(.character("t"))])
        try runApp(terminal, privacy: privacy)
        // Long records wrap at spaces: compared with the lines joined again.
        let frame = flattened(terminal.lastFrame)
        XCTAssertTrue(frame.contains("Privacy report recent activity below"), frame)
        XCTAssertTrue(frame.contains("Entitlements: com.apple.developer.networking.multicast"), frame)
        XCTAssertTrue(frame.contains("Privacy report: /x/privacy-report.jsonl"), frame)
        XCTAssertTrue(frame.contains("Latest local network activity:"), frame)
        var from = frame.startIndex
        for line in lines {
            guard let found = frame.range(of: line, range: from..<frame.endIndex) else {
                return XCTFail("no \"\(line)\" (in this order) in\n\(frame)")
            }
            from = found.upperBound
        }
    }

    func testTheReportsRowShowsTheRecordsFirstAndReadsThemAgain() {
        var model = AppModel(settings: UISettings(name: "tester"), size: TerminalSize(rows: 22, columns: 80), seed: 1)
        XCTAssertEqual(model.handle(.key(.character("t"))), [.loadPrivacyInfo])
        _ = model.handle(.privacy(PrivacyInfo(
            state: .denied, usageDescription: "TicTacToe uses the local network to discover players around you.",
            services: ["_tictactoe._tcp"], manifestPath: "/x/Info.plist", manifestError: nil,
            decisionFile: "/x/local-network.json", logFile: "/x/tictactoe.log", reportFile: "/x/privacy-report.jsonl",
            activity: activity)))
        // On a small window, the details come first on the other rows: the records do not fit under them.
        let details = flattened(model.render(unicode: true).text)
        XCTAssertTrue(details.contains("Why: TicTacToe uses"), details)
        XCTAssertFalse(details.contains(lines[0]), details)
        // Up from the first row: the report's row (the last), which reads the records again and shows them first.
        XCTAssertEqual(model.handle(.key(.up)), [.loadPrivacyInfo])
        guard case .settings(let settings) = model.screen else { return XCTFail("not in Settings: \(model.screen)") }
        XCTAssertEqual(settings.row, .report)
        let report = flattened(model.render(unicode: true).text)
        XCTAssertTrue(report.contains("Latest local network activity:"), report)
        XCTAssertTrue(report.contains(lines[0]), report)
        XCTAssertTrue(report.contains(lines[1]), report)
        XCTAssertEqual(model.handle(.key(.enter)), [.loadPrivacyInfo], "Enter reads them again")
        // Nothing recorded: said so.
        _ = model.handle(.privacy(PrivacyInfo(
            state: .denied, usageDescription: nil, services: [], manifestPath: "/x/Info.plist", manifestError: nil,
            decisionFile: "/x/local-network.json", logFile: "/x/tictactoe.log")))
        XCTAssertTrue(model.render(unicode: true).text.contains("No local network activity in the last 7 days."))
    }

    func testAResolveCarriedOutSaysWhatTheNameLedTo() {
        let line = SettingsScreen.activityLine(PrivacyActivity(
            time: "11-25 15:30:09", kind: .done, operation: "resolve",
            destination: "Dana's game (_tictactoe._tcp): 198.18.0.11:7878", origin: "Join a game screen"))
        XCTAssertEqual(line, "11-25 15:30:09 done: resolve Dana's game (_tictactoe._tcp): 198.18.0.11:7878 · Join a game screen")
    }

    func testAChangeOfTheDecisionSaysWhoMadeIt() {
        let line = SettingsScreen.activityLine(PrivacyActivity(
            time: "11-25 15:30:09", kind: .done, operation: "permission", destination: "denied", origin: "Settings screen"))
        XCTAssertEqual(line, "11-25 15:30:09 done: permission denied · Settings screen")
    }

    func testARecordsTextCannotActOnTheTerminal() {
        let line = SettingsScreen.activityLine(PrivacyActivity(
            time: "11-25 15:30:09", kind: .allowed, operation: "connect", destination: "evil\u{1b}[2J:1",
            origin: "x\ny"))
        XCTAssertFalse(line.contains("\u{1b}"), line)
        XCTAssertFalse(line.contains("\n"), line)
    }
}

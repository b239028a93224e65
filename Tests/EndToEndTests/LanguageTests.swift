import Foundation
import GameProtocol
import TicTacToeTestSupport
import XCTest

/// The prompt in the user's language through the real executable: `privacy status` says which language and which
/// files, for the shipped Assets/ and for a manifest given with --info-plist (its own DIR/<lang>.lproj); a locale
/// that is not UTF-8 stays English. The TUI's prompt at 80 columns in every shipped language:
/// TerminalUITests.TranslatedScreensTests.
final class LanguageTests: XCTestCase {
    private func makeDirectory() throws -> String {
        let path = Scratch.path("tictactoe-language-e2e-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// `privacy status --json` with `environment` (and HOME in `directory`), as a dictionary.
    private func status(_ environment: [String: String], arguments: [String] = [], in directory: String) throws
        -> [String: Any]
    {
        var environment = environment
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        environment["TICTACTOE_CONFIG_DIR"] = directory + "/config"
        let process = try TicTacToeProcess(
            ["privacy", "status", "--json", "--log-file", directory + "/tictactoe.log"] + arguments,
            environment: environment)
        defer { process.terminate() }
        XCTAssertEqual(process.waitForExit(timeout: 30), 0, process.standardError)
        let line = try XCTUnwrap(process.output.first)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func testPrivacyStatusSaysWhichLanguageAndWhichFiles() throws {
        let directory = try makeDirectory()
        let korean = try status(["LANGUAGE": "ko", "LANG": "C.UTF-8"], in: directory)
        XCTAssertEqual(korean["language"] as? String, "ko")
        XCTAssertEqual(korean["language_reason"] as? String, "LANGUAGE=ko")
        XCTAssertEqual(korean["prompt_title"] as? String, "“틱택토”이(가) 로컬 네트워크에서 기기를 찾고 연결하려고 합니다.")
        XCTAssertEqual(korean["prompt_message"] as? String, "틱택토는 로컬 네트워크를 사용하여 주변의 플레이어를 찾습니다.")
        let files = try XCTUnwrap(korean["strings_files"] as? [String])
        XCTAssertEqual(files.map { URL(fileURLWithPath: $0).pathComponents.suffix(3).joined(separator: "/") },
                       ["Assets/ko.lproj/InfoPlist.strings", "Assets/ko.lproj/Localizable.strings"])

        let traditional = try status(["LANG": "zh_TW.UTF-8", "LANGUAGE": ""], in: directory)
        XCTAssertEqual(traditional["language"] as? String, "zh-Hant")
        XCTAssertEqual(traditional["language_reason"] as? String, "LANG=zh_TW.UTF-8")
        XCTAssertEqual(traditional["prompt_title"] as? String, "「井字遊戲」想要尋找並連接到你區域網路上的裝置。")

        let ascii = try status(["LANG": "ja_JP.eucJP", "LANGUAGE": "ja"], in: directory)
        XCTAssertEqual(ascii["language"] as? String, "en")
        XCTAssertEqual(ascii["language_reason"] as? String, "the locale is not UTF-8: LANG=ja_JP.eucJP")
        XCTAssertEqual(
            ascii["prompt_title"] as? String,
            "“TicTacToe” would like to find and connect to devices on your local network.")
    }

    /// --info-plist DIR/Info.plist reads DIR/<lang>.lproj: a key its strings lack keeps the manifest's own value.
    func testTheStringsBesideAnExplicitManifest() throws {
        let directory = try makeDirectory()
        let manifest = directory + "/Info.plist"
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
                <key>CFBundleDisplayName</key><string>Noughts</string>
                <key>NSLocalNetworkUsageDescription</key><string>To find players.</string>
                <key>NSBonjourServices</key><array><string>_tictactoe._tcp</string></array>
            </dict></plist>
            """.utf8).write(to: URL(fileURLWithPath: manifest))
        try FileManager.default.createDirectory(atPath: directory + "/ja.lproj", withIntermediateDirectories: true)
        // UTF-16 with its byte-order mark, as Xcode writes strings files.
        var strings = Data([0xFF, 0xFE])
        strings.append(try XCTUnwrap(#""CFBundleDisplayName" = "マルバツ";"#.data(using: .utf16LittleEndian)))
        try strings.write(to: URL(fileURLWithPath: directory + "/ja.lproj/InfoPlist.strings"))

        let japanese = try status(["LANGUAGE": "ja", "LANG": "C.UTF-8"], arguments: ["--info-plist", manifest],
                                  in: directory)
        XCTAssertEqual(japanese["language"] as? String, "ja")
        let files = try XCTUnwrap(japanese["strings_files"] as? [String])
        XCTAssertEqual(files.first, directory + "/ja.lproj/InfoPlist.strings", "the manifest's strings beside it")
        XCTAssertEqual(files.dropFirst().map { URL(fileURLWithPath: $0).pathComponents.suffix(3).joined(separator: "/") },
                       ["Assets/ja.lproj/Localizable.strings"], "the app's own words from its resources")
        XCTAssertEqual(japanese["prompt_title"] as? String, "“マルバツ”がローカルネットワーク上のデバイスの検索および接続を求めています。")
        XCTAssertEqual(japanese["prompt_message"] as? String, "To find players.", "a key the strings lack: the manifest's")

        let korean = try status(["LANGUAGE": "ko", "LANG": "C.UTF-8"], arguments: ["--info-plist", manifest],
                                in: directory)
        XCTAssertEqual(korean["language"] as? String, "ko", "the app speaks Korean, though this manifest has no ko.lproj")
        XCTAssertEqual(korean["prompt_title"] as? String, "“Noughts”이(가) 로컬 네트워크에서 기기를 찾고 연결하려고 합니다.")
        XCTAssertEqual(korean["prompt_message"] as? String, "To find players.")
    }
}

/// The command line's messages in the language asked for: the line game in Japanese, and the same lines in English
/// without LANGUAGE or with a locale that is not UTF-8.
final class CommandLineLanguageTests: XCTestCase {
    /// `tictactoe play --plain` with standard input at its end at once: the greeting, then goodbye.
    private func lineGame(_ environment: [String: String]) throws -> [String] {
        let process = try TicTacToeProcess(["play", "--plain", "--first", "you", "--seed", "3"], environment: environment)
        defer { process.terminate() }
        process.writeInput("")  // end of input: the game says goodbye
        XCTAssertEqual(process.waitForExit(timeout: 30), 0, process.standardError)
        return process.output
    }

    func testTheLineGameInJapaneseAndInEnglish() throws {
        let japanese = try lineGame(["LANGUAGE": "ja", "LANG": "C.UTF-8"])
        XCTAssertEqual(japanese.first, "コンピュータ (perfect) と三目並べ。マスの番号は電話のキーパッドと同じです (1 が左上、9 が右下)。",
                       "\(japanese)")
        XCTAssertTrue(japanese.contains("第1戦: あなたは X、先手です"), "\(japanese)")
        XCTAssertEqual(japanese.last, "あなたの番です、X (1-9、r = 投了、q = 終了): さようなら。スコア: あなた 0、コンピュータ 0、引き分け 0",
                       "the prompt, then goodbye at the end of input: \(japanese)")

        let greeting = "Tic-tac-toe against the computer (perfect). Cells are numbered like a phone keypad (1 top-left, "
            + "9 bottom-right)."
        for environment in [["LANG": "C.UTF-8"], ["LANG": "ja_JP.eucJP", "LANGUAGE": "ja"]] {
            let english = try lineGame(environment)
            XCTAssertEqual(english.first, greeting, "\(environment): \(english)")
            XCTAssertEqual(english.last, "Your move, X (1-9, r = resign, q = quit): Bye. Score: you 0, computer 0, draws 0",
                           "\(environment): \(english)")
        }
    }
}

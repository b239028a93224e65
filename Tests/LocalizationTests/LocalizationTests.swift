import Foundation
import Localization
import TicTacToeTestSupport
import XCTest

/// Tables beside a manifest, as a bundle reads them: the first language asked for that has a `.lproj`, English
/// otherwise; `InfoPlist.strings` in UTF-8 or UTF-16; messages looked up by their English text.
final class LocalizationTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self)
    }

    private func write(_ text: String, to relative: String, encoding: String.Encoding = .utf8) throws {
        let path = (directory as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var data = try XCTUnwrap(text.data(using: encoding))
        if encoding == .utf16LittleEndian { data = Data([0xFF, 0xFE]) + data }  // with its byte-order mark,
        if encoding == .utf16BigEndian { data = Data([0xFE, 0xFF]) + data }  // as Xcode writes UTF-16
        try data.write(to: URL(fileURLWithPath: path))
    }

    func testTheFirstLanguageWithAnLprojIsUsed() throws {
        try write(#""Search for games" = "게임 찾기";"#, to: "ko.lproj/Localizable.strings")
        let localization = Localization.load(
            directory: directory, environment: ["LANGUAGE": "fr:ko:ja", "LANG": "C.UTF-8"])
        XCTAssertEqual(localization.language, "ko")
        XCTAssertEqual(localization.reason, "LANGUAGE=fr:ko:ja")
        XCTAssertEqual(localization.text("Search for games"), "게임 찾기")
        XCTAssertEqual(localization.text("Settings"), "Settings", "a message without a translation stays English")
        XCTAssertEqual(localization.files, [directory + "/ko.lproj/Localizable.strings"])
    }

    func testNoTranslationIsEnglishAndSaysWhy() {
        let french = Localization.load(directory: directory, environment: ["LANG": "fr_FR.UTF-8"])
        XCTAssertEqual(french.language, "en")
        XCTAssertEqual(french.reason, "no translation for fr (LANG=fr_FR.UTF-8)")
        XCTAssertEqual(french.files, [])
        let ascii = Localization.load(directory: directory, environment: ["LANG": "ko_KR.EUC-KR"])
        XCTAssertEqual(ascii.language, "en")
        XCTAssertEqual(ascii.reason, "the locale is not UTF-8: LANG=ko_KR.EUC-KR")
    }

    func testEnglishAskedForStopsTheSearch() throws {
        try write(#""OK" = "확인";"#, to: "ko.lproj/Localizable.strings")
        let localization = Localization.load(directory: directory, environment: ["LANGUAGE": "en:ko", "LANG": "C.UTF-8"])
        XCTAssertEqual(localization.language, "en")
        XCTAssertEqual(localization.text("OK"), "OK")
    }

    func testInfoPlistStringsInUTF16AndUTF8() throws {
        let strings = """
            /* The name under the icon. */
            "CFBundleDisplayName" = "三目並べ";
            // Why the app wants the local network.
            NSLocalNetworkUsageDescription = "近くの\\"プレイヤー\\"を探します。";
            """
        try write(strings, to: "ja.lproj/InfoPlist.strings", encoding: .utf16LittleEndian)
        try write(strings.replacingOccurrences(of: "三目並べ", with: "井字棋"), to: "zh-Hans.lproj/InfoPlist.strings",
                  encoding: .utf16BigEndian)
        try write(strings.replacingOccurrences(of: "三目並べ", with: "틱택토"), to: "ko.lproj/InfoPlist.strings")
        for (language, name) in [("ja", "三目並べ"), ("zh_CN", "井字棋"), ("ko", "틱택토")] {
            let localization = Localization.load(directory: directory, environment: ["LANGUAGE": language, "LANG": "C.UTF-8"])
            XCTAssertEqual(localization.infoPlistValue("CFBundleDisplayName"), name, language)
            XCTAssertEqual(localization.infoPlistValue("NSLocalNetworkUsageDescription"), "近くの\"プレイヤー\"を探します。")
            XCTAssertNil(localization.infoPlistValue("NSBonjourServices"), "a key the table lacks: the manifest's value")
        }
    }

    func testTheManifestsStringsAndTheAppsMessagesComeFromTheirOwnPlaces() throws {
        try write(#""CFBundleDisplayName" = "マルバツ";"#, to: "manifest/ja.lproj/InfoPlist.strings")
        try write(#""OK" = "了解";"#, to: "app/ja.lproj/Localizable.strings")
        try write(#""OK" = "확인";"#, to: "app/ko.lproj/Localizable.strings")
        let japanese = Localization.load(directory: directory + "/manifest", resources: directory + "/app",
                                         environment: ["LANGUAGE": "ja", "LANG": "C.UTF-8"])
        XCTAssertEqual(japanese.infoPlistValue("CFBundleDisplayName"), "マルバツ")
        XCTAssertEqual(japanese.text("OK"), "了解")
        XCTAssertEqual(japanese.files, [directory + "/manifest/ja.lproj/InfoPlist.strings",
                                        directory + "/app/ja.lproj/Localizable.strings"])
        let korean = Localization.load(directory: directory + "/manifest", resources: directory + "/app",
                                       environment: ["LANGUAGE": "ko", "LANG": "C.UTF-8"])
        XCTAssertEqual(korean.language, "ko", "a language the app speaks, though the manifest has no strings for it")
        XCTAssertNil(korean.infoPlistValue("CFBundleDisplayName"))
        XCTAssertEqual(korean.text("OK"), "확인")
    }

    func testABrokenTableIsAProblemNotAFailure() throws {
        try write("this is = not \"a strings file", to: "ko.lproj/Localizable.strings")
        let localization = Localization.load(directory: directory, environment: ["LANGUAGE": "ko", "LANG": "C.UTF-8"])
        XCTAssertEqual(localization.language, "ko")
        XCTAssertEqual(localization.text("OK"), "OK")
        XCTAssertEqual(localization.problems.count, 1)
        XCTAssertTrue(localization.problems[0].hasPrefix(directory + "/ko.lproj/Localizable.strings: not a strings file"),
                      localization.problems[0])
    }

    func testPlaceholdersAreFilledInTheTranslationsOrder() throws {
        try write(#""%@ vs %@" = "%2$@ 대 %1$@";"#, to: "ko.lproj/Localizable.strings")
        let localization = Localization.load(directory: directory, environment: ["LANGUAGE": "ko", "LANG": "C.UTF-8"])
        XCTAssertEqual(localization.text("%@ vs %@", ["alice", "bob"]), "bob 대 alice")
        XCTAssertEqual(Localization.english.text("%@ vs %@", ["alice", "bob"]), "alice vs bob")
        XCTAssertEqual(Localization.english.text("100%% sure, %@", ["bob"]), "100% sure, bob")
        XCTAssertEqual(Localization.english.text("%@ and %@", ["one"]), "one and ", "a missing argument is empty")
        XCTAssertEqual(Localization.english.text("50% off"), "50% off", "a lone % is kept")
    }

    func testATranslationWithOtherPlaceholdersIsSetAside() throws {
        try write(#""Manifest: %@" = "매니페스트";"#, to: "ko.lproj/Localizable.strings")
        let localization = Localization.load(directory: directory, environment: ["LANGUAGE": "ko", "LANG": "C.UTF-8"])
        XCTAssertEqual(localization.text("Manifest: %@", ["/a/Info.plist"]), "Manifest: /a/Info.plist")
        XCTAssertEqual(localization.problems.count, 1)
        XCTAssertTrue(localization.problems[0].contains("other placeholders"), localization.problems[0])
    }
}

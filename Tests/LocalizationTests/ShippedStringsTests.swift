import Foundation
import Localization
import XCTest

/// The strings files in Assets/: every language ships both tables, they parse, they translate the same messages
/// with the same placeholders, and every message they translate is one the code asks for.
final class ShippedStringsTests: XCTestCase {
    private let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private var assets: String { checkout.appendingPathComponent("Assets").path }

    private func load(_ language: String) -> Localization {
        Localization.load(directory: assets, environment: ["LANGUAGE": language, "LANG": "C.UTF-8"])
    }

    func testEveryShippedLanguageLoadsWithoutProblems() throws {
        for language in Localization.shippedLanguages {
            let localization = load(language)
            XCTAssertEqual(localization.language, language)
            XCTAssertEqual(localization.problems, [], language)
            XCTAssertNotNil(localization.infoPlistValue("CFBundleDisplayName"), language)
            XCTAssertNotNil(localization.infoPlistValue("NSLocalNetworkUsageDescription"), language)
            if language != Localization.developmentLanguage {
                XCTAssertNotNil(localization.messages, "\(language).lproj/Localizable.strings")
            }
        }
    }

    func testTheTranslationsCoverTheSameMessages() throws {
        let tables = Localization.shippedLanguages.filter { $0 != Localization.developmentLanguage }
            .map { ($0, Set(load($0).messages?.values.keys ?? [:].keys)) }
        let korean = try XCTUnwrap(tables.first).1
        XCTAssertGreaterThan(korean.count, 30)
        for (language, keys) in tables.dropFirst() {
            XCTAssertEqual(keys.subtracting(korean).sorted(), [], "\(language) translates messages ko does not")
            XCTAssertEqual(korean.subtracting(keys).sorted(), [], "\(language) misses messages ko translates")
        }
    }

    func testEveryTranslatedMessageIsOneTheCodeAsksFor() throws {
        // The sources' string literals, with literals joined by `+` across lines made one (as the compiler does).
        var sources = ""
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: checkout.appendingPathComponent("Sources").path))
        while let file = enumerator.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            sources += try String(contentsOf: checkout.appendingPathComponent("Sources/\(file)"), encoding: .utf8)
        }
        let joined = sources.replacingOccurrences(of: #""\s*\+\s*""#, with: "", options: .regularExpression)
        let korean = try XCTUnwrap(load("ko").messages)
        for key in korean.values.keys.sorted() {
            let literal = "\"" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
            XCTAssertTrue(joined.contains(literal), "no message \(literal) in Sources: remove it from the tables")
        }
    }

    func testThePromptInEachLanguage() {
        let titles = [
            "ko": "“%@”이(가) 로컬 네트워크에서 기기를 찾고 연결하려고 합니다.",
            "ja": "“%@”がローカルネットワーク上のデバイスの検索および接続を求めています。",
            "zh-Hans": "“%@”想要查找并连接到你本地网络上的设备。",
            "zh-Hant": "「%@」想要尋找並連接到你區域網路上的裝置。",
        ]
        for (language, title) in titles {
            XCTAssertEqual(
                load(language).text("“%@” would like to find and connect to devices on your local network.", ["X"]),
                title.replacingOccurrences(of: "%@", with: "X"), language)
        }
        XCTAssertEqual(load("ko").text("Don't Allow"), "허용 안 함")
        XCTAssertEqual(load("zh-Hant").text("OK"), "好")
    }
}

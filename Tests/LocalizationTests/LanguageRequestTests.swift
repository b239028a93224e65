import Localization
import XCTest

/// The language asked for, from the environment as gettext reads it for messages (and `LANGUAGE` in any UTF-8
/// locale, `C.UTF-8` included).
final class LanguageRequestTests: XCTestCase {
    private func languages(_ environment: [String: String]) -> [String] {
        LanguageRequest(environment: environment).candidates.map(\.language)
    }

    func testLocaleNamesMapAsGettextDoes() {
        let cases: [(String, String)] = [
            ("ko_KR.UTF-8", "ko"), ("ko", "ko"), ("ja_JP.UTF-8", "ja"), ("ja_JP.eucJP", "ja"),
            ("zh_TW.UTF-8", "zh-Hant"), ("zh_HK", "zh-Hant"), ("zh_MO.UTF-8", "zh-Hant"),
            ("zh_CN.UTF-8", "zh-Hans"), ("zh_SG", "zh-Hans"), ("zh", "zh-Hans"),
            ("zh-Hant", "zh-Hant"), ("zh-Hant-TW", "zh-Hant"), ("zh_Hans", "zh-Hans"), ("ko-KR", "ko"),
            ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"), ("en_GB.UTF-8@euro", "en"), ("fr_FR.UTF-8", "fr"),
            ("sr_RS@latin", "sr"),
        ]
        for (locale, language) in cases {
            XCTAssertEqual(LanguageRequest.language(locale: locale), language, locale)
        }
    }

    func testUTF8IsTheCodesetOfTheLocaleName() {
        for locale in ["C.UTF-8", "ko_KR.utf8", "en_US.UTF-8@euro", "ja_JP.Utf-8"] {
            XCTAssertTrue(LanguageRequest.isUTF8(locale: locale), locale)
        }
        for locale in ["C", "POSIX", "ko_KR", "ko_KR.EUC-KR", "ja_JP.eucJP", "en_US.ISO-8859-1", "utf8"] {
            XCTAssertFalse(LanguageRequest.isUTF8(locale: locale), locale)
        }
    }

    func testLANGUAGEComesFirstThenLCALLThenLCMESSAGESThenLANG() {
        XCTAssertEqual(
            languages(["LANGUAGE": "ja:zh_TW", "LC_ALL": "ko_KR.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"]),
            ["ja", "zh-Hant", "ko"])
        XCTAssertEqual(languages(["LC_MESSAGES": "fr_FR.UTF-8", "LANG": "ko_KR.UTF-8"]), ["fr"])
        XCTAssertEqual(languages(["LANG": "ko_KR.UTF-8"]), ["ko"])
        XCTAssertEqual(languages(["LANG": "ko_KR.UTF-8", "LANGUAGE": ""]), ["ko"], "an empty LANGUAGE is not set")
        XCTAssertEqual(languages(["LANG": "ko_KR.UTF-8", "LANGUAGE": "::ja::"]), ["ja", "ko"])
        XCTAssertEqual(languages(["LANG": "ko_KR.UTF-8", "LC_ALL": ""]), ["ko"], "an empty LC_ALL is not set")
    }

    func testLANGUAGECountsInCUTF8UnlikeGettext() {
        XCTAssertEqual(languages(["LANG": "C.UTF-8", "LANGUAGE": "ko"]), ["ko", "en"])
        XCTAssertEqual(languages(["LC_ALL": "C.UTF-8", "LANGUAGE": "zh_CN"]), ["zh-Hans", "en"])
    }

    func testANonUTF8LocaleAsksForNothingButEnglish() {
        XCTAssertEqual(languages(["LANG": "C", "LANGUAGE": "ko"]), [])
        XCTAssertEqual(languages(["LANGUAGE": "ko"]), [], "no locale at all is the C locale")
        XCTAssertEqual(languages(["LANG": "ko_KR.EUC-KR"]), [])
        XCTAssertEqual(languages(["LC_ALL": "C", "LANG": "ko_KR.UTF-8", "LANGUAGE": "ko"]), [],
                       "LC_ALL decides the character set")
        XCTAssertEqual(languages(["LC_CTYPE": "C.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"]), ["ja"],
                       "LC_CTYPE gives the character set, LC_MESSAGES the language")
        let request = LanguageRequest(environment: ["LANG": "ko_KR.EUC-KR"])
        XCTAssertFalse(request.utf8)
        XCTAssertEqual(request.characterSetSource, "LANG=ko_KR.EUC-KR")
    }

    func testEachCandidateSaysWhereItCameFrom() {
        let request = LanguageRequest(environment: ["LANGUAGE": "ko:ja", "LANG": "C.UTF-8"])
        XCTAssertEqual(request.candidates.map(\.source), ["LANGUAGE=ko:ja", "LANGUAGE=ko:ja", "LANG=C.UTF-8"])
    }
}

/// Which languages the user asked for, read from the environment the way gettext reads it for messages
/// (`LANGUAGE`, then `LC_ALL`, `LC_MESSAGES`, `LANG`), with one difference: `LANGUAGE` counts whenever the locale's
/// character set is UTF-8 (`C.UTF-8` included), where gettext ignores it under the C locale. With a locale that is not
/// UTF-8 (the terminal's ASCII mode) only English is asked for: the other languages cannot be shown.
public struct LanguageRequest: Sendable, Hashable, CustomStringConvertible {
    /// One language asked for: its `.lproj` name (`ko`, `ja`, `zh-Hans`, `zh-Hant`, `en`, or another language's code)
    /// and where it came from (`LANGUAGE=ko:ja`).
    public struct Candidate: Sendable, Hashable {
        public let language: String
        public let source: String

        public init(language: String, source: String) {
            self.language = language
            self.source = source
        }
    }

    /// The languages asked for, most wanted first (empty: nothing set, which means English).
    public let candidates: [Candidate]
    /// Whether the locale's character set is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`).
    public let utf8: Bool
    /// The variable that gave the character set, as `NAME=value` (nil: none set, the C locale).
    public let characterSetSource: String?

    public init(candidates: [Candidate], utf8: Bool, characterSetSource: String?) {
        self.candidates = candidates
        self.utf8 = utf8
        self.characterSetSource = characterSetSource
    }

    /// The request in `environment`.
    public init(environment: [String: String]) {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        let ctype = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { name in value(name).map { (name, $0) } }.first
        let utf8 = ctype.map { Self.isUTF8(locale: $0.1) } ?? false
        var candidates: [Candidate] = []
        if utf8 {
            if let list = value("LANGUAGE") {
                for entry in list.split(separator: ":") where !entry.isEmpty {
                    candidates.append(Candidate(language: Self.language(locale: String(entry)),
                                                source: "LANGUAGE=\(list)"))
                }
            }
            if let (name, locale) = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy
                .compactMap({ name in value(name).map { (name, $0) } }).first
            {
                candidates.append(Candidate(language: Self.language(locale: locale), source: "\(name)=\(locale)"))
            }
        }
        self.init(candidates: candidates, utf8: utf8, characterSetSource: ctype.map { "\($0.0)=\($0.1)" })
    }

    /// Whether a locale name says UTF-8: `C.UTF-8`, `ko_KR.utf8`, `en_US.UTF-8@euro`.
    public static func isUTF8(locale: String) -> Bool {
        guard let dot = locale.firstIndex(of: ".") else { return false }
        let codeset = locale[locale.index(after: dot)...].prefix { $0 != "@" }
        let letters = codeset.lowercased().filter { $0 != "-" && $0 != "_" }
        return letters == "utf8"
    }

    /// The `.lproj` name for a locale or language name, as gettext maps them: `ko_KR.UTF-8` → ko, `zh_TW` and
    /// `zh_HK` → zh-Hant, `zh_CN`, `zh_SG` and `zh` → zh-Hans, `C` and `POSIX` → en; BCP 47 spellings
    /// (`zh-Hant-TW`, `ko-KR`) as well. Anything else keeps its language code in lowercase (`fr_FR` → fr).
    public static func language(locale: String) -> String {
        let name = locale.prefix { $0 != "." && $0 != "@" }
        if name == "C" || name == "POSIX" || name.isEmpty { return "en" }
        let parts = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).map { $0.lowercased() }
        guard let code = parts.first else { return "en" }
        guard code == "zh" else { return code }
        let rest = Set(parts.dropFirst())
        if rest.contains("hant") || !rest.isDisjoint(with: ["tw", "hk", "mo"]) { return "zh-Hant" }
        return "zh-Hans"
    }

    public var description: String {
        guard utf8 else {
            return "English: the locale is not UTF-8 (\(characterSetSource ?? "no LC_ALL, LC_CTYPE or LANG: C"))"
        }
        if candidates.isEmpty { return "English: no language set (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)" }
        return candidates.map { "\($0.language) (\($0.source))" }.joined(separator: ", ")
    }
}

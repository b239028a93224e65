import FoundationEssentials
import Synchronization
import TextSupport

/// The text of the app in the user's language: the manifest's own keys from `<lang>.lproj/InfoPlist.strings` beside
/// the manifest in use (the directory of `--info-plist`, else the installed share/tictactoe/), as an iOS app's bundle
/// holds them, and every message the app itself shows (the prompt's title and buttons, as iOS's own words, and the
/// rest) from `<lang>.lproj/Localizable.strings` in the app's resources (the installed share/tictactoe/, or the
/// checkout's Assets/ for a development build).
///
/// Messages are looked up by their English text, the way `NSLocalizedString` is used with English keys: a message
/// without a translation (or a language without a table) shows in English. The language is the first one asked for
/// (`LanguageRequest`) that has a `.lproj` directory in either place; English otherwise.
public struct Localization: Sendable, Hashable {
    /// The language the app was written in: its text is in the code, and its `.lproj` is optional.
    public static let developmentLanguage = "en"

    /// The languages that ship with the app (`Assets/<name>.lproj`).
    public static let shippedLanguages = ["en", "ko", "ja", "zh-Hans", "zh-Hant"]

    /// The `.lproj` name in use (`ko`, `zh-Hant`, `en`).
    public let language: String
    /// Why: the request it answered (or English, when nothing asked for had a translation).
    public let request: LanguageRequest
    /// The directory of the manifest in use, whose `<language>.lproj/InfoPlist.strings` is read (nil: none).
    public let manifestDirectory: String?
    /// The app's resources, whose `<language>.lproj/Localizable.strings` is read (nil: none, English from the code).
    public let resourceDirectory: String?
    /// `<language>.lproj/InfoPlist.strings` beside the manifest, when there is one.
    public let infoPlistStrings: StringsTable?
    /// `<language>.lproj/Localizable.strings` of the resources, when there is one.
    public let messages: StringsTable?
    /// Files of the language in use that exist but could not be used, and translations that were set aside (their
    /// placeholders do not match the English text's): `tictactoe privacy status` lists them.
    public let problems: [String]

    public init(
        language: String, request: LanguageRequest, manifestDirectory: String?, resourceDirectory: String?,
        infoPlistStrings: StringsTable?, messages: StringsTable?, problems: [String] = []
    ) {
        self.language = language
        self.request = request
        self.manifestDirectory = manifestDirectory
        self.resourceDirectory = resourceDirectory
        self.infoPlistStrings = infoPlistStrings
        self.messages = messages
        self.problems = problems
    }

    /// English, from the code alone: what runs until `current` is set (and in tests).
    public static let english = Localization(
        language: developmentLanguage, request: LanguageRequest(candidates: [], utf8: true, characterSetSource: nil),
        manifestDirectory: nil, resourceDirectory: nil, infoPlistStrings: nil, messages: nil)

    /// The language `environment` asks for, with `InfoPlist.strings` from beside the manifest (`manifestDirectory`)
    /// and `Localizable.strings` from the app's resources (`resourceDirectory`, the manifest's directory unless told).
    public static func load(
        directory manifestDirectory: String?, resources: String? = nil, environment: [String: String]
    ) -> Localization {
        let resourceDirectory = resources ?? manifestDirectory
        let request = LanguageRequest(environment: environment)
        let places = [manifestDirectory, resourceDirectory].compactMap { $0 }
        let language = choose(request, available: { name in
            places.contains { directory in
                var isDirectory = false
                return FileManager.default.fileExists(atPath: lproj(name, in: directory), isDirectory: &isDirectory)
                    && isDirectory
            }
        })
        var problems: [String] = []
        func table(_ name: String, in directory: String?) -> StringsTable? {
            guard let directory else { return nil }
            let path = PathText.join(lproj(language, in: directory), name)
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            do {
                return try StringsTable(contentsOf: path)
            } catch {
                problems.append("\(error)")
                return nil
            }
        }
        let infoPlist = table("InfoPlist.strings", in: manifestDirectory)
        var messages = table("Localizable.strings", in: resourceDirectory)
        if let found = messages {
            var kept = found.values
            for (english, translated) in found.values.sorted(by: { $0.key < $1.key })
            where Placeholders.count(in: english) != Placeholders.count(in: translated) {
                kept[english] = nil
                problems.append("\(found.path): the translation of \"\(english)\" has other placeholders "
                    + "(%@) than the English text; English is shown")
            }
            messages = StringsTable(path: found.path, values: kept)
        }
        return Localization(
            language: language, request: request, manifestDirectory: manifestDirectory,
            resourceDirectory: resourceDirectory, infoPlistStrings: infoPlist, messages: messages, problems: problems)
    }

    /// The first language of `request` that is English or `available`; English when none is.
    public static func choose(_ request: LanguageRequest, available: (String) -> Bool) -> String {
        for candidate in request.candidates {
            if candidate.language == developmentLanguage || available(candidate.language) {
                return candidate.language
            }
        }
        return developmentLanguage
    }

    /// `DIR/<language>.lproj`.
    public static func lproj(_ language: String, in directory: String) -> String {
        PathText.join(directory, "\(language).lproj")
    }

    /// English from the code, for a terminal that cannot show the language asked for; `reason` says why.
    public func inEnglish(because reason: String) -> Localization {
        Localization(
            language: Self.developmentLanguage,
            request: LanguageRequest(candidates: [], utf8: false, characterSetSource: reason),
            manifestDirectory: manifestDirectory, resourceDirectory: resourceDirectory, infoPlistStrings: nil,
            messages: nil, problems: problems)
    }

    /// The candidate whose language is in use (nil: English as the fallback).
    public var chosenBecause: LanguageRequest.Candidate? {
        request.candidates.first { $0.language == language }
    }

    /// `key` of the manifest in this language (`InfoPlist.strings`), or nil to use the manifest's own value.
    public func infoPlistValue(_ key: String) -> String? {
        guard let value = infoPlistStrings?.values[key]?.trimmingWhitespace(includingNewlines: true),
              !value.isEmpty
        else { return nil }
        return value
    }

    /// The message `english` in this language, with `%@` (or `%1$@`, `%2$@`, …) replaced by `arguments` in order.
    public func text(_ english: String, _ arguments: [String] = []) -> String {
        let template = messages?.values[english] ?? english
        return arguments.isEmpty && !template.contains("%") ? template : Placeholders.fill(template, with: arguments)
    }

    /// Why this language (`privacy status`): "LANGUAGE=ko", "no translation for fr (LANG=fr_FR.UTF-8)", "the locale
    /// is not UTF-8: LANG=ko_KR.EUC-KR".
    public var reason: String {
        if let because = chosenBecause { return because.source }
        if !request.utf8 {
            return "the locale is not UTF-8: \(request.characterSetSource ?? "no LC_ALL, LC_CTYPE or LANG, the C locale")"
        }
        if request.candidates.isEmpty { return "no LANGUAGE, LC_ALL, LC_MESSAGES or LANG asks for another" }
        let asked = request.candidates.map { "\($0.language) (\($0.source))" }.joined(separator: ", ")
        return "no translation for \(asked)"
    }

    /// The files the text comes from: the strings tables in use, in order (empty: English from the code).
    public var files: [String] { [infoPlistStrings?.path, messages?.path].compactMap { $0 } }
}

extension Localization {
    private static let shared = Mutex(Localization.english)

    /// The process's language, set once at start (`tictactoe` reads it from the environment and the manifest's
    /// directory before running a command); English until then. A `Mutex` rather than an actor: every message is
    /// looked up synchronously, from the UI thread, NIO's threads and async code alike.
    public static var current: Localization {
        get { shared.withLock { $0 } }
        set { shared.withLock { $0 = newValue } }
    }
}

/// The message `english` in the process's language (`Localization.current`), its `%@` placeholders filled in order.
public func tr(_ english: String, _ arguments: String...) -> String {
    Localization.current.text(english, arguments)
}

/// `%@` and `%N$@` placeholders, and `%%`: the only format a message has (no C varargs, so a translation with a
/// wrong placeholder can never read memory it should not; `Localization.load` sets such translations aside).
enum Placeholders {
    static func count(in text: String) -> Int {
        var count = 0
        var numbered = 0
        forEach(in: text) { index in
            if let index { numbered = max(numbered, index) } else { count += 1 }
        }
        return max(count, numbered)
    }

    static func fill(_ text: String, with arguments: [String]) -> String {
        var result = ""
        var next = 0
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            if characters.first == "%" {
                characters.removeFirst()
                result.append("%")
            } else if let (index, length) = placeholder(characters) {
                characters.removeFirst(length)
                let position = index.map { $0 - 1 } ?? next
                if index == nil { next += 1 }
                if position >= 0, position < arguments.count { result += arguments[position] }
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Calls `body` with each placeholder's number (nil for a plain `%@`).
    private static func forEach(in text: String, _ body: (Int?) -> Void) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            guard character == "%" else { continue }
            if characters.first == "%" {
                characters.removeFirst()
            } else if let (index, length) = placeholder(characters) {
                characters.removeFirst(length)
                body(index)
            }
        }
    }

    /// The placeholder after a `%`: `@` (nil, 1) or `N$@` (N, digits + 2).
    private static func placeholder(_ rest: ArraySlice<Character>) -> (Int?, Int)? {
        if rest.first == "@" { return (nil, 1) }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(String(digits)) else { return nil }
        let after = rest.dropFirst(digits.count)
        guard after.first == "$", after.dropFirst().first == "@" else { return nil }
        return (number, digits.count + 2)
    }
}

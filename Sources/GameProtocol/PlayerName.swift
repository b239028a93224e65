import FoundationEssentials
import TextSupport

/// The one rule for player names, which are also game names (a host advertises its player's name as its Bonjour
/// service instance name): how a name is stored, how long it may be, and when a typed name means an advertised one.
///
/// - A name is kept in Unicode Normalization Form C (NFC): what is sent in the `hello`, advertised, and shown. A name
///   typed with a decomposed "ë" (e + U+0308) and one typed with the precomposed U+00EB are the same name.
/// - A name has at most 63 bytes of UTF-8 after NFC, the length of a DNS label (a service instance name is one).
///   `--name` refuses a longer one; a name from elsewhere (the default USER@HOST, a settings file) is cut to fit at a
///   character boundary (`fitted(_:)`), never inside a character; the terminal UI's name field stops taking
///   characters at the limit.
/// - Two names match (`matches(_:)`) when their NFC forms are equal with ASCII letters compared case-insensitively,
///   as DNS compares names; other letters are compared exactly ("Ö" and "ö" are different names).
public struct PlayerName: Hashable, Sendable, CustomStringConvertible {
    /// The most bytes of UTF-8 a name may have (after NFC): the length of a DNS label.
    public static let maximumBytes = 63

    /// The name in NFC (not cut: see `fitted(_:)`).
    public let text: String

    /// `text` in NFC.
    public init(_ text: String) {
        self.text = Self.normalized(text)
    }

    public var description: String { text }

    /// The bytes of UTF-8 of the NFC form.
    public var byteCount: Int { text.utf8.count }

    /// Whether `other` is the same name: equal NFC forms, ASCII letters compared case-insensitively.
    public func matches(_ other: PlayerName) -> Bool {
        matchKey == other.matchKey
    }

    /// The NFC form with ASCII upper-case letters lowered (and nothing else changed): equal keys, matching names.
    public var matchKey: String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if ("A"..."Z").contains(scalar), let lower = Unicode.Scalar(scalar.value + 0x20) {
                scalars.append(lower)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// `text` in Unicode Normalization Form C, by the standard library's own normalizer (the one `String`'s `==`
    /// uses; FoundationEssentials has no `precomposedStringWithCanonicalMapping`, and the app does not load Foundation
    /// and ICU for it).
    public static func normalized(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// Whether `typed` and `advertised` are the same name (see `matches(_:)`).
    public static func matches(_ typed: String, _ advertised: String) -> Bool {
        PlayerName(typed).matches(PlayerName(advertised))
    }

    /// `text` in NFC, cut to `maximumBytes` of UTF-8 at a character (grapheme cluster) boundary.
    public static func fitted(_ text: String) -> String {
        normalized(text).prefix(utf8Bytes: maximumBytes)
    }

    /// Whether `text` (in NFC) is within `maximumBytes`: the test of a name field before it takes another character.
    public static func fits(_ text: String) -> Bool {
        normalized(text).utf8.count <= maximumBytes
    }

    /// Why `text` cannot be a name given on the command line, or nil when it can: it must have some printable text,
    /// no control or bidi formatting characters, and at most `maximumBytes` of UTF-8 after NFC.
    public static func problem(with text: String) -> String? {
        let bytes = normalized(text).utf8.count
        if text.trimmingWhitespace().isEmpty {
            return "this one is empty"
        }
        if text.unicodeScalars.contains(where: { DisplayText.isControl($0) || DisplayText.isBidiFormatting($0) }) {
            return "this one has a control or bidi character"
        }
        if bytes > maximumBytes {
            return "this one has \(bytes) bytes"
        }
        return nil
    }

    /// The rule `problem(with:)` checks, as help and error texts say it.
    public static let limitText = "at most \(maximumBytes) bytes of UTF-8, the length of a DNS label"
}

extension String {
    /// The longest prefix of whole characters whose UTF-8 form fits in `maxBytes` (a character is never split).
    public func prefix(utf8Bytes maxBytes: Int) -> String {
        if utf8.count <= maxBytes { return self }
        var result = ""
        var used = 0
        for character in self {
            let size = character.utf8.count
            if used + size > maxBytes { break }
            result.append(character)
            used += size
        }
        return result
    }
}

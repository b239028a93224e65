import FoundationEssentials

/// The one way the app writes JSON (`--json` events, `privacy status --json`): an `Encodable` value as one line,
/// keys sorted, `/` not escaped, non-ASCII text as UTF-8 (not `\u` escapes), integers as integers.
///
/// Text from outside stays lossless (a peer's name is written as it was sent), but nothing in a line can act on a
/// terminal that shows it: `JSONEncoder` escapes only C0 controls, so a second pass writes DEL, the C1 controls
/// (U+0080–U+009F), the bidirectional formatting characters (`DisplayText.isBidiFormatting`) and the line and
/// paragraph separators (U+2028, U+2029, which some readers split lines on) as `\u` escapes too (`\u009b`,
/// `\u202e`). Every JSON parser reads them back as the original characters.
public enum JSONLine {
    /// Shared by every caller: `JSONEncoder` is thread-safe once configured.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as one line of JSON (no trailing newline). Throws what `JSONEncoder` throws, a non-finite number (the
    /// events' numbers are measured, checked or written as `null` when not finite); every caller reports it.
    public static func encode<Value: Encodable>(_ value: Value) throws -> String {
        escapingTerminalControls(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// `json` with DEL, C1 controls, bidi formatting characters and the line and paragraph separators written as `\u`
    /// escapes. They can only stand inside strings (JSON's own syntax is ASCII), where an escape means the same
    /// character.
    static func escapingTerminalControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            result.append(contentsOf: "\\u\(DisplayText.hex(scalar.value, digits: 4))".unicodeScalars)
        }
        return String(result)
    }

    /// What the encoder leaves raw but a terminal or a line reader would act on. (C0 controls are escaped by
    /// `JSONEncoder` already.)
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        (DisplayText.isControl(scalar) && scalar.value >= 0x7F) || DisplayText.isBidiFormatting(scalar)
            || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}

/// A coding key for JSON objects whose keys are written in code (`encode(to:)` of the event and report types).
package struct JSONKey: CodingKey, ExpressibleByStringLiteral, Hashable {
    package let stringValue: String
    package var intValue: Int? { nil }

    package init(_ stringValue: String) { self.stringValue = stringValue }
    package init(stringLiteral value: String) { self.init(value) }
    package init?(stringValue: String) { self.init(stringValue) }
    package init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where Key == JSONKey {
    /// Writes `value`, or `null` when it is nil (the key is always present).
    package mutating func encodeOrNull<Value: Encodable>(_ value: Value?, forKey key: JSONKey) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}

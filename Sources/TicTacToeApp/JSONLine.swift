import Foundation

/// The one way the app writes JSON (`--json` events, `privacy status --json`): an `Encodable` value as one line,
/// keys sorted, `/` not escaped, non-ASCII text as UTF-8 (not `\u` escapes), integers as integers.
public enum JSONLine {
    /// Shared by every caller: `JSONEncoder` is thread-safe once configured.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `value` as one line of JSON (no trailing newline). Throws what `JSONEncoder` throws (a non-finite number).
    public static func encode<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// A coding key for JSON objects whose keys are written in code (`encode(to:)` of the event and report types).
struct JSONKey: CodingKey, ExpressibleByStringLiteral, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ stringValue: String) { self.stringValue = stringValue }
    init(stringLiteral value: String) { self.init(value) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { nil }
}

extension KeyedEncodingContainer where Key == JSONKey {
    /// Writes `value`, or `null` when it is nil (the key is always present).
    mutating func encodeOrNull<Value: Encodable>(_ value: Value?, forKey key: JSONKey) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}

import FoundationEssentials
import TextSupport

/// A value read from a property list or a JSON file without a fixed schema, as the manifest, the entitlements, the
/// decision file and the settings file are read: through FoundationEssentials' `PropertyListDecoder` and
/// `JSONDecoder` (the app does not load all of Foundation, whose `PropertyListSerialization` and `JSONSerialization`
/// these replace: less resident memory, a faster start).
public indirect enum PropertyValue: Sendable, Hashable, Codable {
    case bool(Bool)
    case integer(Int)
    case real(Double)
    case string(String)
    case date(Date)
    case data(Data)
    case array([PropertyValue])
    case dictionary([String: PropertyValue])
    /// JSON's `null`.
    case null

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool first: both decoders refuse a number as a Bool; a number is an integer when it is a whole one (a plist
        // <real>1.0</real> reads as the integer 1).
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .integer(number)
        } else if let number = try? container.decode(Double.self) {
            self = .real(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([PropertyValue].self) {
            self = .array(array)
        } else if let dictionary = try? container.decode([String: PropertyValue].self) {
            self = .dictionary(dictionary)
        } else if let date = try? container.decode(Date.self) {
            self = .date(date)
        } else {
            self = .data(try container.decode(Data.self))
        }
    }

    /// Written back as it was read (a date as ISO 8601 text and data as Base64 in JSON).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let flag): try container.encode(flag)
        case .integer(let number): try container.encode(number)
        case .real(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .date(let date): try container.encode(date)
        case .data(let data): try container.encode(data)
        case .array(let array): try container.encode(array)
        case .dictionary(let dictionary): try container.encode(dictionary)
        case .null: try container.encodeNil()
        }
    }

    /// Parses a property list (XML, binary, or the OpenStep text of `.strings` files).
    public static func propertyList(_ data: Data) throws -> PropertyValue {
        try PropertyListDecoder().decode(PropertyValue.self, from: data)
    }

    /// Parses JSON text.
    public static func json(_ data: Data) throws -> PropertyValue {
        try JSONDecoder().decode(PropertyValue.self, from: data)
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var dictionary: [String: PropertyValue]? {
        if case .dictionary(let dictionary) = self { return dictionary }
        return nil
    }

    public var array: [PropertyValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The array's elements when they are all strings.
    public var strings: [String]? {
        guard let array else { return nil }
        let strings = array.compactMap(\.string)
        return strings.count == array.count ? strings : nil
    }

    /// How a value of the wrong type reads in an error about a property list ("<integer> 1", "<string> \"YES\"").
    public var plistDescription: String {
        switch self {
        case .string(let text): return "<string> \"\(text)\""
        case .array: return "an <array>"
        case .dictionary: return "a <dict>"
        case .data: return "<data>"
        case .date: return "a <date>"
        case .real(let number): return "<real> \(number)"
        case .integer(let number): return "<integer> \(number)"
        case .bool(let flag): return flag ? "<true/>" : "<false/>"
        case .null: return "null"
        }
    }

    /// The value as JSON text (`7`, `"2"`, `true`, `null`, `[1,2]`), written by the one encoder (`JSONLine`). Throws
    /// for what JSON cannot hold (a non-finite number, which only a property list can have).
    public func jsonText() throws -> String {
        try JSONLine.encode(self)
    }
}

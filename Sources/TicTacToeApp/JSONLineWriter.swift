import FoundationEssentials
import GameProtocol
import TextSupport

/// Writes the `Encodable` values of `JSONLine` (objects of strings, integers, booleans, nulls, arrays and nested
/// objects) as the bytes `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes, followed by
/// `JSONLine`'s escaping of terminal controls, in one pass and without Foundation.
///
/// A `--json` match writes a line for every move; through `JSONEncoder` and the second escaping pass over a `String`
/// each line cost more CPU than the move itself. Anything this writer does not know how to write exactly as
/// `JSONEncoder` would (floating-point numbers, whose formatting is Foundation's own) makes it throw `unsupported`, and
/// `JSONLine` then takes the Foundation path for that value.
///
/// Keys are sorted by their UTF-8 bytes, as swift-foundation's `.sortedKeys` sorts them on Linux; strings are escaped
/// as `JSONEncoder` escapes them (`"`, `\`, C0 controls: `\b \f \n \r \t`, others as `\u00xx`), then DEL, the C1
/// controls and the bidi formatting characters as `\u` escapes (`JSONLine.escapingTerminalControls`).
struct JSONLineWriter {
    /// The value cannot be written here; `JSONLine` falls back to `JSONEncoder`.
    struct Unsupported: Error {}

    /// `value` as one line of JSON, UTF-8.
    static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = TreeEncoder()
        try value.encode(to: encoder)
        guard let root = encoder.storage.value else { throw Unsupported() }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        write(root, into: &bytes)
        return bytes
    }

    // MARK: Writing

    private static func write(_ value: Node, into bytes: inout [UInt8]) {
        switch value {
        case .raw(let text):
            bytes.append(contentsOf: text.utf8)
        case .string(let text):
            writeString(text, into: &bytes)
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            // Later writes of a key replace earlier ones, as in JSONEncoder; then sorted by UTF-8 bytes.
            var fields: [(key: String, value: Node)] = []
            fields.reserveCapacity(object.fields.count)
            for field in object.fields {
                if let index = fields.firstIndex(where: { $0.key == field.key }) {
                    fields[index].value = field.value.node
                } else {
                    fields.append((field.key, field.value.node))
                }
            }
            fields.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, field) in fields.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(field.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(field.value, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in array.elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element.node, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ text: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case 0x5C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x20..<0x7F:
                bytes.append(UInt8(truncatingIfNeeded: scalar.value))
            case let value where value < 0x20 || DisplayText.isControl(scalar) || DisplayText.isBidiFormatting(scalar):
                // C0 controls (JSONEncoder's escapes), DEL, C1 and bidi formatting (JSONLine's own).
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
                for shift in stride(from: 12, through: 0, by: -4) {
                    bytes.append(hexDigits[Int((value >> UInt32(shift)) & 0xF)])
                }
            default:
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    // MARK: The tree an `Encodable` value builds

    fileprivate enum Node {
        /// A number, `true`, `false` or `null`, as written.
        case raw(String)
        case string(String)
        case object(ObjectBox)
        case array(ArrayBox)
    }

    /// Where a container's value goes; filled in when the value is encoded.
    fileprivate final class Slot {
        var value: Node?
        var node: Node { value ?? .object(ObjectBox()) }  // an encoder that wrote nothing: `{}` as JSONEncoder
    }

    fileprivate final class ObjectBox {
        var fields: [(key: String, value: Slot)] = []
    }

    fileprivate final class ArrayBox {
        var elements: [Slot] = []
    }

    fileprivate final class TreeEncoder: Encoder {
        let storage: Slot
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(storage: Slot = Slot(), codingPath: [any CodingKey] = []) {
            self.storage = storage
            self.codingPath = codingPath
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let object: ObjectBox
            if case .object(let existing)? = storage.value {
                object = existing
            } else {
                object = ObjectBox()
                storage.value = .object(object)
            }
            return KeyedEncodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let array: ArrayBox
            if case .array(let existing)? = storage.value {
                array = existing
            } else {
                array = ArrayBox()
                storage.value = .array(array)
            }
            return UnkeyedContainer(array: array, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleValueContainer(slot: storage, codingPath: codingPath)
        }
    }

    /// The node for a value: the primitives this writer knows; other `Encodable`s through their own `encode(to:)`.
    fileprivate static func node<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> Node {
        switch value {
        case let text as String: return .string(text)
        case let flag as Bool: return .raw(flag ? "true" : "false")
        case let number as Int: return .raw(String(number))
        case let number as Int8: return .raw(String(number))
        case let number as Int16: return .raw(String(number))
        case let number as Int32: return .raw(String(number))
        case let number as Int64: return .raw(String(number))
        case let number as UInt: return .raw(String(number))
        case let number as UInt8: return .raw(String(number))
        case let number as UInt16: return .raw(String(number))
        case let number as UInt32: return .raw(String(number))
        case let number as UInt64: return .raw(String(number))
        // Numbers with Foundation's own formatting, and the types JSONEncoder writes in its own way.
        case is Double, is Float, is Decimal, is Date, is Data, is URL: throw Unsupported()
        default:
            let encoder = TreeEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.storage.node
        }
    }

    fileprivate struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let object: ObjectBox
        let codingPath: [any CodingKey]

        private func set(_ node: Node, forKey key: Key) {
            let slot = Slot()
            slot.value = node
            object.fields.append((key.stringValue, slot))
        }

        mutating func encodeNil(forKey key: Key) throws { set(.raw("null"), forKey: key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { throw Unsupported() }
        mutating func encode(_ value: Float, forKey key: Key) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            set(try JSONLineWriter.node(value, codingPath: codingPath + [key]), forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectBox()
            set(.object(nested), forKey: key)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = ArrayBox()
            set(.array(nested), forKey: key)
            return UnkeyedContainer(array: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let slot = Slot()
            object.fields.append((key.stringValue, slot))
            return TreeEncoder(storage: slot, codingPath: codingPath + [key])
        }
    }

    fileprivate struct IndexKey: CodingKey {
        var stringValue: String { "Index \(intValue!)" }
        var intValue: Int?
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    fileprivate struct UnkeyedContainer: UnkeyedEncodingContainer {
        let array: ArrayBox
        let codingPath: [any CodingKey]
        var count: Int { array.elements.count }

        private func append(_ node: Node) {
            let slot = Slot()
            slot.value = node
            array.elements.append(slot)
        }

        mutating func encodeNil() throws { append(.raw("null")) }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            append(try JSONLineWriter.node(value, codingPath: codingPath + [IndexKey(count)]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let nested = ObjectBox()
            let path = codingPath + [IndexKey(count)]
            append(.object(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = ArrayBox()
            let path = codingPath + [IndexKey(count)]
            append(.array(nested))
            return UnkeyedContainer(array: nested, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let slot = Slot()
            let path = codingPath + [IndexKey(count)]
            array.elements.append(slot)
            return TreeEncoder(storage: slot, codingPath: path)
        }
    }

    fileprivate struct SingleValueContainer: SingleValueEncodingContainer {
        let slot: Slot
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { slot.value = .raw("null") }
        mutating func encode(_ value: Double) throws { throw Unsupported() }
        mutating func encode(_ value: Float) throws { throw Unsupported() }
        mutating func encode<T: Encodable>(_ value: T) throws {
            slot.value = try JSONLineWriter.node(value, codingPath: codingPath)
        }
    }
}

/// The strings files this app ships, read without the property-list decoder: `"key" = "value";` entries in UTF-8,
/// with `/* … */` and `// …` comments and the escapes `\"`, `\\`, `\n`, `\t` and `\r`.
///
/// Every command reads a strings table at start (the manifest's `InfoPlist.strings`, the app's messages), and
/// `PropertyListDecoder` is slow to start (its first use instantiates its generic machinery and scans the binary's
/// protocol conformances). Anything else the format allows (unquoted words, `"key";` alone, other escapes, a
/// byte-order mark, UTF-16 or other bytes that are not UTF-8, XML or binary property lists, a key written twice, a
/// file with no entry, a `//` comment with a carriage return, U+2028 or U+2029 in it) makes `parse` return nil, and
/// `StringsTable` reads the file with the decoder, with the same results and the same errors.
enum PlainStringsParser {
    static func parse(_ bytes: [UInt8]) -> [String: String]? {
        // The decoder reads the whole file as UTF-8 (comments too) and refuses it otherwise.
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var index = 0
        var values: [String: String] = [:]

        /// Skips white space and comments; false on an unterminated comment.
        func skipSpace() -> Bool {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    index += 1
                case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                    index += 2
                    while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                        index += 1
                    }
                    guard index + 1 < bytes.count else { return false }
                    index += 2
                case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
                    // The decoder also ends this comment at CR, U+2028 and U+2029: such a file goes to it.
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") {
                        if bytes[index] == UInt8(ascii: "\r") { return false }
                        if bytes[index] == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
                           bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 { return false }
                        index += 1
                    }
                default:
                    return true
                }
            }
            return true
        }

        /// A quoted string at `index`, or nil.
        func quoted() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var text: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: text, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escaped = bytes[index]
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"): text.append(escaped)
                    case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
                    case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
                    case UInt8(ascii: "r"): text.append(UInt8(ascii: "\r"))
                    default: return nil
                    }
                default:
                    text.append(byte)
                }
            }
            return nil
        }

        guard skipSpace() else { return nil }
        while index < bytes.count {
            guard let key = quoted(), skipSpace(), index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                return nil
            }
            index += 1
            guard skipSpace(), let value = quoted(), skipSpace(), index < bytes.count,
                  bytes[index] == UInt8(ascii: ";"), values[key] == nil
            else { return nil }
            index += 1
            values[key] = value
            guard skipSpace() else { return nil }
        }
        return values.isEmpty ? nil : values
    }
}

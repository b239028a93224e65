/// A DNS-SD TXT record: a sequence of length-prefixed `key=value` strings (RFC 6763 §6). Pure: no dns_sd calls.
///
/// Keys compare case-insensitively and only the first occurrence of a key counts (RFC 6763 §6.4). Parsing is
/// tolerant: empty strings are skipped and a truncated last string is dropped, since the bytes come from the network.
public struct TXTRecord: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var key: String
        /// nil for a boolean attribute (`key` without `=`); empty for `key=`.
        public var value: [UInt8]?

        public init(key: String, value: [UInt8]?) {
            self.key = key
            self.value = value
        }
    }

    public private(set) var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// `key=value` pairs with UTF-8 values.
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.entries = pairs.map { Entry(key: $0.key, value: Array($0.value.utf8)) }
    }

    /// Parses the wire format (what `DNSServiceResolve` hands over).
    public init(wire bytes: [UInt8]) {
        var entries: [Entry] = []
        var index = 0
        while index < bytes.count {
            let length = Int(bytes[index])
            index += 1
            guard length > 0 else { continue }
            guard index + length <= bytes.count else { break }  // truncated: drop it
            let string = bytes[index..<index + length]
            index += length
            if let equals = string.firstIndex(of: UInt8(ascii: "=")) {
                guard equals > string.startIndex else { continue }  // "=value": no key, ignored (RFC 6763 §6.4)
                entries.append(Entry(key: String(decoding: string[..<equals], as: UTF8.self),
                                     value: Array(string[(equals + 1)...])))
            } else {
                entries.append(Entry(key: String(decoding: string, as: UTF8.self), value: nil))
            }
        }
        self.entries = entries
    }

    /// The wire format; an empty record is a single empty string (RFC 6763 §6.1). Strings are cut at 255 bytes.
    public var wire: [UInt8] {
        var bytes: [UInt8] = []
        for entry in entries {
            var string = Array(entry.key.utf8)
            if let value = entry.value { string += [UInt8(ascii: "=")] + value }
            string = Array(string.prefix(255))
            bytes.append(UInt8(string.count))
            bytes += string
        }
        return bytes.isEmpty ? [0] : bytes
    }

    /// The first entry with this key (case-insensitive).
    public func entry(forKey key: String) -> Entry? {
        let wanted = key.lowercased()
        return entries.first { $0.key.lowercased() == wanted }
    }

    /// The value of `key` as UTF-8 text: nil when absent or a boolean attribute.
    public subscript(key: String) -> String? {
        entry(forKey: key)?.value.map { String(decoding: $0, as: UTF8.self) }
    }
}

import FoundationEssentials

/// A `.strings` file (`"key" = "value";` lines with C comments), in UTF-8 or UTF-16 with a byte-order mark, read by
/// FoundationEssentials' property list decoder (the OpenStep text format `Bundle` reads them in).
public struct StringsTable: Sendable, Hashable {
    /// The file it was read from.
    public let path: String
    public let values: [String: String]

    public init(path: String, values: [String: String]) {
        self.path = path
        self.values = values
    }

    /// Reads `path`. Throws `StringsTableError` when the file cannot be read or is not a strings table.
    public init(contentsOf path: String) throws {
        // By path, not `Data(contentsOf: URL)`: the URL's path, worked out again to be read, costs each start a
        // protocol conformance lookup over the whole binary.
        guard let data = FileManager.default.contents(atPath: path) else {
            throw StringsTableError(path: path, reason: "cannot be read")
        }
        try self.init(path: path, data: data)
    }

    /// Parses `data` read from `path`: the plain form this app ships without the property-list decoder
    /// (`PlainStringsParser`), anything else with it.
    public init(path: String, data: Data) throws {
        if let values = PlainStringsParser.parse(Array(data)) {
            self.init(path: path, values: values)
            return
        }
        let parsed: [String: Entry]
        do {
            parsed = try PropertyListDecoder().decode([String: Entry].self, from: data)
        } catch {
            throw StringsTableError(path: path, reason: "not a strings file (\"key\" = \"value\"; lines)")
        }
        var values: [String: String] = [:]
        for (key, entry) in parsed {
            guard let text = entry.text else {
                throw StringsTableError(path: path, reason: "the value of \"\(key)\" is not a string")
            }
            values[key] = text
        }
        self.init(path: path, values: values)
    }

    /// A value in the file: a string, or anything else (an error naming its key).
    private struct Entry: Decodable {
        let text: String?

        init(from decoder: Decoder) throws {
            text = try? decoder.singleValueContainer().decode(String.self)
        }
    }
}

/// A strings file that could not be used: the lookup goes on without it (English, or the manifest's own values).
public struct StringsTableError: Error, Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): \(reason)" }
}

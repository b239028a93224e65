import FoundationEssentials
import TextSupport

/// A host and port to connect to, as the user wrote it (a name, or an IPv4 or IPv6 literal, maybe with a `%scope`).
///
/// An endpoint is only words: nothing connects to it until the gate has cleared each address it resolves to (see
/// `ConnectCapability`).
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    public static let defaultPort = 7878

    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST`, `HOST:PORT`, `[IPv6]:PORT` or a bare IPv6 address; the port defaults to `defaultPort`.
    public init(parsing input: String, defaultPort: Int = Endpoint.defaultPort) throws {
        let text = input.trimmingWhitespace()
        func port(_ text: Substring) throws -> Int {
            guard let value = Int(text), (1...65535).contains(value) else {
                throw AddressError("'\(text)' is not a port number (1-65535)")
            }
            return value
        }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw AddressError("'\(text)' has no closing ']'")
            }
            let host = String(text[text.index(after: text.startIndex)..<close])
            guard !host.isEmpty else { throw AddressError("no host between [ ] in '\(text)'") }
            let rest = text[text.index(after: close)...]
            if rest.isEmpty {
                self.init(host: host, port: defaultPort)
            } else if rest.hasPrefix(":") {
                self.init(host: host, port: try port(rest.dropFirst()))
            } else {
                throw AddressError("unexpected '\(rest)' after ']' in '\(text)'")
            }
            return
        }
        let colons = text.filter { $0 == ":" }.count
        if colons == 1, let colon = text.firstIndex(of: ":") {
            let host = String(text[..<colon])
            guard !host.isEmpty else { throw AddressError("no host in '\(text)'") }
            self.init(host: host, port: try port(text[text.index(after: colon)...]))
        } else {
            guard !text.isEmpty else { throw AddressError("empty address") }
            self.init(host: text, port: defaultPort)  // a name, an IPv4 address, or a bare IPv6 address
        }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// An address that cannot be parsed: "bad address: WHY".
public struct AddressError: Error, Sendable, Hashable, CustomStringConvertible {
    public var why: String
    public init(_ why: String) { self.why = why }
    public var description: String { "bad address: \(why)" }
}

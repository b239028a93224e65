import FoundationEssentials
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// What `tictactoe join TARGET` means: an address to connect to directly, or a Bonjour name to resolve.
///
/// The rule: TARGET is an address when it is an IPv4 or IPv6 literal, `[IPv6]` or `[IPv6]:PORT`, `localhost`, or
/// ends in `:DIGITS` with one colon (`HOST:PORT`, the port then checked). Anything else (names with spaces,
/// apostrophes, any script) is a Bonjour instance name. So a DNS host name is joined as `HOST:PORT`. A name is taken
/// as `tictactoe browse` prints it: escapes (`\x1b`, `\u202e`, `\\`; `DisplayText`) are turned back.
public enum JoinTarget: Sendable, Hashable {
    case address(Endpoint)
    case bonjour(name: String)

    /// Throws `AddressError` for something that looks like an address but is not a valid one
    /// (`host:99999`), or an empty target.
    public init(parsing text: String) throws {
        if Self.looksLikeAddress(text) {
            self = .address(try Endpoint(parsing: text))
        } else if text.isEmpty {
            throw AddressError("empty address")
        } else {
            self = .bonjour(name: DisplayText.unescaped(text))
        }
    }

    static func looksLikeAddress(_ text: String) -> Bool {
        if text.hasPrefix("[") || text == "localhost" || isIPLiteral(text) { return true }
        let colons = text.filter { $0 == ":" }.count
        if colons == 1, let colon = text.firstIndex(of: ":") {
            let port = text[text.index(after: colon)...]
            return !port.isEmpty && port.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return false
    }

    /// An IPv4 or IPv6 literal; an IPv6 one may name its interface ("fe80::1%eth0").
    static func isIPLiteral(_ text: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        let address = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        return inet_pton(AF_INET, text, &buffer) == 1
            || (inet_pton(AF_INET6, address, &buffer) == 1 && (address == text || text.contains(":")))
    }
}

extension JoinTarget {
    /// What a join field says about its text while the person types it, by the same rule as `tictactoe join`
    /// (`init(parsing:)`), so the CLI and the TUI agree on what is an address.
    public enum Check: Sendable, Hashable {
        /// Nothing typed (spaces only).
        case empty
        /// An address that would be joined: the endpoint with its port (the default port when none was typed).
        case address(Endpoint)
        /// Looks like an address but is not a valid one (a port out of range, a missing `]`): why.
        case invalid(AddressError)
        /// Not an address: a game's (Bonjour) name, as `tictactoe join NAME` would look it up.
        case gameName(String)
    }

    /// `text` (surrounding spaces ignored) checked as `tictactoe join` reads it.
    public static func check(_ text: String) -> Check {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { return .empty }
        do {
            switch try JoinTarget(parsing: trimmed) {
            case .address(let endpoint): return .address(endpoint)
            case .bonjour(let name): return .gameName(name)
            }
        } catch let error as AddressError {
            return .invalid(error)
        } catch {
            return .invalid(AddressError("\(error)"))
        }
    }
}

import GameProtocol
import GameClient
import Foundation

/// The Host a game / Host a private game / Join by address form: the player name and the port or address.
public struct Form: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case host, join }
    public enum Outcome { case none, cancel, submit }

    public let kind: Kind
    /// Host a private game: joiners need the code the host's screen shows.
    public let privateGame: Bool
    public var name: String
    public var second: String
    /// 0: name, 1: port/address.
    public var field = 1
    public var error: String?

    init(kind: Kind, settings: UISettings, privateGame: Bool = false) {
        self.kind = kind
        self.privateGame = privateGame
        self.name = settings.name
        self.second = kind == .host ? String(settings.port) : settings.lastAddress
        if kind == .join && settings.lastAddress.isEmpty { field = 1 }
    }

    public var secondLabel: String { kind == .host ? "Port" : "Address (host:port)" }
    public var title: String {
        switch kind {
        case .host: return privateGame ? "Host a private game" : "Host a game"
        case .join: return "Join by address"
        }
    }

    var port: Int? { Int(second.trimmingCharacters(in: .whitespaces)) }
    var address: String { second.trimmingCharacters(in: .whitespaces) }

    mutating func handle(_ key: Key) -> Outcome {
        error = nil
        switch key {
        case .escape:
            return .cancel
        case .tab, .down, .up, .backTab:
            field = 1 - field
        case .enter:
            if field == 0 {
                field = 1
                return .none
            }
            return validate() ? .submit : .none
        case .backspace, .delete:
            if field == 0 { if !name.isEmpty { name.removeLast() } } else if !second.isEmpty { second.removeLast() }
        case .character(let c) where !c.isNewline && DisplayWidth.of(c) > 0:
            if field == 0 {
                if PlayerName.fits(name + String(c)) { name.append(c) }  // 63 bytes, as --name
            } else if second.count < 100 {
                second.append(c)
            }
        default:
            break
        }
        return .none
    }

    private mutating func validate() -> Bool {
        if name.trimmingCharacters(in: .whitespaces).isEmpty {
            error = "Type a name for yourself"
            field = 0
            return false
        }
        switch kind {
        case .host:
            guard let port, (0...65535).contains(port) else {
                error = "The port is a number from 1 to 65535 (0: any free port)"
                return false
            }
        case .join:
            guard !address.isEmpty else {
                error = "Type the host's address, e.g. 192.0.2.10 or 192.0.2.10:7878"
                return false
            }
            do {
                _ = try Endpoint(parsing: address)
            } catch {
                self.error = "\(error)"
                return false
            }
        }
        return true
    }
}

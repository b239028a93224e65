import Foundation
import GameClient
import GameProtocol

/// What a host needs from Bonjour (`BonjourHostAdvertising` is the real one): the host coordinator advertises while
/// the host is free for a joiner, withdraws while a game runs (a host serves one at a time) and stops at the end.
public protocol HostAdvertising: Sendable {
    /// Free for a joiner on `port`: advertise (again).
    func advertise(port: Int)
    /// A game started: withdraw.
    func withdraw()
    /// The host is done: withdraw and wait until the daemon was told.
    func stop()
}

/// How discovery reports are written as text: every name, reason, message and address through `DisplayText.escaped`
/// (a name is printed whole, escaped, so that `tictactoe join` accepts it as printed); problems on standard error.
/// The JSON lines are `JSONDiscoveryEvent`'s (names exactly as registered).
extension DiscoveryReport {
    static func safe(_ text: String) -> String { DisplayText.escaped(text) }

    /// A game's line: its name (whole, so that `tictactoe join NAME` accepts it), where it is (`on host-a.local
    /// 10.0.0.2`, or `on this machine`), then how it is protected unless open (`(private: needs a code)`,
    /// `(unencrypted, protocol 1)`), or why it cannot be joined now (`(not answering)`, `(not joinable: …)`).
    static func line(_ game: GameListing) -> String {
        let place = game.place.isEmpty ? "" : "  on \(safe(game.place))"
        switch game.state {
        case .joinable(.open): return safe(game.name) + place
        case .joinable(.private): return "\(safe(game.name))\(place)  (private: needs a code)"
        case .joinable(.plaintext): return "\(safe(game.name))\(place)  (unencrypted, protocol 1)"
        case .lookingUp: return "\(safe(game.name))\(place)  (looking it up)"
        case .notAnswering: return "\(safe(game.name))\(place)  (not answering)"
        case .notJoinable(let reason): return "\(safe(game.name))\(place)  (not joinable: \(safe(reason)))"
        }
    }

    /// The text line of a report and whether it is a problem (standard error); nil for reports text leaves out.
    public var textLine: (String, isProblem: Bool)? {
        switch self {
        case .advertised(let name, _): return ("Advertised as \(Self.safe(name))", false)
        case .advertisingUnavailable(let message):
            return ("Not advertised: \(Self.safe(message)). Players can still join by address.", true)
        case .withdrawn: return nil
        case .game(let game): return (Self.line(game), false)
        case .noGames: return ("No games found on the local network.", false)
        case .games(let games):
            let lines = games.isEmpty
                ? ["Games: none"] : ["Games: \(GameList.summary(of: games))"] + games.map { "  " + Self.line($0) }
            return (lines.joined(separator: "\n"), false)
        case .bonjourUnavailable(let message): return ("\(Self.safe(message)); retrying…", true)
        case .bonjourAvailable: return ("Bonjour is available; browsing.", false)
        case .resolved(let name, let addresses):
            return ("Found \(Self.safe(name)) at \(addresses.map(Self.safe).joined(separator: ", "))", false)
        }
    }
}

import Foundation
import GameClient

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

/// How discovery reports are written as text (names made safe for a terminal; problems on standard error); the JSON
/// lines are `JSONDiscoveryEvent`'s (names exactly as registered).
extension DiscoveryReport {
    static func safe(_ name: String) -> String { DisplayText.sanitize(name, maxLength: 63) }

    static func line(_ game: GameListing) -> String {
        game.compatible ? Self.safe(game.name) : "\(Self.safe(game.name))  (not joinable: \(game.reason ?? "incompatible"))"
    }

    /// The text line of a report and whether it is a problem (standard error); nil for reports text leaves out.
    public var textLine: (String, isProblem: Bool)? {
        switch self {
        case .advertised(let name): return ("Advertised as \(Self.safe(name))", false)
        case .advertisingUnavailable(let message):
            return ("Not advertised: \(message). Players can still join by address.", true)
        case .withdrawn: return nil
        case .game(let game): return (Self.line(game), false)
        case .noGames: return ("No games found on the local network.", false)
        case .games(let games):
            let lines = games.isEmpty ? ["Games: none"] : ["Games:"] + games.map { "  " + Self.line($0) }
            return (lines.joined(separator: "\n"), false)
        case .bonjourUnavailable(let message): return ("\(message); retrying…", true)
        case .bonjourAvailable: return ("Bonjour is available; browsing.", false)
        case .resolved(let name, let addresses):
            return ("Found \(Self.safe(name)) at \(addresses.joined(separator: ", "))", false)
        }
    }
}

import FoundationEssentials
import GameClient
import GameProtocol
import Localization
import TextSupport

/// How discovery reports are written as text: every name, reason, message and address through `DisplayText.escaped`
/// (a name is printed whole, escaped, so that `tictactoe join` accepts it as printed); problems on standard error.
/// The JSON lines are `JSONDiscoveryEvent`'s (names exactly as registered).
extension DiscoveryReport {
    static func safe(_ text: String) -> String { DisplayText.escaped(text) }

    /// A game's line: its name (whole, so that `tictactoe join NAME` accepts it), where it is (`on host-a.local
    /// 10.0.0.2`, or `on this machine`), then how it is protected unless open (`(private: needs a code)`,
    /// `(unencrypted, protocol 1)`), or why it cannot be joined now (`(not answering)`, `(not joinable: …)`).
    static func line(_ game: GameListing) -> String {
        var place = game.place.isEmpty ? "" : tr("  on %@", safe(game.place))
        if game.playing {
            place += game.spectatorRoom > 0
                ? tr("  (playing a match: %@ can watch)", "\(game.spectatorRoom)") : tr("  (playing a match)")
        } else if game.spectatorRoom > 0 {
            place += tr("  (%@ can watch)", "\(game.spectatorRoom)")
        }
        switch game.state {
        case .joinable(.open): return safe(game.name) + place
        case .joinable(.private): return tr("%@%@  (private: needs a code)", safe(game.name), place)
        case .joinable(.plaintext): return tr("%@%@  (unencrypted, protocol 1)", safe(game.name), place)
        case .lookingUp: return tr("%@%@  (looking it up)", safe(game.name), place)
        case .notAnswering: return tr("%@%@  (not answering)", safe(game.name), place)
        case .notJoinable(let reason): return tr("%@%@  (not joinable: %@)", safe(game.name), place, safe(reason))
        }
    }

    /// The text line of a report and whether it is a problem (standard error); nil for reports text leaves out.
    public var textLine: (String, isProblem: Bool)? {
        switch self {
        case .advertised(let name, _): return (tr("Advertised as %@", Self.safe(name)), false)
        case .advertisingUnavailable(let message):
            return (tr("Not advertised: %@. Players can still join by address.", Self.safe(message)), true)
        case .withdrawn: return nil
        case .game(let game): return (Self.line(game), false)
        case .noGames: return (tr("No games found on the local network."), false)
        case .games(let games):
            let lines = games.isEmpty
                ? [tr("Games: none")] : [tr("Games: %@", GameList.summary(of: games))] + games.map { "  " + Self.line($0) }
            return (lines.joined(separator: "\n"), false)
        case .bonjourUnavailable(let message): return (tr("%@; retrying…", Self.safe(message)), true)
        case .bonjourAvailable: return (tr("Bonjour is available; browsing."), false)
        case .serviceTypeCount(let count):
            switch count {
            case 0: return (tr("No service types found on the local network."), false)
            case 1: return (tr("1 service type on the local network:"), false)
            default: return (tr("%@ service types on the local network:", "\(count)"), false)
            }
        case .serviceType(let name, let domain):
            // The type as avahi-browse shows it (`_http._tcp`); a domain other than local. is added.
            return (Self.safe(domain == "local." ? name : "\(name).\(domain)"), false)
        case .resolved(let name, let addresses):
            return (tr("Found %@ at %@", Self.safe(name), addresses.map(Self.safe).joined(separator: ", ")), false)
        }
    }
}

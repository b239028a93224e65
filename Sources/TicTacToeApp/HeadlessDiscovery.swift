import Foundation
import GameTransport

/// What a headless host needs from Bonjour: the `tictactoe` command adapts `Bonjour.GameAdvertiser` to it (this
/// module does not import Bonjour). `runHost` advertises while the host is free for a joiner, withdraws while a game
/// runs (a host serves one at a time) and stops at the end.
public protocol HostAdvertising: Sendable {
    /// Free for a joiner on `port`: advertise (again).
    func advertise(port: Int)
    /// A game started: withdraw.
    func withdraw()
    /// The host is done: withdraw and wait until the daemon was told.
    func stop()
}

/// Everything discovery tells a headless user (beside `MatchReport`, on the same output).
public enum DiscoveryReport: Sendable, Hashable {
    /// The host is advertised under `name` (the name Avahi registered: it renames on a collision).
    case advertised(name: String)
    /// The host could not be advertised (it still hosts: join by address works).
    case advertisingUnavailable(message: String)
    /// The advertisement was withdrawn (a game started, or the host stopped).
    case withdrawn
    /// `browse`: one game of the final list.
    case game(GameListing)
    /// `browse`: the final list was empty.
    case noGames
    /// `browse --watch`: the whole list after a change.
    case games([GameListing])
    /// `browse --watch`: Bonjour stopped working (retried by itself) or works again.
    case bonjourUnavailable(message: String)
    case bonjourAvailable
    /// `join NAME`: the name was resolved to these addresses.
    case resolved(name: String, addresses: [String])
    /// A failure, just before exiting.
    case error(String, ExitStatus)
}

/// Writes `DiscoveryReport`s as JSON lines (keys sorted, names exactly as registered) or as text (names made safe
/// for a terminal; problems on standard error).
public final class DiscoveryReporter: @unchecked Sendable {
    private let json: Bool
    private let lock = NSLock()
    private let write: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void

    public init(
        json: Bool,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
        writeError: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        self.json = json
        self.write = write
        self.writeError = writeError
    }

    public func report(_ report: DiscoveryReport) {
        lock.lock()
        defer { lock.unlock() }
        if json {
            let object = Self.object(for: report)
            let options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: options),
                  let line = String(data: data, encoding: .utf8)
            else { return }
            write(line)
        } else if let (line, isProblem) = Self.text(for: report) {
            if isProblem { writeError(line) } else { write(line) }
        }
    }

    static func listing(_ game: GameListing) -> [String: Any] {
        var object: [String: Any] = ["name": game.name, "compatible": game.compatible]
        if let reason = game.reason { object["reason"] = reason }
        return object
    }

    /// The JSON object of a report (README: "JSON output").
    public static func object(for report: DiscoveryReport) -> [String: Any] {
        switch report {
        case .advertised(let name): return ["event": "advertised", "name": name]
        case .advertisingUnavailable(let message): return ["event": "advertising-unavailable", "message": message]
        case .withdrawn: return ["event": "withdrawn"]
        case .game(let game): return listing(game).merging(["event": "game"]) { a, _ in a }
        case .noGames: return ["event": "no-games"]
        case .games(let games): return ["event": "games", "games": games.map(listing)]
        case .bonjourUnavailable(let message): return ["event": "bonjour-unavailable", "message": message]
        case .bonjourAvailable: return ["event": "bonjour-available"]
        case .resolved(let name, let addresses): return ["event": "resolved", "name": name, "addresses": addresses]
        case .error(let message, let exit): return ["event": "error", "message": message, "exit": Int(exit.rawValue)]
        }
    }

    static func safe(_ name: String) -> String { DisplayText.sanitize(name, maxLength: 63) }

    static func line(_ game: GameListing) -> String {
        game.compatible ? safe(game.name) : "\(safe(game.name))  (not joinable: \(game.reason ?? "incompatible"))"
    }

    /// The text line of a report and whether it is a problem (standard error); nil for reports text leaves out.
    public static func text(for report: DiscoveryReport) -> (String, Bool)? {
        switch report {
        case .advertised(let name): return ("Advertised as \(safe(name))", false)
        case .advertisingUnavailable(let message):
            return ("Not advertised: \(message). Players can still join by address.", true)
        case .withdrawn: return nil
        case .game(let game): return (line(game), false)
        case .noGames: return ("No games found on the local network.", false)
        case .games(let games):
            let lines = games.isEmpty ? ["Games: none"] : ["Games:"] + games.map { "  " + line($0) }
            return (lines.joined(separator: "\n"), false)
        case .bonjourUnavailable(let message): return ("\(message); retrying…", true)
        case .bonjourAvailable: return ("Bonjour is available; browsing.", false)
        case .resolved(let name, let addresses):
            return ("Found \(safe(name)) at \(addresses.joined(separator: ", "))", false)
        case .error(let message, _): return ("tictactoe: \(message)", true)
        }
    }
}

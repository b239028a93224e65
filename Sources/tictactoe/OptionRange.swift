import AppCore
import ArgumentParser
import MatchPlay

/// What a numeric option accepts: finite, from a documented minimum to a documented maximum. Every numeric option is
/// checked with one of these in its command's `validate()`, so a value out of range (`inf`, `nan`, `1e10`, `-1`, `0`
/// where it means nothing) is a usage error (exit 64) that names the option and the range, never a crash in a
/// conversion later:
///
///     --connect-timeout must be a number of seconds from 0.1 to 86400 (got inf)
///
/// A new option declares its range next to the others in `OptionRanges`, puts
/// `range.span` into its help text, and calls `try range.check(value)` in `validate()`.
struct OptionRange<Value: Comparable & Sendable>: Sendable {
    /// The option as typed: "--connect-timeout".
    let option: String
    /// The values accepted (both ends included).
    let range: ClosedRange<Value>
    /// What the value is, for the message: "a number of seconds", "a whole number".
    let kind: String
    /// How a value is written in messages and help (no "86400.0").
    let format: @Sendable (Value) -> String

    /// "0.1 to 86400": for the option's help text.
    var span: String { "\(format(range.lowerBound)) to \(format(range.upperBound))" }

    /// Throws the usage error unless `value` is in the range (NaN never is).
    func check(_ value: Value) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be \(kind) from \(span) (got \(format(value)))")
        }
    }

    /// Checks `value` when the option was given.
    func check(_ value: Value?) throws {
        if let value { try check(value) }
    }
}

extension OptionRange where Value == Double {
    /// Seconds, as a `Double` option takes them (`inf` and `nan` parse: they are out of every range).
    static func seconds(_ option: String, _ range: ClosedRange<Double>) -> Self {
        OptionRange(option: option, range: range, kind: "a number of seconds", format: formatNumber)
    }
}

extension OptionRange where Value == Int {
    /// A whole number (argument-parser refuses `1.5` or `1e10` for an `Int` itself, also with exit 64).
    static func whole(_ option: String, _ range: ClosedRange<Int>) -> Self {
        OptionRange(option: option, range: range, kind: "a whole number", format: { String($0) })
    }
}

/// `86400` rather than `86400.0`; `0.1`, `inf`, `nan` as Swift writes them.
private func formatNumber(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}

/// The range of every numeric option (README: "Scripted, headless matches"; each option's --help shows its range).
enum OptionRanges {
    /// join: how long to keep trying to reach the host.
    static let connectTimeout = OptionRange.seconds("--connect-timeout", 0.1...86_400)
    /// host, join, browse: how long to wait for local network permission.
    static let waitTimeout = OptionRange.seconds("--wait-timeout", 0.1...86_400)
    /// host, join: the pause before each local move.
    static let moveDelay = OptionRange.seconds("--move-delay", 0...60)
    /// browse: how long to look (0 with --watch: until interrupted).
    static let browseTimeout = OptionRange.seconds("--timeout", 0...86_400)
    /// host: how long the joiner has for each move and rematch answer (`MatchOptions.maximumMoveTimeout` at most).
    static let moveTimeout = OptionRange.seconds(
        "--move-timeout", 0.1...Double(MatchOptions.maximumMoveTimeout.components.seconds))
    /// host, join, match: each player's clock for a whole game (default: none, only the move timeout).
    static let gameTime = OptionRange.seconds("--game-time", 0.1...86_400)
    /// host: the TCP port (0: any free one).
    static let port = OptionRange.whole("--port", 0...65_535)
    /// host: games in a match; join: the most to play. The protocol numbers games with 16 bits.
    static let games = OptionRange.whole("--games", 1...65_535)
    /// match: games between each pair of players.
    static let seriesGames = OptionRange.whole("--games", 1...1_000_000)
    /// match: games played at once.
    static let concurrency = OptionRange.whole("--concurrency", 1...64)
    /// How many spectators a host lets watch at once.
    static let spectators = OptionRange.whole("--spectators", 0...64)
    /// host: completed matches to serve (0: keep serving).
    static let matches = OptionRange.whole("--matches", 0...1_000_000)
}

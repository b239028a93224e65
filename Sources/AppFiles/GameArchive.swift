import AppManifest
import FoundationEssentials
import GameClient
import JSONLines
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The games the terminal UI saved: one JSON-lines file per finished game (`GameRecord.jsonLines()`, what `tictactoe
/// replay` reads) in `$XDG_DATA_HOME/tictactoe/games` (default `~/.local/share/tictactoe/games`), named by the time
/// it was saved (`game-20261125-204712-0012345-0001.jsonl`: UTC, then the process and a counter), so the names sort
/// oldest first. The newest `keep` are kept: saving prunes the older ones. Only files named so are counted or deleted.
public struct GameArchive: Sendable {
    public let directory: String
    public let keep: Int

    /// How many games are kept.
    public static let defaultKeep = 100

    public init(directory: String, keep: Int = GameArchive.defaultKeep) {
        self.directory = directory
        self.keep = keep
    }

    /// Writes `record` as a new file (the directory created when missing) and prunes the oldest beyond `keep`;
    /// returns the file's path. `sequence` tells games saved in the same second apart.
    @discardableResult
    public func save(_ record: GameRecord, at date: Date = Date(), sequence: Int) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/" + Self.fileName(date: date, process: Int(getpid()), sequence: sequence)
        let text = try record.jsonLines().joined(separator: "\n") + "\n"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
            throw ArchiveError(message: "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
        prune()
        return path
    }

    /// The saved games' paths, oldest first.
    public func list() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter(Self.isArchiveName).sorted().map { directory + "/" + $0 }
    }

    /// Deletes the oldest saved games beyond `keep`; returns the paths deleted.
    @discardableResult
    public func prune() -> [String] {
        let paths = list()
        guard paths.count > keep else { return [] }
        let old = Array(paths.prefix(paths.count - keep))
        for path in old { try? FileManager.default.removeItem(atPath: path) }
        return old
    }

    /// `game-YYYYMMDD-HHMMSS-PPPPPPP-NNNN.jsonl` (UTC).
    public static func fileName(date: Date, process: Int, sequence: Int) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let (year, month, day) = civilDate(daysSinceEpoch: seconds.floorDivided(by: 86_400))
        let time = seconds - seconds.floorDivided(by: 86_400) * 86_400
        return "game-" + pad(year, 4) + pad(month, 2) + pad(day, 2) + "-" + pad(time / 3600, 2)
            + pad(time / 60 % 60, 2) + pad(time % 60, 2) + "-" + pad(process, 7) + "-" + pad(sequence, 4) + ".jsonl"
    }

    static func isArchiveName(_ name: String) -> Bool {
        name.hasPrefix("game-") && name.hasSuffix(".jsonl") && name.count == "game-YYYYMMDD-HHMMSS-PPPPPPP-NNNN.jsonl".count
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Howard Hinnant's `civil_from_days`.
    static func civilDate(daysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    struct ArchiveError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

extension GameArchiveClient {
    /// Saves into `archive`, counting the games of this process; a failure is a warning (the caller logs it).
    public static func live(_ archive: GameArchive) -> GameArchiveClient {
        let counter = SequenceCounter()
        return GameArchiveClient(
            save: { record in
                do {
                    try archive.save(record, sequence: counter.next())
                    return nil
                } catch {
                    return "the game could not be saved in \(archive.directory): \(AppManifest.describe(error))"
                }
            },
            list: {
                archive.list().reversed().map { path in
                    let title = String(path.split(separator: "/").last ?? "")
                    do {
                        return SavedGame(title: title, record: try ReplayReport.load(path: path, game: nil))
                    } catch {
                        return SavedGame(title: title, record: nil, problem: "\(error)")
                    }
                }
            })
    }
}

private final class SequenceCounter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}

extension Int {
    fileprivate func floorDivided(by divisor: Int) -> Int {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

import AppManifest
import FoundationEssentials
import GameClient
import GameProtocol
import GameRules
import Localization
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reading a game record and choosing its game: `tictactoe replay FILE` (its text is `GameRecord.replayText`, in
/// HeadlessUI) and the TUI's past games (`GameArchiveClient.live`).
public enum ReplayReport {
    /// Why a record cannot be replayed (exit 65, EX_DATAERR); `description` names the file (and the line when there
    /// is one).
    public struct Failure: ExitStatusConvertible, CustomStringConvertible, Equatable {
        public var message: String
        public var description: String { message }
        public var exitStatus: ExitStatus { .dataError }
    }

    /// The game `number` of the record at `path` (its `game-start`'s number; with several games of that number,
    /// as in a round robin's series, the last), or by default the last finished game.
    public static func load(path: String, game number: Int?) throws(Failure) -> GameRecord {
        let bytes = try contents(of: path)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(message: "\(path): the record is not UTF-8 text")
        }
        return try choose(in: text, path: path, game: number)
    }

    /// The most bytes a record may have: far more than any match's transcript.
    public static let maximumRecordSize = 64 << 20

    /// The bytes of the regular file at `path`. Anything else (a directory, a FIFO, a device such as `/dev/zero`) is
    /// refused at once, without reading from it: opening does not wait for a FIFO's writer.
    static func contents(of path: String) throws(Failure) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(message: "\(path): \(openProblem(errno))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw Failure(message: "\(path): cannot read the record (\(String(cString: strerror(errno))))")
        }
        let notARecord = "not a game record (a game the full-screen UI saved, or a --json transcript)"
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Failure(message: "\(path) is a directory, \(notARecord); name one of its .jsonl files")
        case S_IFIFO: throw Failure(message: "\(path) is a named pipe (FIFO), \(notARecord)")
        case S_IFCHR, S_IFBLK: throw Failure(message: "\(path) is a device, \(notARecord)")
        case S_IFSOCK: throw Failure(message: "\(path) is a socket, \(notARecord)")
        default: throw Failure(message: "\(path) is not a regular file: \(notARecord)")
        }
        guard Int(info.st_size) <= maximumRecordSize else {
            throw Failure(message: "\(path) is too large to be a game record (\(info.st_size / (1 << 20)) MiB; "
                            + "a record is a few kB a game)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= maximumRecordSize {  // a file that grows while it is read stops at the limit
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 {
                throw Failure(message: "\(path): cannot read the record (\(String(cString: strerror(errno))))")
            }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
        }
        throw Failure(message: "\(path) is too large to be a game record (over \(maximumRecordSize >> 20) MiB)")
    }

    /// Why `open` failed, in the player's words.
    private static func openProblem(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file (saved games are in \(AppDirectories.games()))"
        case EACCES, EPERM: return "you are not allowed to read this file (permission denied)"
        case ENOTDIR: return "no such file (a part of the path is not a directory)"
        default: return "cannot read the record (\(String(cString: strerror(code))))"
        }
    }

    /// `load`'s choice, from the record's text.
    public static func choose(in text: String, path: String, game number: Int?) throws(Failure) -> GameRecord {
        let games: [GameRecord]
        do {
            games = try GameRecord.parse(text)
        } catch {
            throw Failure(message: "\(path):\(error.line): \(error.problem)")
        }
        if let number {
            guard let game = games.last(where: { $0.number == number }) else {
                let numbers = games.map { String($0.number) }.joined(separator: ", ")
                throw Failure(message: "\(path): no game \(number) in the record"
                                + (games.isEmpty ? " (it holds no game)" : " (its games: \(numbers))"))
            }
            return game
        }
        guard let game = GameRecord.defaultGame(in: games) else {
            if let open = games.last {
                throw Failure(message: "\(path): no finished game in the record: game \(open.number) stops after "
                                + "\(open.cells.count) move\(open.cells.count == 1 ? "" : "s") at line \(open.endLine) "
                                + "(--game \(open.number) shows it)")
            }
            throw Failure(message: "\(path): no game in the record (no game-start line)")
        }
        return game
    }
}

// The figures of `make bench`: how each is measured, ours and its anchor.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Bytes of a move frame as our protocol sends it in plaintext: 2-byte length header, type 0x11, the cell
/// (Sources/GameWire: writeGameMessage(.move)). The answer is a move too.
let moveFrameBytes = 4
let answerFrameBytes = 4

/// Where a lab process runs: a lab host's name; nil on this machine (loopback).
typealias Place = String?

struct MatchRun {
    /// Move round trips as the joiner's JSON lines show them: a local move line to the next peer move line of the
    /// same game, ns; the first game is warm-up and left out.
    var roundTrips: [Double] = []
    var joinWallNS: UInt64 = 0
    var moves = 0
    var games = 0
    var host: Exit
    var joiner: Exit
    /// Peak RSS (VmHWM) of each, kB, read while they run: not wait4's ru_maxrss, which a process spawned by this
    /// driver starts with the driver's own (exec carries the spawning memory's high-water mark over).
    var hostPeakKB = 0
    var joinerPeakKB = 0
}

final class Bench {
    let options: Options
    let bin: String
    let repo: String
    let outDir: String
    let anchorsDir: String
    let label: String
    let started = monotonicNS()
    var rows: [Row] = []
    var notes: [String] = []
    var series: [Series] = []
    var temporaries: [String] = []
    var labUp = false
    var lockFD: Int32 = -1
    var children: [Child] = []
    let lan: String
    let hasTwoCores = sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2

    init(options: Options) {
        self.options = options
        bin = URL(fileURLWithPath: options.bin).standardizedFileURL.path
        repo = URL(fileURLWithPath: options.repo).standardizedFileURL.path
        outDir = options.out ?? repo + "/.build/bench"
        anchorsDir = repo + "/.build-bench/anchors"
        lan = repo + "/Tests/lab/lan"
        let commit = (try? run(["git", "-C", repo, "rev-parse", "--short", "HEAD"]))?.output ?? "unknown"
        label = options.label ?? commit
    }

    /// Every game process of ours and of the anchors runs on CPU 0; the driver on CPU 1.
    var pin: [String] { ["taskset", "-c", "0"] }

    func log(_ text: String) {
        let seconds = Double(monotonicNS() - started) / 1e9
        writeError(String(format: "[%5.1f s] ", seconds) + text + "\n")
    }

    // MARK: Environment

    /// A private HOME, XDG_CONFIG_HOME and XDG_STATE_HOME: nothing of the user's is read or written.
    func appEnvironment(_ tag: String, bonjour: Bool = false) -> [String: String] {
        let directory = makeTemporaryDirectory("ttt-bench-\(tag)")
        temporaries.append(directory)
        for sub in ["home", "config", "state"] {
            try? FileManager.default.createDirectory(atPath: "\(directory)/\(sub)", withIntermediateDirectories: true)
        }
        var environment: [String: String] = [:]
        let inherited = ProcessInfo.processInfo.environment
        for key in ["PATH", "LANG", "TERM"] { if let value = inherited[key] { environment[key] = value } }
        environment["PATH"] = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
        environment["HOME"] = "\(directory)/home"
        environment["XDG_CONFIG_HOME"] = "\(directory)/config"
        environment["XDG_STATE_HOME"] = "\(directory)/state"
        environment["LANGUAGE"] = "en"
        if !bonjour { environment["TICTACTOE_BONJOUR"] = "off" }
        return environment
    }

    func command(_ argv: [String], on place: Place) -> [String] {
        guard let host = place else { return pin + argv }
        return [lan, "exec", host, "--"] + pin + argv
    }

    func spawn(_ argv: [String], on place: Place = nil, environment: [String: String], stdout: Int32? = nil,
               stderr: Int32? = nil) throws -> Child {
        let child = try Child(command(argv, on: place), environment: environment, stdout: stdout, stderr: stderr)
        children.append(child)
        return child
    }

    func temporaryFile(_ name: String) -> String {
        let directory = makeTemporaryDirectory("ttt-bench-files")
        temporaries.append(directory)
        return "\(directory)/\(name)"
    }

    // MARK: The anchors' binaries

    func buildAnchors() throws {
        try FileManager.default.createDirectory(atPath: anchorsDir, withIntermediateDirectories: true)
        for (source, extra) in [("pingpong", [String]()), ("ptyframe", ["-lutil"])] {
            let result = try run(["cc", "-O2", "-Wall", "-o", "\(anchorsDir)/\(source)",
                                  "\(repo)/Benchmarks/anchors/\(source).c"] + extra)
            guard result.code == 0 else { throw BenchError("cc \(source).c failed: \(result.output)") }
        }
    }

    // MARK: 1–4, 8: matches

    /// One match of `games` games, perfect vs perfect (the default player of headless host and join), the joiner's
    /// JSON lines read as they come and stamped on arrival.
    /// `hostArguments` go to the host's command line; `beforeJoin` runs with the host's port before the joiner starts.
    func match(games: Int, plaintext: Bool, host hostPlace: Place = nil, joiner joinerPlace: Place = nil,
               address: String = "127.0.0.1", hostEnvironment: [String: String]? = nil,
               joinerEnvironment: [String: String]? = nil, hostArguments: [String] = [],
               beforeJoin: ((Int) throws -> Void)? = nil) throws -> MatchRun {
        let security = plaintext ? ["--plaintext"] : []
        let hostOut = temporaryFile("host.jsonl"), hostErr = temporaryFile("host.err")
        let outFD = openForWriting(hostOut), errFD = openForWriting(hostErr)
        defer {
            close(outFD)
            close(errFD)
        }
        let host = try spawn(
            [bin, "host", "--headless", "--no-advertise", "--bind", address, "--port", "0", "--games", "\(games)",
             "--seed", "1", "--json"] + security + hostArguments,
            on: hostPlace, environment: hostEnvironment ?? appEnvironment("host"), stdout: outFD, stderr: errFD)
        guard let port = waitForLine(in: hostOut, timeout: 15, while: host, { line -> Int? in
            guard let object = jsonObject(line), object["event"] as? String == "listening" else { return nil }
            return object["port"] as? Int
        }) else {
            host.terminate()
            let exit = host.wait(timeout: 3)
            let err = (try? String(contentsOfFile: hostErr, encoding: .utf8)) ?? ""
            throw BenchError("the host never said it was listening (exit \(exit.exitCode)): \(err.prefix(400))")
        }
        try beforeJoin?(port)
        let reader = try LineReader()
        let joinErr = temporaryFile("join.err")
        let joinErrFD = openForWriting(joinErr)
        defer { close(joinErrFD) }
        let joinStart = monotonicNS()
        // Lines stamped by the joiner as it makes them: a tictactoe whose standard output to a pipe is gathered
        // (2 ms windows) delivers them in bunches, so their arrival no longer says when they were made. An older
        // binary ignores the variable; its lines are timed by their arrival, as they were written one by one.
        var joinerEnvironment = joinerEnvironment ?? appEnvironment("join")
        joinerEnvironment["TICTACTOE_JSON_STAMPS"] = "1"
        let joiner = try spawn([bin, "join", "\(address):\(port)", "--headless", "--seed", "2", "--json"] + security,
                               on: joinerPlace, environment: joinerEnvironment,
                               stdout: reader.writeFD, stderr: joinErrFD)
        reader.closeWriteEnd()
        var run = MatchRun(host: Exit(status: 0, usage: rusage()), joiner: Exit(status: 0, usage: rusage()))
        var game = 0
        // A round trip is one whole exchange as the joiner sees it: from a peer move to the next peer move of the
        // same game, with our move in between (we read theirs, answer, they read ours and answer), as the ping-pong
        // client's send→reply holds the server's answer. Not from our own move line: the app writes it once its
        // frame's send has completed, which on a shared core may come after the peer has already answered.
        var lastPeerMove: UInt64?
        var movedSince = false
        while let (line, arrival) = reader.next(timeout: 120) {
            // Cheap checks first: the arrival stamp was taken when the read returned, parsing comes after.
            guard line.contains("\"event\"") else { continue }
            let at = Self.stamp(in: line) ?? arrival
            if line.contains("\"game-start\"") {
                // Kept short: while this reader works, the joiner's next lines wait in the pipe, and lines read
                // together share one stamp (a round trip of 0, the next one doubled). So the game's number by a
                // scan, not a JSON parser, and the peaks read every 100 games (a high-water mark: nothing is lost).
                game = Self.gameNumber(in: line) ?? game + 1
                if game % 100 == 1 {
                    run.hostPeakKB = max(run.hostPeakKB, host.vmHWMKB ?? 0)
                    run.joinerPeakKB = max(run.joinerPeakKB, joiner.vmHWMKB ?? 0)
                }
                run.games = max(run.games, game)
                lastPeerMove = nil
            } else if line.contains("\"move\"") {
                run.moves += 1
                if line.contains("\"by\":\"local\"") {
                    movedSince = true
                } else if line.contains("\"by\":\"peer\"") {
                    if let start = lastPeerMove, movedSince, game > 1 { run.roundTrips.append(Double(at - start)) }
                    lastPeerMove = at
                    movedSince = false
                }
            }
        }
        run.hostPeakKB = max(run.hostPeakKB, host.vmHWMKB ?? 0)
        run.joinerPeakKB = max(run.joinerPeakKB, joiner.vmHWMKB ?? 0)
        if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil {
            log("reads \(reader.readCount), moves \(run.moves), rtts \(run.roundTrips.count), zero \(run.roundTrips.filter { $0 == 0 }.count)")
        }
        run.joiner = joiner.wait(timeout: 30)
        run.joinWallNS = monotonicNS() - joinStart
        run.host = host.wait(timeout: 30)
        guard run.joiner.exitCode == 0 else {
            let err = (try? String(contentsOfFile: joinErr, encoding: .utf8)) ?? ""
            throw BenchError("join exited \(run.joiner.exitCode): \(err.prefix(400))")
        }
        guard run.moves > 0 else { throw BenchError("the joiner printed no move lines") }
        return run
    }

    /// The joiner's own stamp of a line (`"_mono_ns":N`, CLOCK_MONOTONIC like `monotonicNS`), if it has one.
    static func stamp(in line: String) -> UInt64? {
        guard line.hasPrefix("{\"_mono_ns\":") else { return nil }
        let digits = line.utf8.dropFirst(12).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return UInt64(String(decoding: digits, as: UTF8.self))
    }

    /// `N` of `"game":N` in a JSON line, without parsing the line.
    static func gameNumber(in line: String) -> Int? {
        guard let key = line.range(of: "\"game\":") else { return nil }
        let digits = line[key.upperBound...].prefix { $0.isASCII && $0.isNumber }
        return Int(digits)
    }

    // MARK: The C ping-pong

    /// The NIO ping-pong (Sources/nio-pingpong), built beside this driver.
    var nioPingPong: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("nio-pingpong").path
    }

    /// Round trips of the C ping-pong (ns), or of `program` (the NIO one, which takes the same arguments plus `extra`):
    /// the server on `serverPlace`, the client on `clientPlace`.
    func pingPong(address: String = "127.0.0.1", server serverPlace: Place = nil, client clientPlace: Place = nil,
                  count: Int = 20_000, program: String? = nil, extra: [String] = []) throws -> [Double] {
        let program = program ?? "\(anchorsDir)/pingpong"
        let reader = try LineReader()
        let server = try spawn([program, "server", "0"] + extra, on: serverPlace, environment: ProcessInfo.processInfo.environment,
                               stdout: reader.writeFD)
        reader.closeWriteEnd()
        defer {
            server.terminate()
            server.wait(timeout: 5)
        }
        guard let (line, _) = reader.next(timeout: 10), line.hasPrefix("listening "), let port = Int(line.dropFirst(10)) else {
            throw BenchError("the ping-pong server did not start")
        }
        let out = temporaryFile("pingpong.txt")
        let client = try spawn([program, "client", address, "\(port)", "\(moveFrameBytes)",
                                "\(answerFrameBytes)", "\(count)", "1000", out] + extra,
                               on: clientPlace, environment: ProcessInfo.processInfo.environment)
        let exit = client.wait(timeout: 60)
        guard exit.exitCode == 0 else { throw BenchError("the ping-pong client exited \(exit.exitCode)") }
        let values = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").compactMap { Double($0) }
        guard !values.isEmpty else { throw BenchError("the ping-pong client wrote no round trips") }
        return values
    }

    // MARK: 6: cold start

    func hyperfine(_ commands: [String], runs: Int, warmup: Int) throws -> [[Double]] {
        let out = temporaryFile("hyperfine.json")
        let result = try run(["hyperfine", "-N", "--style", "none", "--warmup", "\(warmup)", "--runs", "\(runs)",
                              "--export-json", out] + commands, timeout: 120)
        guard result.code == 0 else { throw BenchError("hyperfine failed: \(result.output.suffix(300))") }
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let results = object["results"] as? [[String: Any]] else { throw BenchError("hyperfine wrote no results") }
        return results.map { ($0["times"] as? [Double] ?? []).map { $0 * 1000 } }  // ms
    }

    // MARK: 7, 9: the TUI on a pty

    /// ptyframe's environment and the two programs: ours with no arguments, dialog with a menu of 5 items.
    var tuiMarker: String { "Quit" }
    var dialogCommand: [String] {
        ["dialog", "--menu", "TicTacToe", "15", "50", "5", "p", "Play against the computer", "h", "Host a game",
         "s", "Search for games", "a", "Join by address", "q", "Quit"]
    }

    func ptyframe(_ arguments: [String], environment: [String: String]) throws -> String {
        let result = try run(pin + ["\(anchorsDir)/ptyframe"] + arguments, environment: environment, timeout: 120)
        guard result.code == 0 else { throw BenchError("ptyframe \(arguments.prefix(5)): \(result.output.suffix(300))") }
        return result.output
    }

    // MARK: The lab

    /// The lock of the lab `lan` uses (`TICTACTOE_LAB`, default `lab`), which the lab tests and `lan`'s other users
    /// take too.
    func labLock() -> Bool {
        let lab = ProcessInfo.processInfo.environment["TICTACTOE_LAB"] ?? "lab"
        lockFD = open("/run/lock/tictactoe-\(lab).lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else { return false }
        let deadline = monotonicNS() + 90_000_000_000
        while flock(lockFD, LOCK_EX | LOCK_NB) != 0 {
            if monotonicNS() > deadline { return false }
            usleep(200_000)
        }
        return true
    }

    func labDown() {
        if labUp {
            _ = try? run([lan, "down"], timeout: 60)
            labUp = false
        }
        if lockFD >= 0 {
            flock(lockFD, LOCK_UN)
            close(lockFD)
            lockFD = -1
        }
    }

    /// Ctrl-C and SIGTERM clean up (the lab torn down, children stopped) before the driver exits 130 or 143.
    func cleanUpOnSignals() {
        cleanUpOnSignal = { [unowned self] in self.cleanUp() }
        signal(SIGINT) { _ in
            cleanUpOnSignal?()
            exit(130)
        }
        signal(SIGTERM) { _ in
            cleanUpOnSignal?()
            exit(143)
        }
    }

    func cleanUp() {
        for child in children where child.exit == nil {
            child.terminate()
            child.wait(timeout: 3)
        }
        labDown()
        for directory in temporaries { try? FileManager.default.removeItem(atPath: directory) }
        temporaries = []
    }

    /// A decision directory where local network access is granted (`tictactoe privacy grant`) for a lab host.
    func grantedEnvironment(_ place: String, bonjour: Bool = true) throws -> [String: String] {
        let environment = appEnvironment("lab-\(place)", bonjour: bonjour)
        let result = try run([lan, "exec", place, "--", bin, "privacy", "grant"], environment: environment, timeout: 30)
        guard result.code == 0 else { throw BenchError("privacy grant on \(place): \(result.output.suffix(300))") }
        return environment
    }
}

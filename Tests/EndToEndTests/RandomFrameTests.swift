import Foundation
import GameProtocol
import GameRules
import GameWire
import NIOCore
import XCTest
import TicTacToeTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Seeded random frames against real processes over loopback: a raw peer sends them to a running `tictactoe host`,
/// connection after connection, and a fake host sends them to `tictactoe join` processes, run after run. No crash (no
/// exit by a signal), no hang (every connection and every process ends within its own deadline, a generous one used
/// only to detect a hang), and the host still plays a real joiner afterwards. The counts are printed.
final class RandomFrameTests: ProcessTestCase {
    static let hostConnections = 300
    static let joinerRuns = 60
    /// Hang detectors, not speed limits: a connection or a joiner that is still going after this long hangs.
    static let connectionDeadline: TimeInterval = 20
    static let joinerDeadline: TimeInterval = 30

    /// How a joiner may end against a host that sends nonsense: completed (by chance), the opponent left, refused,
    /// unreachable (told "busy" until --connect-timeout), timed out, protocol error. Never 12: local network access
    /// has nothing to do with a peer on loopback.
    static let joinerExits: Set<Int32> = [0, 3, 4, 5, 6, 7]


    func testRandomFramesAgainstARunningHost() throws {
        // Protocol 1 (--plaintext, allowed on loopback): the random frames reach the game's frame decoder and match
        // session directly; protocol 2 carries the very same frames inside TLS, whose first bytes the sniffer checks.
        let (host, port) = try startHost(["--plaintext", "--matches", "0", "--games", "1"])
        processes.append(host)
        var random = SplitMix64(seed: 0xF2A3_E5)
        var answers: [String: Int] = [:]
        var framesSent = 0
        var hangs: [String] = []
        var matches = 0
        for index in 0..<Self.hostConnections {
            let (opening, rest) = RandomFrameMaker.stream(opening: .joiner, using: &random)
            framesSent += opening.count + rest.count
            let socket = try RandomFrameSocket(connectingTo: port)
            // The hello alone first, and its answer awaited, so that the rest reaches the match.
            var received: [UInt8] = []
            if !opening.isEmpty {
                socket.sendIgnoringErrors(opening.flatMap { $0 })
                received = socket.read(deadline: Self.connectionDeadline) { messages in
                    messages.contains {
                        switch $0 {
                        case .accept, .reject: return true
                        default: return false
                        }
                    }
                }
            }
            socket.sendIgnoringErrors(rest.flatMap { $0 })
            socket.shutdownWrite()
            switch socket.readUntilClosed(deadline: Self.connectionDeadline) {
            case .closed(let bytes):
                for answer in RandomFrameMaker.describe(received + bytes) { answers[answer, default: 0] += 1 }
            case .hung(let bytes):
                hangs.append("connection \(index): still open after \(Self.connectionDeadline) s, \(bytes.count) bytes")
            }
            // A connection that got into a match: the host says it listens again once it is free for the next.
            if RandomFrameMaker.describe(received).contains("accept") {
                matches += 1
                if !host.waitForEventCount("listening", matches + 1, timeout: Self.connectionDeadline) {
                    hangs.append("connection \(index): the host was not free again after \(Self.connectionDeadline) s")
                }
            }
            if let ended = host.termination {
                return XCTFail("the host ended after connection \(index) (\(ended)): "
                               + host.standardError)
            }
        }
        XCTAssertEqual(hangs, [])
        XCTAssertGreaterThan(matches, 0, "no random opening got into a match: the frames never reached the session")
        // A real joiner still plays a whole game.
        let joiner = try TicTacToeProcess(
            ["join", "127.0.0.1:\(port)", "--plaintext", "--headless", "--json", "--seed", "1"])
        processes.append(joiner)
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, joiner.standardError)
        XCTAssertEqual(joiner.events(named: "summary").last?["games"] as? Int, 1)
        XCTAssertTrue(host.isRunning, "the host keeps serving (--matches 0)")
        host.signal(SIGTERM)
        XCTAssertEqual(host.waitForExit(timeout: 20), 143, host.standardError)
        XCTAssertEqual(host.termination, .exit(143))
        print("random frames against a host: \(Self.hostConnections) connections (\(matches) got into a match), "
              + "\(framesSent) frames sent, "
              + "0 crashes, \(hangs.count) hangs; the host answered \(answers.sorted { $0.key < $1.key }); "
              + "a real joiner then played a game")
    }

    func testRandomFramesAgainstJoiners() throws {
        var random = SplitMix64(seed: 0x10_1AE5)
        var exits: [Int32: Int] = [:]
        var framesSent = 0
        for run in 0..<Self.joinerRuns {
            // A listener of its own for each run: a joiner that retries (told "busy") leaves nothing for the next.
            let listener = try RandomFrameListener()
            let joiner = try TicTacToeProcess(
                ["join", "127.0.0.1:\(listener.port)", "--plaintext", "--headless", "--json", "--connect-timeout", "2",
                 "--seed", "\(run)"])
            processes.append(joiner)
            let socket = try XCTUnwrap(listener.accept(deadline: Self.joinerDeadline), "joiner \(run) never connected")
            let (opening, rest) = RandomFrameMaker.stream(opening: .host, using: &random)
            framesSent += opening.count + rest.count
            // Its hello, then our accept (and start), and its first move, before the rest: it reaches the match.
            _ = socket.read(deadline: Self.joinerDeadline) { !$0.isEmpty }
            if !opening.isEmpty {
                socket.sendIgnoringErrors(opening.flatMap { $0 })
                if opening.count > 1 {  // with the start of game 1 (the joiner is X: it moves first)
                    _ = socket.read(deadline: 1) { messages in
                        messages.contains { if case .move = $0 { return true }; return false }
                    }
                }
            }
            socket.sendIgnoringErrors(rest.flatMap { $0 })
            socket.shutdownWrite()
            if case .hung = socket.readUntilClosed(deadline: Self.joinerDeadline) {
                XCTFail("joiner \(run) kept the connection open for \(Self.joinerDeadline) s after our end closed")
            }
            socket.close()
            guard let status = joiner.waitForExit(timeout: Self.joinerDeadline) else {
                return XCTFail("joiner \(run) hangs: \(joiner.output) \(joiner.standardError)")
            }
            XCTAssertEqual(joiner.termination, .exit(status),
                           "joiner \(run) ended by signal \(status): \(joiner.standardError)")
            XCTAssertTrue(Self.joinerExits.contains(status), "joiner \(run): exit \(status): \(joiner.output)")
            XCTAssertEqual(joiner.events(named: "error").count + joiner.events(named: "summary").count >= 1, true,
                           "joiner \(run) ended without a word: \(joiner.output)")
            exits[status, default: 0] += 1
        }
        print("random frames against joiners: \(Self.joinerRuns) runs, \(framesSent) frames sent, 0 crashes, 0 hangs; "
              + "exit codes \(exits.sorted { $0.key < $1.key })")
    }
}

/// Seeded random frames: valid messages with random fields, valid lengths around random bodies, bad headers, raw
/// bytes; a stream opens with the right handshake most of the time, so that the rest reaches the match.
enum RandomFrameMaker {
    enum Side { case joiner, host }

    /// A handshake most of the time (the joiner's hello; the host's accept, often with the start of game 1), and
    /// 0-12 frames of anything.
    static func stream(opening side: Side, using random: inout SplitMix64) -> (opening: [[UInt8]], rest: [[UInt8]]) {
        var opening: [[UInt8]] = []
        if Int.random(in: 0..<10, using: &random) < 7 {
            switch side {
            case .joiner:
                opening.append(frame(.hello(version: 1, name: name(using: &random))))
            case .host:
                opening.append(frame(.accept(version: 1, name: name(using: &random))))
                if Int.random(in: 0..<4, using: &random) > 0 {
                    opening.append(frame(.start(game: 1, joinerMark: .x, firstMover: .x)))
                }
            }
        }
        let rest = (0..<Int.random(in: 0...12, using: &random)).map { _ in anyFrame(using: &random) }
        return (opening, rest)
    }

    static func anyFrame(using random: inout SplitMix64) -> [UInt8] {
        switch Int.random(in: 0..<10, using: &random) {
        case 0...5:
            return frame(message(using: &random))
        case 6, 7:
            let body = bytes(Int.random(in: 1...40, using: &random), using: &random)
            return [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        case 8:
            let length = [0, 513, 0x7FFF, 0xFFFF].randomElement(using: &random)!
            let body = bytes(Int.random(in: 0...8, using: &random), using: &random)
            return [UInt8(length >> 8), UInt8(length & 0xFF)] + body
        default:
            return bytes(Int.random(in: 1...64, using: &random), using: &random)
        }
    }

    static func message(using random: inout SplitMix64) -> GameMessage {
        switch GameMessage.Kind.allCases.randomElement(using: &random)! {
        case .hello: return .hello(version: version(using: &random), name: name(using: &random))
        case .accept: return .accept(version: version(using: &random), name: name(using: &random))
        case .reject: return .reject(reason: RejectReason(rawValue: UInt8.random(in: 0...5, using: &random)),
                                     text: name(using: &random))
        case .start:
            return .start(
                game: UInt16.random(in: 0...3, using: &random), joinerMark: Bool.random(using: &random) ? .x : .o,
                firstMover: Bool.random(using: &random) ? .x : .o)
        case .move: return .move(cell: UInt8.random(in: 0...10, using: &random))
        case .resign: return .resign
        case .rematchOffer: return .rematchOffer
        case .rematchAccept: return .rematchAccept
        case .rematchDecline: return .rematchDecline
        case .watch:
            return .watch(WatchedMatch(
                hostName: name(using: &random), joinerName: name(using: &random),
                game: UInt16.random(in: 0...3, using: &random), hostMark: Bool.random(using: &random) ? .x : .o,
                firstMover: .x, phase: .playing))
        case .ping: return .ping(random.next())
        case .pong: return .pong(random.next())
        case .bye: return .bye(ByeReason(rawValue: UInt8.random(in: 0...3, using: &random)))
        case .error: return .error(code: ProtocolErrorCode(rawValue: UInt16.random(in: 0...25, using: &random)),
                                   text: name(using: &random))
        }
    }

    private static func version(using random: inout SplitMix64) -> UInt8 {
        Int.random(in: 0..<4, using: &random) == 0 ? UInt8.random(in: 0...255, using: &random) : 1
    }

    /// Names and texts, hostile ones included: control characters, escapes, bidirectional overrides, long ones.
    private static func name(using random: inout SplitMix64) -> String {
        let pieces = ["Ann", "Zoë", "🎲", "\u{1B}[2J", "\u{1B}]0;title\u{07}", "\u{202E}", "\u{85}", "\u{7F}", "\n",
                      "\r", "\t", "\0", "%s%n", "'\"", String(repeating: "x", count: 200)]
        return (0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    private static func bytes(_ count: Int, using random: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    static func frame(_ message: GameMessage) -> [UInt8] {
        var buffer = ByteBuffer()
        buffer.writeGameMessage(message)
        return Array(buffer.readableBytesView)
    }

    /// What a peer answered, frame by frame ("error bad-frame-length", "accept", …; "unparsed" for the rest).
    static func describe(_ bytes: [UInt8]) -> [String] {
        var buffer = ByteBuffer(bytes: bytes)
        var decoder = GameMessageDecoder()
        var answers: [String] = []
        while let message = try? decoder.decode(buffer: &buffer) {
            switch message {
            case .error(let code, _): answers.append("error \(code)")
            case .reject(let reason, _): answers.append("reject \(reason)")
            case .ping, .pong: continue
            default: answers.append("\(message.kind)")
            }
        }
        if buffer.readableBytes > 0 { answers.append("unparsed") }
        if answers.isEmpty { answers.append("closed without a word") }
        return answers
    }
}

/// A TCP socket on loopback, driven by hand: sends whatever it is given, reads until the peer closes.
final class RandomFrameSocket {
    private var fd: Int32

    init(fd: Int32) { self.fd = fd }

    convenience init(connectingTo port: Int) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        self.init(fd: fd)
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Sends what it can: the peer may close in the middle (it refused the first frame), which is not an error here.
    func sendIgnoringErrors(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }

    func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

    enum ReadResult { case closed([UInt8]), hung([UInt8]) }

    /// Reads until the frames received satisfy `enough`, the peer closes, or `deadline` seconds pass; returns the
    /// bytes (pings are not answered: a silent peer is part of the test).
    func read(deadline: TimeInterval, until enough: ([GameMessage]) -> Bool) -> [UInt8] {
        let end = Date().addingTimeInterval(deadline)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while end.timeIntervalSinceNow > 0 {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(end.timeIntervalSinceNow, 0.2) * 1000))
            if ready <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += chunk[0..<count]
            var buffer = ByteBuffer(bytes: received)
            var decoder = GameMessageDecoder()
            var messages: [GameMessage] = []
            while let message = try? decoder.decode(buffer: &buffer) { messages.append(message) }
            if enough(messages) { break }
        }
        return received
    }

    /// Everything the peer sends until it closes (or resets); `.hung` if it is still open after `deadline` seconds.
    func readUntilClosed(deadline: TimeInterval) -> ReadResult {
        let end = Date().addingTimeInterval(deadline)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = end.timeIntervalSinceNow
            if left <= 0 { return .hung(received) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000))
            if ready < 0 && errno != EINTR { return .closed(received) }
            if ready <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return .closed(received) }  // EOF, or a reset
            received += chunk[0..<count]
        }
    }
}

/// A fake host: a listening TCP socket on 127.0.0.1 with a system-chosen port.
final class RandomFrameListener {
    private let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            Glibc.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: actual.sin_port))
    }

    deinit { Glibc.close(fd) }

    /// The next connection, or nil when none came within `deadline` seconds.
    func accept(deadline: TimeInterval) -> RandomFrameSocket? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(deadline * 1000)) == 1 else { return nil }
        let client = Glibc.accept(fd, nil, nil)
        return client >= 0 ? RandomFrameSocket(fd: client) : nil
    }
}

private func loopbackAddress(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}

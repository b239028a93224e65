import Foundation
import TicTacToeTestSupport
import XCTest


/// A running `tictactoe` process whose stdout lines (and stderr text) are collected as they arrive.
final class TicTacToeProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSCondition()
    private var lines: [String] = []
    private var partial = Data()
    private var errorText = Data()
    private var stdoutClosed = false
    private let stdinPipe = Pipe()
    let arguments: [String]

    init(_ arguments: [String], environment extra: [String: String] = [:]) throws {
        self.arguments = arguments
        process.executableURL = URL(fileURLWithPath: tictactoeBinary)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = NSTemporaryDirectory() + "tictactoe-e2e-state"
        // Loopback tests run in the machine's own network namespace: no Bonjour here, ever (the LAN lab has it).
        environment["LANGUAGE"] = "en"  // English whatever the tests' own locale (a test asks for another)
        environment["TICTACTOE_BONJOUR"] = "off"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdinPipe
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.receive(data)
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            self.errorText.append(data)
            self.lock.unlock()
        }
        try process.run()
    }

    private func receive(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        if data.isEmpty {
            stdoutClosed = true
            if !partial.isEmpty { lines.append(String(decoding: partial, as: UTF8.self)) }
            partial = Data()
        } else {
            partial.append(data)
            while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                partial = Data(partial[partial.index(after: newline)...])
            }
        }
        lock.broadcast()
    }

    var output: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    var standardError: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: errorText, as: UTF8.self)
    }

    /// JSON objects printed so far (lines that parse as objects).
    var events: [[String: Any]] {
        output.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    func events(named name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }

    /// Waits until a line satisfies `predicate`; returns it, or nil after `timeout` seconds or at end of output.
    @discardableResult
    func waitForLine(timeout: TimeInterval = 30, _ predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        var checked = 0
        while true {
            while checked < lines.count {
                if predicate(lines[checked]) { return lines[checked] }
                checked += 1
            }
            if stdoutClosed { return nil }
            if !lock.wait(until: deadline) { return nil }
        }
    }

    /// Waits for a JSON event with this name (and matching `where`), returning it.
    @discardableResult
    func waitForEvent(_ name: String, timeout: TimeInterval = 30, where match: ([String: Any]) -> Bool = { _ in true })
        -> [String: Any]?
    {
        guard let line = waitForLine(timeout: timeout, { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
                return false
            }
            return object["event"] as? String == name && match(object)
        }) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Waits until at least `count` events with this name have been printed.
    func waitForEventCount(_ name: String, _ count: Int, timeout: TimeInterval = 30) -> Bool {
        var seen = 0
        return waitForLine(timeout: timeout) { line in
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  object["event"] as? String == name
            else { return false }
            seen += 1
            return seen >= count
        } != nil
    }

    /// Waits for the process to exit; returns its status, or nil if it was still running after `timeout` seconds.
    func waitForExit(timeout: TimeInterval = 60) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { return nil }
            usleep(20_000)
        }
        process.waitUntilExit()
        // The pipe may still hold the last lines: wait until its end has been read.
        lock.lock()
        let drained = Date().addingTimeInterval(5)
        while !stdoutClosed && lock.wait(until: drained) {}
        lock.unlock()
        return process.terminationStatus
    }

    func signal(_ number: Int32) {
        if process.isRunning { kill(process.processIdentifier, number) }
    }

    /// Ends the process (SIGKILL) if it still runs: for test teardown.
    func terminate() {
        if process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// Writes `text` to the process's standard input (and closes it when `close` is true).
    func writeInput(_ text: String, close: Bool = true) {
        stdinPipe.fileHandleForWriting.write(Data(text.utf8))
        if close { try? stdinPipe.fileHandleForWriting.close() }
    }
}

/// Starts a headless host on loopback with an OS-chosen port and returns it with the port it listens on. Hosts here
/// run in the machine's own network namespace: `--no-advertise` keeps them away from Bonjour (mDNS runs only in the
/// LAN lab, Tests/lab/lan).
func startHost(_ extra: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (TicTacToeProcess, Int) {
    let host = try TicTacToeProcess(["host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--port", "0",
                                     "--json"] + extra)
    guard let listening = host.waitForEvent("listening"), let port = listening["port"] as? Int else {
        host.terminate()
        XCTFail("host did not start listening; stderr: \(host.standardError)", file: file, line: line)
        throw XCTSkip("no host")
    }
    return (host, port)
}

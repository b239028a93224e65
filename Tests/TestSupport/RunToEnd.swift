import Foundation

/// A program that still ran after the time `runToEnd` gave it (it was killed).
public struct StillRunning: Error, CustomStringConvertible {
    public var command: [String]
    public var output: String
    public var description: String { "\(command.joined(separator: " ")) still ran after its time: \(output)" }
}

/// Runs `program` to its end with standard input from /dev/null, in `directory` if given, with this process's
/// environment less `removing` plus `extra`: its exit status and what it printed (standard output, and standard error
/// with it unless `errors` is false). Throws `StillRunning` after `timeout` seconds.
public func runToEnd(
    _ program: String, _ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:],
    removing: [String] = [], errors: Bool = true, timeout: TimeInterval = 600
) throws -> (status: Int32, output: String) {
    var environment = ProcessInfo.processInfo.environment
    for key in removing { environment[key] = nil }
    for (key, value) in extra { environment[key] = value }
    let process = try ChildProcess(
        executable: program, arguments, environment: environment, directory: directory, input: .null,
        errors: errors ? .merged : .separate)
    guard let status = process.waitForExit(timeout: timeout) else {
        process.terminate()
        throw StillRunning(command: [program] + arguments, output: process.standardOutput)
    }
    return (status, process.standardOutput)
}

/// Runs a program with /dev/null for its standard streams and waits for its exit only: a daemon it leaves behind
/// (a tmux server) may keep any descriptor it inherited.
public func spawnQuietly(_ arguments: [String], timeout: TimeInterval = 60) throws {
    let process = try ChildProcess(
        executable: arguments[0], Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
        input: .null, output: .file("/dev/null"), errors: .merged)
    guard process.waitForExit(timeout: timeout) != nil else {
        process.terminate()
        throw StillRunning(command: arguments, output: "")
    }
}

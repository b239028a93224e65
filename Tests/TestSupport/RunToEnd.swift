import Foundation

/// Runs `program` to its end with standard input from /dev/null, in `directory` if given, with this process's
/// environment less `removing` plus `extra`: its exit status and what it printed (standard output, and standard error
/// with it unless `errors` is false).
public func runToEnd(
    _ program: String, _ arguments: [String], in directory: String? = nil, environment extra: [String: String] = [:],
    removing: [String] = [], errors: Bool = true
) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    var environment = ProcessInfo.processInfo.environment
    for key in removing { environment[key] = nil }
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errors ? output : FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

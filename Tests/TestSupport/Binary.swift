import Foundation
import Synchronization

/// The built `tictactoe` binary: $TICTACTOE_BIN, or the products directory the running test bundle lives in.
public let tictactoeBinary: String = {
    if let path = ProcessInfo.processInfo.environment["TICTACTOE_BIN"], !path.isEmpty { return path }
    let products = Bundle.main.bundleURL.path.hasSuffix(".xctest")
        ? Bundle.main.bundleURL.deletingLastPathComponent().path : Bundle.main.bundleURL.path
    return products + "/tictactoe"
}()

/// Runs a program with /dev/null for its standard streams and waits for it (posix_spawn + waitpid: Foundation's
/// `Process.waitUntilExit` would also wait for descriptors a daemonised child — a tmux server — inherits).
public func spawnQuietly(_ arguments: [String]) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ)
    guard result == 0 else { throw NSError(domain: NSPOSIXErrorDomain, code: Int(result)) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
}

/// A thread-safe list of things that happened (events, states, errors) for a test to look at.
public final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    public init() {}

    public func append(_ item: Element) {
        items.withLock { $0.append(item) }
    }

    public var all: [Element] { items.withLock { $0 } }
}

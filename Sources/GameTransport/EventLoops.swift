import NIOCore
import NIOPosix
import Synchronization

/// The event loops every listener and connection runs on by default, for less memory and a faster start: SwiftNIO's
/// shared group, set to one loop when it is first needed. SwiftNIO starts a loop per core; a host carries one match,
/// its spectators and whoever knocks, and a joiner one connection, which one loop does with room to spare (the code
/// on it never blocks: name lookups go to NIO's thread pool). A second loop would be an idle thread with its own stack
/// and malloc arena, and working out the core count reads the cgroup's CPU files.
///
/// The setting is made at the group's first use, not at start: the full-screen game may never touch the network, and
/// making it (SwiftNIO's atomics instantiated, their conformances looked up) would delay its first frame.
/// `tictactoe match --over --concurrency N` plays several network games at once in one process: it asks for a loop
/// per core first (`SeriesRunner`).
public enum EventLoops {
    /// Whether a loop per core was asked for; whether the number was settled (by the first `group`).
    private static let state = Mutex<(perCore: Bool, settled: Bool)>((perCore: false, settled: false))

    /// The shared group, its number of loops settled: the default `group` of `GameListener`, `GameConnection` and
    /// `ConnectionGroup` (LobbyMulticast).
    public static var group: any EventLoopGroup {
        state.withLock { state in
            guard !state.settled else { return }
            state.settled = true
            // Inside the lock: no other thread reaches the group before the number is set.
            if !state.perCore { NIOSingletons.groupLoopCountSuggestion = 1 }
        }
        return MultiThreadedEventLoopGroup.singleton
    }

    /// Asks for SwiftNIO's default, a loop per core. Takes effect only before the group's first use (SwiftNIO settles
    /// the number once); returns whether it did.
    @discardableResult
    public static func usePerCore() -> Bool {
        state.withLock { state in
            guard !state.settled else { return false }
            state.perCore = true
            return true
        }
    }
}

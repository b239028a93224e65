import NIOCore

/// How many event loops the process runs (issue 15, memory): one. SwiftNIO's shared group (the default of every
/// listener and connection here) starts a loop per core; a host carries one match, its spectators and whoever knocks,
/// and a joiner one connection, which one loop does with room to spare (the code on it never blocks: name lookups
/// go to NIO's thread pool). The second loop was an idle thread with its own stack and malloc arena, and working out
/// the core count read the cgroup's CPU files at every start. Not for `tictactoe match`, which can play several
/// network games at once in one process (`--over`, `--concurrency`): it keeps a loop per core.
public enum EventLoops {
    /// Sets the shared group to one loop. Called by `main` once it knows the command, before anything uses the
    /// group: SwiftNIO takes the number only before the group's first use, and only once.
    public static func useOne() {
        NIOSingletons.groupLoopCountSuggestion = 1
    }
}

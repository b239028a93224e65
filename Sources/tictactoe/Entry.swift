#if canImport(Glibc)
import Glibc
#endif

/// The executable's entry point. Before anything else, SIGPIPE is ignored: a reader that goes away (`| head -n 2`)
/// must not kill a host in the middle of a match. Writes to a closed pipe then fail with EPIPE, which `CheckedOutput`
/// turns into exit code 74 after the peer was told goodbye.
@main
enum Entry {
    static func main() async {
        signal(SIGPIPE, SIG_IGN)
        await TicTacToe.main()
    }
}

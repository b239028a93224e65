import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// The one way the app catches signals: each of `signals` is taken from its default action (ignored, so that it
/// neither kills the process nor interrupts a system call) and handed to `handler`, one at a time, on a queue of its
/// own. The initializer returns once dispatch has registered every source: until then a signal would meet the ignored
/// disposition and be lost, so one sent at once is caught. The signals are caught while this value lives.
public final class SignalCatcher {
    private let sources: [any DispatchSourceSignal]

    public init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        let queue = DispatchQueue(label: "tictactoe.signals")
        let registered = DispatchGroup()
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            return source
        }
        registered.wait()
    }

    deinit {
        for source in sources { source.cancel() }
    }
}

import EngineProtocol
import Synchronization

/// What the engine's output reader and the timers hand to the one task waiting for an answer.
enum MailboxEvent: Sendable, Equatable {
    case line(String)
    /// End of output: the process exited (`exited`), or it closed its standard output and still runs.
    case ended(exited: Bool)
    /// Output that cannot be read as lines (too long, not UTF-8).
    case unreadable(EngineProtocolError)
    /// The timer of exchange `generation` went off.
    case timedOut(generation: Int)
    /// The waiting task was cancelled.
    case cancelled
}

/// A queue of events with at most one waiter: the reader thread and timers post, the engine's actor takes.
final class LineMailbox: Sendable {
    private struct State {
        var events: [MailboxEvent] = []
        var head = 0
        var waiter: CheckedContinuation<MailboxEvent, Never>?
        var lines = EngineLineBuffer()
        var finished = false
    }

    private let state = Mutex(State())

    /// From the reader thread: bytes read from the engine's standard output.
    func deliver(_ bytes: UnsafeRawBufferPointer) {
        let lines = state.withLock { state -> Result<[String], EngineProtocolError> in
            do throws(EngineProtocolError) {
                return .success(try state.lines.append(bytes))
            } catch {
                return .failure(error)
            }
        }
        switch lines {
        case .success(let lines): for line in lines { post(.line(line)) }
        case .failure(let error): post(.unreadable(error))
        }
    }

    /// Posts `event`: it wakes the waiter or waits in the queue. Nothing is posted after `.ended` or `.unreadable`
    /// but timer events.
    func post(_ event: MailboxEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<MailboxEvent, Never>? in
            switch event {
            case .ended, .unreadable:
                if state.finished { return nil }
                state.finished = true
            case .line:
                if state.finished { return nil }
            case .timedOut, .cancelled:
                break
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.events.append(event)
            return nil
        }
        waiter?.resume(returning: event)
    }

    /// The next event; `.cancelled` if the calling task is (or gets) cancelled while waiting.
    func next() async -> MailboxEvent {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<MailboxEvent, Never>) in
                let ready = state.withLock { state -> MailboxEvent? in
                    if state.head < state.events.count {
                        let event = state.events[state.head]
                        state.head += 1
                        if state.head == state.events.count {
                            state.events.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        return event
                    }
                    if Task.isCancelled { return .cancelled }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<MailboxEvent, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: .cancelled)
        }
    }
}

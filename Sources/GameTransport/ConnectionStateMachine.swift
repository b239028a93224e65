import GameProtocol

/// The pure state machine behind `GameConnection`: each input returns the action the connection carries out.
///
/// Retries while the peer is unreachable, or the host answers busy, use exponential backoff (0.25 s doubling to 2 s);
/// once the connect deadline has passed, the next failure (or busy) is final.
public struct ConnectionStateMachine: Sendable {
    public enum Input: Sendable, Hashable {
        case start
        /// The gate says the connection must wait (e.g. no local network permission yet).
        case gateWaiting(String)
        case gateAllowed
        /// The gate refuses for good (no app manifest, a decision that cannot be watched): waiting would not help.
        case gateRefused(String)
        case connectFailed(String, deadlinePassed: Bool)
        case connectTimedOut
        case handshakeSucceeded(peerName: String)
        case handshakeFailed(ConnectionError)
        /// The host answered `reject(busy)` with `text`.
        case hostBusy(String, deadlinePassed: Bool)
        case retryTimerFired
        case cancel
        /// The established connection ended; `error` is nil for a normal end.
        case closed(ConnectionError?)
    }

    public enum Action: Sendable, Hashable {
        case none
        case checkGate
        case connect
        case scheduleRetry(after: Duration)
        case tearDown
    }

    public private(set) var state: ConnectionState = .setup
    private var attempts = 0

    public static let firstRetryDelay = Duration.milliseconds(250)
    public static let maximumRetryDelay = Duration.seconds(2)

    public init() {}

    public mutating func handle(_ input: Input) -> Action {
        switch (state, input) {
        case (.setup, .start):
            state = .preparing
            return .checkGate
        case (.preparing, .gateWaiting(let why)), (.waiting(.notAllowed), .gateWaiting(let why)):
            state = .waiting(.notAllowed(why))
            return .none
        case (.preparing, .gateAllowed), (.waiting(.notAllowed), .gateAllowed):
            state = .preparing
            return .connect
        case (.preparing, .gateRefused(let why)), (.waiting(.notAllowed), .gateRefused(let why)):
            state = .failed(.localNetworkRefused(why))
            return .tearDown
        case (.preparing, .connectFailed(let why, let deadlinePassed)):
            if deadlinePassed {
                state = .failed(.unreachable(why))
                return .tearDown
            }
            let delay = nextRetryDelay()
            state = .waiting(.peerUnreachable(why, retryIn: delay))
            return .scheduleRetry(after: delay)
        case (.preparing, .hostBusy(let text, let deadlinePassed)):
            if deadlinePassed {
                state = .failed(.rejected(reason: RejectReason.busy.description, text: text))
                return .tearDown
            }
            let delay = nextRetryDelay()
            state = .waiting(.hostBusy(text: text, retryIn: delay))
            return .scheduleRetry(after: delay)
        case (.preparing, .connectTimedOut), (.waiting, .connectTimedOut):
            if case .waiting(.peerUnreachable(let why, _)) = state {
                state = .failed(.unreachable(why))
            } else if case .waiting(.hostBusy(let text, _)) = state {
                state = .failed(.rejected(reason: RejectReason.busy.description, text: text))
            } else if case .waiting(.notAllowed(let why)) = state {
                state = .failed(.timedOut("still waiting: \(why)"))
            } else {
                state = .failed(.timedOut("no connection or handshake within the connect timeout"))
            }
            return .tearDown
        case (.waiting(.peerUnreachable), .retryTimerFired), (.waiting(.hostBusy), .retryTimerFired):
            state = .preparing
            return .checkGate
        case (.preparing, .handshakeSucceeded(let name)):
            state = .ready(peerName: name)
            return .none
        case (.preparing, .handshakeFailed(let error)):
            state = .failed(error)
            return .tearDown
        case (.ready, .closed(nil)):
            state = .cancelled
            return .tearDown
        case (.ready, .closed(let error?)):
            state = .failed(error)
            return .tearDown
        case (let current, .cancel) where !current.isFinal:
            state = .cancelled
            return .tearDown
        default:
            // Late events (a timer firing after cancel, a second close) change nothing.
            return .none
        }
    }

    /// 0.25, 0.5, 1, 2, 2, … seconds: one more attempt waited for.
    private mutating func nextRetryDelay() -> Duration {
        defer { attempts += 1 }
        return min(Self.firstRetryDelay * (1 << min(attempts, 8)), Self.maximumRetryDelay)
    }
}

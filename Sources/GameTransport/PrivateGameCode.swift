import GamePairing
import NIOCore
import Synchronization
import PairingCode

/// A private game's code as the host holds it: the code joiners must type, which the listener replaces after wrong
/// codes (`PairingAttempts`), and the limits it enforces. One listener serves one `PrivateGameCode`.
///
/// `current` is what every new connection's exchange uses (`SecureHost.privateGame`) and what the app shows; the
/// listener's `codeReplaced` event carries each new code too. The code is a secret: `GameCode` redacts itself in
/// descriptions and logs, so printing an event never shows it (the app shows `revealed` on the host's own screen).
public final class PrivateGameCode: Sendable {
    /// The limits on pairing attempts (`PairingAttempts`'s defaults: one attempt a second per address, three wrong
    /// codes in a row replace the code, 3 s cool-down after a replacement).
    public let limits: PairingAttempts<ListenerInstant>.Configuration
    private let code: Mutex<GameCode>

    public init(
        _ code: GameCode, limits: PairingAttempts<ListenerInstant>.Configuration = .init()
    ) {
        self.code = Mutex(code)
        self.limits = limits
    }

    /// The code a joiner must use now.
    public var current: GameCode { code.withLock { $0 } }

    func replace(with new: GameCode) { code.withLock { $0 = new } }
}

/// A moment on a private game's listener clock: how long that clock has run since the listener's gate was made. The
/// attempt limits count in these, so that they run on the one clock the app hands down (a test's `ManualClock` too).
public struct ListenerInstant: InstantProtocol, Sendable {
    public var sinceStart: Duration

    public init(sinceStart: Duration) { self.sinceStart = sinceStart }

    public func advanced(by duration: Duration) -> ListenerInstant { ListenerInstant(sinceStart: sinceStart + duration) }
    public func duration(to other: ListenerInstant) -> Duration { other.sinceStart - sinceStart }
    public static func < (lhs: ListenerInstant, rhs: ListenerInstant) -> Bool { lhs.sinceStart < rhs.sinceStart }
}

extension SecureHost {
    /// A private game: CPace on `code.current` for every connection, with the attempt limits enforced by the
    /// listener (`GameListener` admits or refuses each connection before any TLS byte, counts wrong codes and
    /// replaces the code). Open games (`pairing(code: .open)`) have no such limits: their code is public, so there is
    /// nothing to guess and nothing to replace.
    public static func privateGame(
        _ code: PrivateGameCode,
        onFailure: @escaping @Sendable (_ remote: String, _ error: SecureChannelError) -> Void = { _, _ in }
    ) -> SecureHost {
        var host = SecureHost(makeExchange: { try PairedHostExchange(code: code.current) }, onFailure: onFailure)
        host.privateGame = code
        return host
    }
}

/// The listener's side of `PairingAttempts` for a private game: the policy (a value) and the channels of the attempts
/// under way, behind one lock.
///
/// A `Mutex`, not an actor: admission runs inside the listener's child channel initializer, synchronously on the
/// connection's event loop, before any handler is added, so that a refused connection is closed without a single
/// TLS byte (an actor hop would let the TLS handler answer the ClientHello first). Every call is short and never
/// suspends; the lock is held only around the policy's pure calls and the dictionary of channels.
final class PairingGate: Sendable {
    typealias Policy = PairingAttempts<ListenerInstant>
    typealias Attempt = Policy.Attempt

    enum Admission {
        case proceed(Attempt)
        case refused(retryAfter: Duration, reason: String)
    }

    private struct State {
        var policy: Policy
        var channels: [Attempt: Channel] = [:]
    }

    private let code: PrivateGameCode
    private let state: Mutex<State>
    /// Now on the listener's clock, as an instant of the policy.
    private let now: @Sendable () -> ListenerInstant

    init(code: PrivateGameCode, clock: any Clock<Duration>) {
        self.code = code
        self.state = Mutex(State(policy: Policy(configuration: code.limits)))
        self.now = Self.instants(clock)
    }

    private static func instants<C: Clock>(_ clock: C) -> @Sendable () -> ListenerInstant
    where C.Duration == Duration {
        let elapsed = clock.stopwatch()
        return { ListenerInstant(sinceStart: elapsed()) }
    }

    /// The source of a connection: its IP address (an address NIO cannot give counts as 0.0.0.0, a shared source,
    /// which only makes the limit stricter).
    static func source(of channel: Channel) -> AttemptSource {
        channel.remoteAddress?.ipAddress.flatMap(AttemptSource.init(ipAddress:)) ?? AttemptSource(ipv4: (0, 0, 0, 0))
    }

    /// Whether `channel`'s handshake may start now; an admitted channel is remembered until `record`.
    func admit(_ channel: Channel) -> Admission {
        let source = Self.source(of: channel)
        let instant = now()
        return state.withLock { state in
            switch state.policy.admit(source, at: instant) {
            case .proceed(let attempt):
                state.channels[attempt] = channel
                return .proceed(attempt)
            case .tooSoon(let retryAfter, let refusal):
                return .refused(retryAfter: retryAfter, reason: refusal.description)
            }
        }
    }

    /// What `record` tells the listener to report, in order.
    enum Report {
        case wrongCodeCounted(source: AttemptSource, inARow: Int, fromSource: Int)
        case codeReplaced(GameCode, reason: String)
        case wrongCodesForgiven
    }

    /// Records how `attempt`'s handshake ended and carries out the policy's actions: a replacement installs a fresh
    /// code (`GameCode.random()`), abandoned attempts' channels are closed. Returns what to report, and whether
    /// `attempt` itself was abandoned (it ran on a replaced code: its connection is closed).
    func record(_ attempt: Attempt, _ outcome: Policy.Outcome) -> (reports: [Report], abandoned: Bool) {
        let instant = now()
        let (reports, closing, abandoned) = state.withLock { state -> ([Report], [Channel], Bool) in
            state.channels.removeValue(forKey: attempt)
            var reports: [Report] = []
            var closing: [Channel] = []
            var abandoned = false
            for action in state.policy.record(attempt, outcome, at: instant) {
                switch action {
                case .announceFailure(let source, let inARow, let fromSource):
                    reports.append(.wrongCodeCounted(source: source, inARow: inARow, fromSource: fromSource))
                case .replaceCode(let reason):
                    let fresh = GameCode.random()
                    code.replace(with: fresh)
                    reports.append(.codeReplaced(fresh, reason: reason.description))
                case .abandon(let stale):
                    if stale == attempt { abandoned = true }
                    if let channel = state.channels.removeValue(forKey: stale) { closing.append(channel) }
                case .resetStreak:
                    reports.append(.wrongCodesForgiven)
                }
            }
            return (reports, closing, abandoned)
        }
        for channel in closing { channel.close(promise: nil) }
        return (reports, abandoned)
    }
}

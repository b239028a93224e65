import GameClient
import GameProtocol
import LocalNetworkPrivacy

/// "Ask, then wait, then go", written once for every front end: asks the gate for a capability and waits (saying
/// why) until it is granted, here or in another process, or until the wait times out.
public struct LocalNetworkAccess: Sendable {
    public let gate: LocalNetworkGate
    /// Measures `waitTimeout`: the caller's one clock (tests pass a clock they advance).
    private let clock: any Clock<Duration>

    public init(gate: LocalNetworkGate, clock: any Clock<Duration>) {
        self.gate = gate
        self.clock = clock
    }

    /// The capability `clear` asks the gate for, e.g. `{ $0.browse(GameService.type, for: .browseCommand) }`. While
    /// it must wait, `onWaiting` gets each new reason. Throws `LocalNetworkAccessError` (refused, timed out) or
    /// `CancellationError`.
    public func obtain<Capability: LocalNetworkCapability>(
        _ clear: @escaping @Sendable (LocalNetworkGate) -> Clearance<Capability>,
        waitTimeout: Duration? = nil,
        onWaiting: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> Capability {
        let gate = self.gate
        let clock = self.clock
        let wait: @Sendable () async throws -> Capability = {
            do {
                return try await gate.waitUntilGranted({ clear(gate) }, onWaiting: onWaiting)
            } catch let error as LocalNetworkPrivacyError {
                throw LocalNetworkAccessError.refused(error)
            }
        }
        guard let waitTimeout else { return try await wait() }
        return try await withThrowingTaskGroup(of: Capability?.self) { group in
            group.addTask { try await wait() }
            group.addTask {
                try await clock.sleep(for: waitTimeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let capability = try await group.next() ?? nil else {
                throw LocalNetworkAccessError.timedOut(after: waitTimeout, reason: gate.waitingReason)
            }
            return capability
        }
    }
}

extension LocalNetworkAccess {
    /// Runs `session` with a capability each time local network access is granted, until the calling task is
    /// cancelled (a screen's live list): while access is off it waits (each reason to `onWaiting`); when access is
    /// turned off (Settings, `privacy deny`) the session is cancelled at once, and it waits again. Throws what
    /// `obtain` throws when access cannot be had at all (refused: NoAuth, a missing entitlement, no manifest).
    public func whileAllowed<Capability: LocalNetworkCapability>(
        _ clear: @escaping @Sendable (LocalNetworkGate) -> Clearance<Capability>,
        onWaiting: @escaping @Sendable (String) -> Void,
        session: @escaping @Sendable (Capability) async -> Void
    ) async throws {
        while !Task.isCancelled {
            let capability: Capability
            do {
                capability = try await obtain(clear, onWaiting: onWaiting)
            } catch is CancellationError {
                return
            }
            let revocations = gate.revocations()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await session(capability) }
                group.addTask {
                    for await _ in revocations { return }  // access turned off (or the session cancelled)
                    await untilCancelled()  // the decision cannot be watched (logged): go on until cancelled
                }
                await group.next()
                group.cancelAll()
            }
        }
    }
}

/// Returns once the task that awaits it is cancelled.
func untilCancelled() async {
    let (stream, end) = AsyncStream<Never>.makeStream()
    await withTaskCancellationHandler {
        for await _ in stream {}
    } onCancel: {
        end.finish()
    }
}

/// Why a front end could not get local network access.
public enum LocalNetworkAccessError: ExitStatusConvertible, Sendable, Hashable, CustomStringConvertible {
    /// NoAuth, no manifest, a decision that cannot be watched: waiting would not help.
    case refused(LocalNetworkPrivacyError)
    /// Still waiting after the time allowed (`--wait-timeout`).
    case timedOut(after: Duration, reason: String)

    /// The documented exit status (12 refused, 15 a missing entitlement, 11 timed out).
    public var exitStatus: ExitStatus {
        switch self {
        case .refused(.missingEntitlement): return .entitlementMissing
        case .refused: return .localNetworkNotAllowed
        case .timedOut: return .localNetworkWaitTimedOut
        }
    }

    public var description: String {
        switch self {
        case .refused(let error):
            return "cannot use the local network: \(error)"
        case .timedOut(let after, let reason):
            return "still waiting for local network permission after \(after.seconds.formatted) s (--wait-timeout): \(reason)"
        }
    }
}

/// Which screen or command asked the gate: logged with every decision.
extension OperationOrigin {
    public static let hostCommand = OperationOrigin("tictactoe host")
    public static let joinCommand = OperationOrigin("tictactoe join")
    public static let browseCommand = OperationOrigin("tictactoe browse")
    public static let browseAllTypesCommand = OperationOrigin("tictactoe browse --all-types")
    public static let watchCommand = OperationOrigin("tictactoe watch")
    public static let matchCommand = OperationOrigin("tictactoe match --over")
    public static let hostScreen = OperationOrigin("Host a game screen")
    public static let privateHostScreen = OperationOrigin("Host a private game screen")
    public static let joinScreen = OperationOrigin("Join a game screen")
    public static let searchScreen = OperationOrigin("Search for games screen")
    public static let watchScreen = OperationOrigin("Watch a game screen")
    public static let serviceTypesScreen = OperationOrigin("All services on this network screen")
    /// The TUI's Lobby screen.
    public static let lobbyScreen = OperationOrigin("Lobby screen")
}

extension Double {
    /// "3" for 3.0, "2.5" for 2.5.
    var formatted: String { self == rounded() ? String(Int(self)) : String(self) }
}

import AppManifest
import AppProcess
import Bonjour
import GameClient
import GameProtocol
import GameTransport
import LocalNetworkPrivacy

extension ExitStatus {
    /// The exit code of a run that `error` ends, for every front end: the error's own (`ExitStatusConvertible`). A
    /// cancellation is a stop when the run was stopped (`stop`: Ctrl-C, a shutdown), else unexpected, as is an error
    /// whose type has no code.
    public init(failure error: any Error, stop: ByeReason? = nil) {
        switch error {
        case let error as any ExitStatusConvertible: self = error.exitStatus
        case is CancellationError: self = stop.map(ExitStatus.init(stoppedBy:)) ?? .failure
        default: self = .failure
        }
    }
}

// The exit codes of the lower modules' errors, which cannot see `ExitStatus`: one conformance per type.

extension ConnectionError: ExitStatusConvertible {
    public var exitStatus: ExitStatus {
        switch self {
        case .unreachable, .badAddress: return .unreachable
        case .timedOut: return .timeout
        case .rejected: return .rejected
        case .protocolViolation, .peerError, .secureHandshakeFailed: return .protocolError
        case .closedDuringHandshake: return .peerLeft
        case .localNetworkRefused: return .localNetworkNotAllowed
        case .wrongCode: return .wrongCode
        }
    }
}

extension SecureChannelError: ExitStatusConvertible {
    /// As the connection error it stands for.
    public var exitStatus: ExitStatus { connectionError.exitStatus }
}

extension BonjourError: ExitStatusConvertible {
    public var exitStatus: ExitStatus {
        switch self {
        case .unavailable, .notAllowed, .disabled, .libraryMissing: return .bonjourUnavailable
        case .notFound, .noAddress, .failed: return .unreachable
        }
    }
}

extension TransportSecurityRefusal: ExitStatusConvertible {
    /// A game connection the manifest's App Transport Security policy refuses ends the run with exit code 14.
    public var exitStatus: ExitStatus { .transportSecurityRefused }
}

/// Reports `error` as the run's last word and returns its exit status.
func reportFailure(_ error: any Error, reporter: MatchReporter, stop: StopSignal?) -> ExitStatus {
    let status = ExitStatus(failure: error, stop: stop?.raised)
    let message = error is CancellationError ? "stopped before the match began" : "\(error)"
    reporter.report(.error(message, status))
    return status
}

extension ExitStatus {
    /// This status, or 74 (EX_IOERR) when `output` failed during the run: a run whose output was lost did not do
    /// what it was asked, whatever its match came to. Writes what `output` still holds first (the last lines of a
    /// run are often gathered), so that a failure to write them counts too.
    public func unlessOutputFailed(_ output: CheckedOutput = .standardOutput) -> ExitStatus {
        output.waitUntilWritten()
        return output.failure == nil ? self : .outputFailed
    }
}

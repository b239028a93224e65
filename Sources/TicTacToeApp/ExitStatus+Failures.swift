import Bonjour
import GameTransport
import GameProtocol
import LocalNetworkPrivacy

extension ExitStatus {
    /// The one mapping from a failure to the documented exit code, for every front end. `stop` is why the run was
    /// stopped, if it was (a cancellation then means Ctrl-C or a shutdown).
    public init(failure error: Error, stop: ByeReason? = nil) {
        switch error {
        case let error as LocalNetworkAccessError:
            self = error.exitStatus
        case let error as TransportSecurityRefusal:
            self = error.exitStatus
        case let error as ConnectionError:
            switch error {
            case .unreachable, .badAddress: self = .unreachable
            case .timedOut: self = .timeout
            case .rejected: self = .rejected
            case .protocolViolation, .peerError, .secureHandshakeFailed: self = .protocolError
            case .closedDuringHandshake: self = .peerLeft
            case .localNetworkRefused: self = .localNetworkNotAllowed
            case .wrongCode: self = .wrongCode
            }
        case let error as SecureChannelError:
            self.init(failure: error.connectionError, stop: stop)
        case let error as BonjourError:
            switch error {
            case .unavailable, .notAllowed, .disabled, .libraryMissing: self = .bonjourUnavailable
            case .notFound, .noAddress, .failed: self = .unreachable
            }
        case is CancellationError:
            self = stop == .shutdown ? .terminated : (stop != nil ? .interrupted : .failure)
        default:
            self = .failure
        }
    }
}

extension TransportSecurityRefusal {
    /// A game connection the manifest's App Transport Security policy refuses ends the run with exit code 14.
    public var exitStatus: ExitStatus { .transportSecurityRefused }
}

/// Reports `error` as the run's last word and returns its exit status.
func reportFailure(_ error: Error, reporter: MatchReporter, stop: StopSignal?) -> ExitStatus {
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

import AppProcess
import GameClient
import GameProtocol

/// Reports `error` as the run's last word and returns its exit status.
func reportFailure(_ error: any Error, reporter: MatchReporter, stop: StopSignal?) -> ExitStatus {
    let status = ExitStatus(failure: error, stop: stop?.raised)
    reporter.report(.error(failureMessage(error, before: "the match"), status))
    return status
}

/// What a failure says: the error's own words, or, for a wait a stop cut short, that it stopped before `what` began.
public func failureMessage(_ error: any Error, before what: String) -> String {
    error is CancellationError ? "stopped before \(what) began" : "\(error)"
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

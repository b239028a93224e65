import FoundationEssentials
import PrivacyReport

#if canImport(Glibc)
import Glibc
#endif

// The privacy report in the gate's words: its records made from the gate's operations, verdicts and origins.

extension PrivacyReportEntry {
    /// A decision of the gate.
    public init(
        decision verdict: GateVerdict, for operation: LocalNetworkOperation, origin: OperationOrigin?, time: Date,
        pid: Int32
    ) {
        let (outcome, name, detail) = Self.describe(verdict)
        self.init(
            time: time, pid: pid, event: .decision, operation: operation.reportName,
            destination: operation.reportDestination, outcome: outcome, verdict: name, detail: detail,
            origin: origin?.name)
    }

    /// The outcome, the verdict's name in the report, and why (for a refusal).
    static func describe(_ verdict: GateVerdict) -> (Outcome, String, String?) {
        switch verdict {
        case .allowed: return (.allowed, "allowed", nil)
        case .exempt: return (.allowed, "exempt", nil)
        case .needsPrompt: return (.waiting, "not-determined", nil)
        case .denied: return (.waiting, "denied", nil)
        case .noAuth(let type): return (.refused, "no-auth", "NSBonjourServices does not list \(type)")
        case .manifestError(let text): return (.refused, "manifest-error", text)
        case .missingEntitlement(let key): return (.refused, "missing-entitlement", key)
        }
    }
}

extension PrivacyReportLog {
    /// Records a decision of the gate (never fails: a problem is logged once).
    public func recordDecision(_ verdict: GateVerdict, for operation: LocalNetworkOperation, origin: OperationOrigin?) {
        record(PrivacyReportEntry(decision: verdict, for: operation, origin: origin, time: currentTime, pid: getpid()))
    }

    /// Records that the prompt was shown for `operation`.
    public func recordPromptShown(for operation: LocalNetworkOperation, origin: OperationOrigin?) {
        record(PrivacyReportEntry(
            time: currentTime, pid: getpid(), event: .promptShown, operation: operation.reportName,
            destination: operation.reportDestination, outcome: .waiting, verdict: "not-determined",
            origin: origin?.name))
    }

    /// Records the prompt's answer, with the operation (and origin) that showed it when known.
    public func recordPromptAnswered(allow: Bool, for operation: LocalNetworkOperation?, origin: OperationOrigin?) {
        record(PrivacyReportEntry(
            time: currentTime, pid: getpid(), event: .promptAnswered, operation: operation?.reportName,
            destination: operation?.reportDestination, answer: allow ? "allow" : "deny", origin: origin?.name))
    }

    /// Records a LAN operation carried out under a capability (`PrivacyReportEntry.Event.operation`): its name
    /// (`resolve`) and destination.
    public func recordOperation(_ operation: String, destination: String, origin: OperationOrigin?) {
        record(PrivacyReportEntry(
            time: currentTime, pid: getpid(), event: .operation, operation: operation, destination: destination,
            origin: origin?.name))
    }
}

extension LocalNetworkOperation {
    /// The operation's name in the privacy report.
    public var reportName: String {
        switch self {
        case .browse: return "browse"
        case .advertise: return "advertise"
        case .listen: return "listen"
        case .connect: return "connect"
        case .multicast: return "multicast"
        case .browseServiceTypes: return "browse-service-types"
        }
    }

    /// Where the operation goes, as the privacy report says it.
    public var reportDestination: String {
        switch self {
        case .browse(let type), .advertise(let type): return type
        case .listen(let host): return host.isEmpty ? "*" : host
        case .connect(let endpoint): return "\(endpoint)"
        case .multicast(let group):
            return [group.ipv4.map { "\($0):\(group.port)" }, group.ipv6.map { "[\($0)]:\(group.port)" }]
                .compactMap { $0 }.joined(separator: " ")
        case .browseServiceTypes: return "_services._dns-sd._udp"
        }
    }
}

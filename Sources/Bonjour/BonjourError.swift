import CDNSSD
import FoundationEssentials
import GameProtocol

/// What went wrong talking to Bonjour (Avahi's dns_sd compatibility library), in words a user can act on.
public enum BonjourError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No daemon to talk to (kDNSServiceErr_Unknown, which is what Avahi's library reports when avahi-daemon is not
    /// running or dies; also kDNSServiceErr_ServiceNotRunning on other implementations).
    case unavailable
    /// The system refused us (kDNSServiceErr_NoAuth): local network access is not allowed.
    case notAllowed
    /// No service of that name answered; `nearest` is the listed name closest to it, if any was listed.
    case notFound(name: String, nearest: String? = nil)
    /// The service was found but no address of its host answered in time.
    case noAddress(name: String)
    /// Any other dns_sd error code.
    case failed(code: Int32)
    /// Turned off for this process with `TICTACTOE_BONJOUR=off` (tests outside the LAN lab): no dns_sd call is made.
    case disabled
    /// Avahi's dns_sd compatibility library (libdns_sd.so.1) could not be loaded: it is loaded when Bonjour is first
    /// used, not linked, so the rest of the app works without it. `detail` is the loader's word (dlerror).
    case libraryMissing(detail: String)

    /// The user-facing message for an unavailable daemon (also shown by the UI and the CLI).
    public static let unavailableMessage =
        "Bonjour is unavailable: is avahi-daemon running? (sudo systemctl start avahi-daemon)"

    /// kDNSServiceErr_ServiceNotRunning from Apple's header (Avahi's header predates it).
    static let serviceNotRunning: Int32 = -65563

    /// Maps a dns_sd error code (non-zero).
    public init(code: Int32) {
        switch code {
        case Int32(kDNSServiceErr_Unknown), BonjourError.serviceNotRunning: self = .unavailable
        case Int32(kDNSServiceErr_NoAuth): self = .notAllowed
        default: self = .failed(code: code)
        }
    }

    /// Whether waiting and retrying may help (the daemon may come back).
    public var isRetryable: Bool {
        switch self {
        case .unavailable, .failed: return true
        case .notAllowed, .notFound, .noAddress, .disabled, .libraryMissing: return false
        }
    }

    public var description: String {
        switch self {
        case .unavailable: return Self.unavailableMessage
        case .notAllowed: return "Not allowed to access the network (Bonjour refused: kDNSServiceErr_NoAuth)"
        case .notFound(let name, let nearest?):
            return "no game named '\(name)' answered on the local network; the nearest name listed is '\(nearest)' "
                + "(see the names `tictactoe browse` lists)"
        case .notFound(let name, nil):
            return "no game named '\(name)' answered on the local network: its host may have quit (see the names "
                + "`tictactoe browse` lists)"
        case .noAddress(let name): return "the host of '\(name)' did not say its address"
        case .failed(let code): return "Bonjour failed (dns_sd error \(code))"
        case .disabled: return "Bonjour is turned off (TICTACTOE_BONJOUR=off)"
        case .libraryMissing(let detail):
            return "Bonjour needs Avahi's dns_sd library (\(DNSSDLibrary.soname)), which could not be loaded: install "
                + "it with 'sudo apt-get install \(DNSSDLibrary.package)' (\(detail))"
        }
    }
}

/// The process-wide switch: `TICTACTOE_BONJOUR=off` in the environment makes every browse, advertisement and
/// resolution fail with `.disabled` before any dns_sd call (a safety net for tests that run outside the LAN lab).
public enum BonjourSwitch {
    public static let environmentVariable = "TICTACTOE_BONJOUR"

    /// Whether `environment` turns Bonjour off.
    public static func isDisabled(environment: [String: String]) -> Bool {
        ["off", "0", "no", "false"].contains(environment[environmentVariable]?.lowercased() ?? "")
    }

    /// Read once, from this process's environment.
    public static let isDisabled = isDisabled(environment: ProcessInfo.processInfo.environment)
}

extension BonjourError: ExitStatusConvertible {
    public var exitStatus: ExitStatus {
        switch self {
        case .unavailable, .notAllowed, .disabled, .libraryMissing: return .bonjourUnavailable
        case .notFound, .noAddress, .failed: return .unreachable
        }
    }
}

/// What a front end knows of local network privacy: its own words for the gate's answers, so that screens depend on
/// this interface only (the live client maps the gate's types onto these).

/// The remembered decision, as Settings shows it.
public enum LocalNetworkState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Never asked, or reset: the next operation that needs the local network shows the prompt.
    case notDetermined = "not-determined"
    /// Local network access is on.
    case allowed
    /// Local network access is off: operations wait (they do not fail) until it is turned on.
    case denied

    public var description: String {
        switch self {
        case .notDetermined: return "not determined"
        case .allowed: return "allowed"
        case .denied: return "denied"
        }
    }
}

/// The gate's answer for something the user asked for.
public enum LocalNetworkVerdict: Sendable, Hashable, CustomStringConvertible {
    /// How iOS shows NoAuth.
    public static let noAuthMessage = "Not allowed to access the network"

    /// Access is on: go ahead.
    case allowed
    /// Loopback: never needs permission.
    case exempt
    /// Not asked yet: show the prompt.
    case needsPrompt
    /// Access is off: the operation waits until it is turned on.
    case denied
    /// The service type is missing from NSBonjourServices (kDNSServiceErr_NoAuth, -65555): an error at once.
    case noAuth(serviceType: String)
    /// No usable app manifest: an error at once; the text says what to do.
    case manifestError(String)
    /// The operation needs an entitlement the app lacks (multicast): an error at once, no prompt.
    case missingEntitlement(String)

    public var description: String {
        switch self {
        case .allowed: return "allowed"
        case .exempt: return "exempt (loopback)"
        case .needsPrompt: return "needs the prompt (not determined)"
        case .denied: return "denied"
        case .noAuth(let type): return "NoAuth (-65555): Not allowed to access the network (\(type) is not in NSBonjourServices)"
        case .manifestError(let text): return "manifest error: \(text)"
        case .missingEntitlement(let key): return "missing entitlement \(key)"
        }
    }
}

/// What needs the local network, so the gate can be asked first (deferred prompting: only when the user acts).
public enum NetworkIntent: Sendable, Hashable, CustomStringConvertible {
    case search
    /// Host a game, open or private (the privacy report names the screen that asked).
    case host(name: String, port: Int, isPrivate: Bool = false)
    case join(name: String, address: String)
    /// Watch a hosted game (a spectator's connection: the gate sees a join).
    case watch(name: String, address: String)
    /// List every service type on the network (needs the multicast entitlement, then permission).
    case browseServiceTypes
    /// The LAN lobby's multicast group (needs the multicast entitlement, then permission).
    case lobby

    public var description: String {
        switch self {
        case .lobby: return "Lobby"
        case .search: return "Search for games"
        case .browseServiceTypes: return "All services on this network"
        case .host(_, let port, let isPrivate): return "Host a \(isPrivate ? "private " : "")game (port \(port))"
        case .join(_, let address): return "Join \(address)"
        case .watch(_, let address): return "Watch \(address)"
        }
    }
}

/// What Settings › Privacy › Local Network shows.
public struct PrivacyInfo: Sendable, Hashable {
    public var state: LocalNetworkState
    public var usageDescription: String?
    public var services: [String]
    public var manifestPath: String?
    public var manifestError: String?
    public var decisionFile: String
    public var logFile: String
    /// The entitlements the app declares as true (beside the manifest), or why they cannot be read.
    public var entitlements: [String]
    public var entitlementsError: String?
    /// The privacy report's file, and its latest records, newest first.
    public var reportFile: String?
    public var activity: [PrivacyActivity]

    public init(state: LocalNetworkState, usageDescription: String?, services: [String], manifestPath: String?,
                manifestError: String?, decisionFile: String, logFile: String, entitlements: [String] = [],
                entitlementsError: String? = nil, reportFile: String? = nil, activity: [PrivacyActivity] = []) {
        self.state = state
        self.usageDescription = usageDescription
        self.services = services
        self.manifestPath = manifestPath
        self.manifestError = manifestError
        self.decisionFile = decisionFile
        self.logFile = logFile
        self.entitlements = entitlements
        self.entitlementsError = entitlementsError
        self.reportFile = reportFile
        self.activity = activity
    }
}

/// One record of the privacy report, as Settings shows it: when, what became of it, the operation and its
/// destination, and the screen or command that asked.
public struct PrivacyActivity: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case allowed, waiting, refused
        /// An operation carried out (a Bonjour name resolved to join it).
        case done
        case promptShown
        case promptAnswered(allow: Bool)
    }

    /// The time, as shown ("11-25 15:30:02").
    public var time: String
    public var kind: Kind
    /// browse, advertise, listen, connect, multicast, browse-service-types, resolve (the report's names); nil: not
    /// known.
    public var operation: String?
    public var destination: String?
    public var origin: String?

    public init(time: String, kind: Kind, operation: String?, destination: String?, origin: String?) {
        self.time = time
        self.kind = kind
        self.operation = operation
        self.destination = destination
        self.origin = origin
    }
}

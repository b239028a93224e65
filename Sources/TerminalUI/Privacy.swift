import LocalNetworkPrivacy

/// What needs the local network, so the gate can be asked first (deferred prompting: only when the user acts).
public enum NetworkIntent: Sendable, Hashable, CustomStringConvertible {
    case search
    case host(name: String, port: Int)
    case join(name: String, address: String)

    public var description: String {
        switch self {
        case .search: return "Search for games"
        case .host(_, let port): return "Host a game (port \(port))"
        case .join(_, let address): return "Join \(address)"
        }
    }
}

/// What Settings › Privacy › Local Network shows.
public struct PrivacyInfo: Sendable, Hashable {
    public var state: LocalNetworkAuthorization
    public var usageDescription: String?
    public var services: [String]
    public var manifestPath: String?
    public var manifestError: String?
    public var decisionFile: String
    public var logFile: String

    public init(state: LocalNetworkAuthorization, usageDescription: String?, services: [String], manifestPath: String?,
                manifestError: String?, decisionFile: String, logFile: String) {
        self.state = state
        self.usageDescription = usageDescription
        self.services = services
        self.manifestPath = manifestPath
        self.manifestError = manifestError
        self.decisionFile = decisionFile
        self.logFile = logFile
    }
}

/// The usage-description prompt: a modal dialog, as iOS shows it.
public struct PromptState: Sendable, Hashable {
    public var title: String
    public var message: String
    public let intent: NetworkIntent
    /// 0: Don't Allow, 1: OK.
    public var selected = 1

    enum Answer { case none, allow, deny }

    mutating func handle(_ key: Key) -> Answer {
        switch key {
        case .left, .right, .tab, .backTab, .character("h"), .character("l"):
            selected = 1 - selected
        case .enter, .character(" "):
            return selected == 1 ? .allow : .deny
        case .character("o"), .character("y"):
            return .allow
        case .character("d"), .character("n"), .escape:
            return .deny
        default:
            break
        }
        return .none
    }
}

import GameProtocol
import AppManifest

/// Something that uses the local network, and so must pass the gate first.
public enum LocalNetworkOperation: Sendable, Hashable, CustomStringConvertible {
    /// Look for Bonjour services of this type (e.g. "_tictactoe._tcp").
    case browse(serviceType: String)
    /// Register a Bonjour service of this type.
    case advertise(serviceType: String)
    /// Accept connections on this address (loopback is exempt; 0.0.0.0, :: or a LAN address is not).
    case listen(bindHost: String)
    /// Connect to this endpoint (loopback is exempt).
    case connect(Endpoint)
    /// Join a multicast group, and send to it (needs the multicast entitlement, then permission).
    case multicast(MulticastGroup)
    /// Browse for every service type on the network (`_services._dns-sd._udp`: needs the multicast entitlement, then
    /// permission; not a type NSBonjourServices lists).
    case browseServiceTypes

    /// The entitlement the operation needs, as on iOS: `com.apple.developer.networking.multicast` for custom
    /// multicast and for browsing every service type.
    public var requiredEntitlement: String? {
        switch self {
        case .multicast, .browseServiceTypes: return AppEntitlements.multicastKey
        case .browse, .advertise, .listen, .connect: return nil
        }
    }

    /// The Bonjour service type of a browse or an advertisement.
    public var serviceType: String? {
        switch self {
        case .browse(let type), .advertise(let type): return type
        case .listen, .connect, .multicast, .browseServiceTypes: return nil
        }
    }

    public var description: String {
        switch self {
        case .browse(let type): return "browse \(type)"
        case .advertise(let type): return "advertise \(type)"
        case .listen(let host): return "listen on \(host.isEmpty ? "*" : host)"
        case .connect(let endpoint): return "connect to \(endpoint)"
        case .multicast(let group): return "join multicast group \(group)"
        case .browseServiceTypes: return "browse every service type (_services._dns-sd._udp)"
        }
    }
}

/// The gate's answer for one operation.
public enum GateVerdict: Sendable, Hashable, CustomStringConvertible {
    /// The user allowed local network access: go ahead.
    case allowed
    /// Loopback (127.0.0.0/8, ::1, localhost): never needs permission, as on Apple platforms.
    case exempt
    /// Browsing or advertising a service type that the manifest's `NSBonjourServices` does not list: fails at once
    /// with kDNSServiceErr_NoAuth (-65555), "Not allowed to access the network", and no prompt (as on iOS).
    case noAuth(serviceType: String)
    /// Not determined yet: show the prompt (then `answerPrompt(allow:)`); meanwhile the operation waits.
    case needsPrompt
    /// The user did not allow it: the operation waits (it does not fail) until it is allowed.
    case denied
    /// The app manifest is missing or unreadable: an error at the moment of network use (the text says what to do).
    case manifestError(String)
    /// The operation needs an entitlement the app's entitlements lack (multicast): fails at once, no prompt (as on iOS).
    case missingEntitlement(String)

    /// True for `.allowed` and `.exempt`.
    public var mayProceed: Bool {
        switch self {
        case .allowed, .exempt: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .allowed: return "allowed"
        case .exempt: return "exempt (loopback)"
        case .noAuth(let type):
            return
                "NoAuth (\(LocalNetworkGate.noAuthErrorCode)): \(LocalNetworkGate.noAuthMessage) "
                + "(\(type) is not in NSBonjourServices)"
        case .needsPrompt: return "needs the prompt (not determined)"
        case .denied: return "denied"
        case .manifestError(let text): return "manifest error: \(text)"
        case .missingEntitlement(let key): return "missing entitlement \(key)"
        }
    }
}

/// Why an operation cannot go ahead at all (`waitUntilAllowed` throws it; waiting is not an error).
public enum LocalNetworkPrivacyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// kDNSServiceErr_NoAuth (-65555): the service type is not declared in `NSBonjourServices`.
    case noAuth(serviceType: String, manifestPath: String?)
    /// The app manifest is missing or unreadable.
    case manifest(String)
    /// The decision cannot be watched, so a wait could never end.
    case cannotWatch(String)
    /// The app's entitlements (`TicTacToe.entitlements` beside the manifest, at `path`) lack `key`.
    case missingEntitlement(key: String, path: String)

    /// The DNS-SD error code, for NoAuth.
    public var code: Int32? {
        if case .noAuth = self { return LocalNetworkGate.noAuthErrorCode }
        return nil
    }

    public var description: String {
        switch self {
        case .noAuth(let type, let path):
            return "\(LocalNetworkGate.noAuthMessage) (NoAuth, \(LocalNetworkGate.noAuthErrorCode)): "
                + "NSBonjourServices must list \"\(type)\"\(path.map { " in \($0)" } ?? "")"
        case .manifest(let text): return text
        case .cannotWatch(let text): return "cannot wait for local network permission: \(text)"
        case .missingEntitlement(let key, let path):
            return "the app is not entitled to \(key) (multicast and browsing every service type need it, as on "
                + "iOS): \(path) must declare it as <true/>"
        }
    }
}

/// What a prompt presenter is asked to show (see `LocalNetworkGate.setPromptHandler`).
public struct LocalNetworkPromptRequest: Sendable, Hashable {
    /// "“TicTacToe” would like to find and connect to devices on your local network."
    public var title: String
    /// The manifest's usage description, or the default one.
    public var message: String
    /// True when the manifest gave no usage description.
    public var usesDefaultMessage: Bool
    /// The operation that needs the answer.
    public var operation: LocalNetworkOperation

    public init(title: String, message: String, usesDefaultMessage: Bool, operation: LocalNetworkOperation) {
        self.title = title
        self.message = message
        self.usesDefaultMessage = usesDefaultMessage
        self.operation = operation
    }
}

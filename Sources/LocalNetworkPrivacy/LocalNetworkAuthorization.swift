/// The user's answer to the local network prompt, as remembered per user (iOS keeps it per app in Settings ›
/// Privacy › Local Network).
///
/// Unlike iOS, the state can be read: "allowed" can be told apart from "never asked".
public enum LocalNetworkAuthorization: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// Never asked, or reset: the next operation that needs the local network shows the prompt.
    case notDetermined = "not-determined"
    /// The user allowed local network access.
    case allowed
    /// The user did not allow it: local network operations wait (they do not fail) until it is allowed.
    case denied

    /// Words for people: "not determined", "allowed", "denied".
    public var description: String {
        switch self {
        case .notDetermined: return "not determined"
        case .allowed: return "allowed"
        case .denied: return "denied"
        }
    }
}

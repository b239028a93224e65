import LocalNetworkPrivacy
import Localization
import AppManifest

/// `tictactoe privacy grant | deny | reset`: what each stores in the decision file and what it tells the user.
public enum PrivacyChange: Sendable, Hashable, CaseIterable {
    case grant, deny, reset

    /// The state stored (`reset` forgets the decision: not determined).
    public var state: LocalNetworkAuthorization {
        switch self {
        case .grant: return .allowed
        case .deny: return .denied
        case .reset: return .notDetermined
        }
    }

    /// Who changed the decision: `privacy status` shows it ("decided_by"), and the privacy report records it as the
    /// change's origin (a reset's too, although its file is gone).
    public var source: String {
        switch self {
        case .grant: return "tictactoe privacy grant"
        case .deny: return "tictactoe privacy deny"
        case .reset: return "tictactoe privacy reset"
        }
    }

    /// Stores the change in `store` and returns what to tell the user. Throws `DecisionStoreError` (which says why
    /// and what to do) when the decision cannot be stored.
    public func apply(to store: DecisionStore, displayName: String) throws -> String {
        try store.write(state, source: source)
        return message(displayName: displayName, decisionFile: store.decisionPath)
    }

    /// What the user is told once the change is stored.
    public func message(displayName name: String, decisionFile: String) -> String {
        switch self {
        case .grant:
            return tr("Local network access allowed for “%@”: searching, hosting and joining LAN games go ahead "
                + "(anything waiting proceeds now). Stored in %@.", name, decisionFile)
        case .deny:
            return tr("Local network access denied for “%@”: searching, hosting and joining LAN games wait until "
                + "you run `tictactoe privacy grant` (loopback still works). Stored in %@.", name, decisionFile)
        case .reset:
            return tr("Local network permission reset (not determined): “%@” asks again the next time it needs the "
                + "local network. Removed %@.", name, decisionFile)
        }
    }

    /// The app's name in the messages: the manifest's, else the default, with a note saying why when the manifest
    /// was named explicitly (`--info-plist`) but cannot be used.
    public static func displayName(
        manifest: Result<AppManifest, any Error>, explicitPath: Bool
    ) -> (name: String, note: String?) {
        switch manifest {
        case .success(let manifest):
            return (manifest.localizedDisplayName(), nil)
        case .failure(let error):
            return (AppManifest.fallbackDisplayName, explicitPath ? "tictactoe: note: \(error)" : nil)
        }
    }
}

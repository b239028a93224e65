/// The host's answer to a joiner's first frame.
public enum HostHandshake {
    /// `accept` for a well-formed `hello` of `version`, the version the host's transport speaks
    /// (`GameSecurity.protocolVersion`: 2 over TLS, 1 in plaintext); otherwise the `reject` or `error` to send before
    /// closing. The checks, in order: a hello at all, its version, its role (players only), a non-empty name.
    /// A spectator's hello (version 2) is accepted only by a host that `takesSpectators` (whether it has room is the
    /// listener's to say). The accept announces `limits`, the time limits the host holds the joiner to.
    public static func answer(
        to message: GameMessage, hostName: String, version: UInt8, takesSpectators: Bool = false,
        limits: TimeLimits? = nil
    ) -> GameMessage {
        guard case .hello(let joinerVersion, let name, let role, _) = message else {
            return .error(code: .unexpectedMessage, text: "expected hello, got \(message.kind)")
        }
        guard joinerVersion == version else {
            let text = versionMismatchText(hostVersion: version, joinerVersion: joinerVersion)
            return .reject(reason: .version, text: text)
        }
        guard role == .player || (role == .spectator && takesSpectators) else {
            let text = role == .spectator
                ? spectatorRejectText : "this host takes players only; role \(role.rawValue) is unknown to it"
            return .reject(reason: .badHello, text: text)
        }
        guard !name.isEmpty else { return .reject(reason: .badHello, text: "empty player name") }
        return .accept(version: version, name: hostName, limits: limits)
    }

    /// The `reject(bad-hello)` text for a v2 hello asking to watch a host that takes no spectators.
    public static let spectatorRejectText = "this host takes no spectators (its player can allow them: --spectators N)"

    /// The `reject(version)` text for a joiner of `joinerVersion` at a host of `hostVersion`: what the host speaks and
    /// what the joiner should do about it.
    public static func versionMismatchText(hostVersion: UInt8, joinerVersion: UInt8) -> String {
        switch hostVersion {
        case GameMessage.encryptedProtocolVersion where joinerVersion < hostVersion:
            return "this host speaks protocol 2 (encrypted); update tictactoe"
        case GameMessage.plaintextProtocolVersion where joinerVersion > hostVersion:
            return "this host speaks protocol 1 (unencrypted): join with --plaintext"
        default:
            let older = joinerVersion > hostVersion
            return "this host speaks protocol \(hostVersion), \(older ? "older" : "newer") than the joiner's "
                + "\(joinerVersion): \(older ? "the host must update" : "update") tictactoe"
        }
    }
}

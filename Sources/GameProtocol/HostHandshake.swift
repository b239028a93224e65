/// The host's answer to a joiner's first frame.
public enum HostHandshake {
    /// `accept` for a well-formed `hello` of our version; otherwise the `reject` or `error` to send before closing.
    public static func answer(to message: GameMessage, hostName: String) -> GameMessage {
        guard case .hello(let version, let name) = message else {
            return .error(code: .unexpectedMessage, text: "expected hello, got \(message.kind)")
        }
        guard version == GameMessage.protocolVersion else {
            return .reject(
                reason: .version,
                text: "host speaks protocol version \(GameMessage.protocolVersion), joiner \(version)"
            )
        }
        guard !name.isEmpty else { return .reject(reason: .badHello, text: "empty player name") }
        return .accept(version: GameMessage.protocolVersion, name: hostName)
    }
}

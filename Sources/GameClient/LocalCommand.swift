import GameProtocol

/// What a front end asks the match to do for the local player.
public enum LocalCommand: Sendable, Hashable {
    case move(Int)
    case resign
    case rematch(Bool)
    case leave(ByeReason)
}

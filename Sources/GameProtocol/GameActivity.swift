/// What a host advertises about its match (TXT `state`, `watch`): whether one is running (a joiner would be told the
/// host is busy) and how many spectators it can still take (`tictactoe watch`).
public struct GameActivity: Sendable, Hashable {
    public var playing: Bool
    public var spectatorRoom: Int

    public init(playing: Bool = false, spectatorRoom: Int = 0) {
        self.playing = playing
        self.spectatorRoom = spectatorRoom
    }
}

import GameProtocol
import NIOCore
import Synchronization

/// The spectators of a host (`--spectators N`): at most `capacity` connections that get the match as it stands
/// (`GameMessage.watch`) when they come in and after every change, and a `bye` when the host stops.
///
/// Spectators never slow the players: `publish` writes to each spectator's connection without waiting, from
/// whichever thread the match reports on, and a spectator whose connection cannot take more (its reader stalled, its
/// buffers full: the channel is not writable) is dropped, not waited for. Its connection is kept small for that:
/// a low write-buffer water mark and send buffer (`prepare`).
public final class SpectatorHub: Sendable {
    /// What a spectator's connection may hold unsent before the spectator counts as too slow: about 40 games of
    /// positions, so that a steady spectator whose process is briefly not scheduled on a busy machine is not dropped.
    /// A stalled one still fills it, and its socket buffers, within a few hundred games.
    public static let writeBufferLimit = 32 * 1024

    public let capacity: Int
    private struct State {
        var watchers: [ObjectIdentifier: Channel] = [:]
        /// Seats taken by spectators whose `accept` is on its way (counted against `capacity`).
        var reserved = 0
        var latest: WatchedMatch
        var dropped = 0
        var closed = false
    }
    private let state: Mutex<State>

    public init(capacity: Int, hostName: String) {
        self.capacity = max(0, capacity)
        self.state = Mutex(State(latest: WatchedMatch(hostName: hostName)))
    }

    /// Spectators watching now.
    public var count: Int { state.withLock { $0.watchers.count } }

    /// How many spectators were dropped as too slow so far.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// Free seats (capacity minus spectators watching or on their way in).
    public var room: Int { state.withLock { max(0, capacity - $0.watchers.count - $0.reserved) } }

    /// The match as spectators see it now.
    public var latest: WatchedMatch { state.withLock { $0.latest } }

    /// Takes a seat for a spectator about to be accepted; false if there is none (or the host stopped).
    func reserve() -> Bool {
        state.withLock { state in
            guard !state.closed, state.watchers.count + state.reserved < capacity else { return false }
            state.reserved += 1
            return true
        }
    }

    /// Gives back a seat reserved for a spectator that did not get in.
    func release() {
        state.withLock { $0.reserved = max(0, $0.reserved - 1) }
    }

    /// Sets up an accepted spectator's connection so that a stalled reader is noticed soon: a small send buffer and
    /// write-buffer water mark.
    static func prepare(_ channel: Channel) async {
        try? await channel.setOption(.socketOption(.so_sndbuf), value: 4096)
        try? await channel.setOption(
            .writeBufferWaterMark,
            value: ChannelOptions.Types.WriteBufferWaterMark(low: writeBufferLimit / 2, high: writeBufferLimit)
        ).get()
    }

    /// Adds an accepted spectator (its seat reserved) and sends it the match as it stands. False if the host stopped
    /// meanwhile (the caller closes it).
    func add(_ channel: Channel) -> Bool {
        let latest = state.withLock { state -> WatchedMatch? in
            state.reserved = max(0, state.reserved - 1)
            guard !state.closed else { return nil }
            state.watchers[ObjectIdentifier(channel)] = channel
            return state.latest
        }
        guard let latest else { return false }
        channel.writeAndFlush(GameMessage.watch(latest), promise: nil)
        return true
    }

    /// A spectator's connection ended.
    func remove(_ channel: Channel) {
        _ = state.withLock { $0.watchers.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Sends `match` to every spectator; one that cannot take it now is dropped (closed).
    public func publish(_ match: WatchedMatch) {
        let watchers = state.withLock { state -> [Channel] in
            state.latest = match
            return Array(state.watchers.values)
        }
        for channel in watchers {
            guard channel.isWritable else {
                drop(channel)
                continue
            }
            channel.writeAndFlush(GameMessage.watch(match), promise: nil)
        }
    }

    /// Says `bye(reason)` to every spectator and closes their connections; no spectator is taken afterwards.
    public func closeAll(_ reason: ByeReason) {
        state.withLock { $0.closed = true }
        dismissAll(reason)
    }

    /// Says `bye(reason)` to every spectator watching now and closes their connections (a listener stopping).
    public func dismissAll(_ reason: ByeReason) {
        let watchers = state.withLock { state -> [Channel] in
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for channel in watchers {
            channel.writeAndFlush(GameMessage.bye(reason)).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func drop(_ channel: Channel) {
        let removed = state.withLock { state -> Bool in
            guard state.watchers.removeValue(forKey: ObjectIdentifier(channel)) != nil else { return false }
            state.dropped += 1
            return true
        }
        if removed { channel.close(promise: nil) }
    }
}

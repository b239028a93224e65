import GameProtocol
import LocalNetworkPrivacy
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The host's listener: serves one match at a time, answers any other joiner at once with `reject(busy)`, and keeps
/// listening after a match ends or a peer misbehaves. Errors are caught per connection, so one bad peer never
/// stops the host.
///
/// Where it listens is the gate's `ListenCapability`: every interface is `::` with IPV6_V6ONLY off, so IPv6 and IPv4
/// joiners (an IPv6-only LAN's link-local addresses too) reach it, falling back to 0.0.0.0 where IPv6 is off.
public final class GameListener: Sendable {
    /// What the listener reports besides matches.
    public enum Event: Sendable {
        /// Listening and free to serve a joiner (again after each match).
        case listening(host: String, port: Int)
        case rejectedBusy(remote: String)
        case handshakeFailed(remote: String, error: String)
    }

    /// What to do after a match.
    public enum Next: Sendable { case keepListening, stop }

    /// The gate's permission to listen, and where.
    public let capability: ListenCapability
    public let port: Int
    public let hostName: String
    private let timeouts: ConnectionTimeouts
    private let group: EventLoopGroup
    private let logger: Logger
    private let busy = NIOLockedValueBox(false)
    /// The bound channel, and whether `stop()` came (before the bind, too).
    private let serverChannel = NIOLockedValueBox<(channel: Channel?, stopped: Bool)>((nil, false))

    public init(
        capability: ListenCapability,
        port: Int = Endpoint.defaultPort,
        hostName: String,
        timeouts: ConnectionTimeouts = .default,
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "tictactoe.listener")
    ) {
        self.capability = capability
        self.port = port
        self.hostName = hostName
        self.timeouts = timeouts
        self.group = group
        self.logger = logger
    }

    /// Stops listening; `run` returns once the match in progress (if any) has ended.
    public func stop() {
        serverChannel.withLockedValue { value -> Channel? in
            value.stopped = true
            return value.channel
        }?.close(promise: nil)
    }

    /// Binds and serves until `onMatch` answers `.stop` or `stop()` is called. Throws if the address cannot be bound.
    public func run(
        onEvent: @escaping @Sendable (Event) -> Void,
        onMatch: @escaping @Sendable (inout PeerLink) async -> Next
    ) async throws {
        let (server, bindHost) = try await bind()
        let stoppedAlready = serverChannel.withLockedValue { value -> Bool in
            value.channel = server.channel
            return value.stopped
        }
        if stoppedAlready {  // stopped while binding: serve nobody
            try? await server.channel.close()
            return
        }
        let boundPort = server.channel.localAddress?.port ?? port
        onEvent(.listening(host: bindHost, port: boundPort))
        logger.info("listening on \(bindHost):\(boundPort)")

        try await withThrowingDiscardingTaskGroup { group in
            try await server.executeThenClose { inbound in
                for try await (child, stats) in inbound {
                    let reserved = busy.withLockedValue { isBusy -> Bool in
                        if isBusy { return false }
                        isBusy = true
                        return true
                    }
                    group.addTask {
                        if reserved {
                            let next = await self.serve(child, stats: stats, onEvent: onEvent, onMatch: onMatch)
                            self.busy.withLockedValue { $0 = false }
                            if next == .stop {
                                self.stop()
                            } else {
                                // Free again: say so, so that scripts know when the next joiner will be served.
                                onEvent(.listening(host: bindHost, port: boundPort))
                            }
                        } else {
                            await self.rejectBusy(child, onEvent: onEvent)
                        }
                    }
                }
            }
        }
    }

    private typealias ServerChannel = NIOAsyncChannel<(GameAsyncChannel, ConnectionStats), Never>

    /// Binds where the capability says; every interface is `::` (dual-stack), or 0.0.0.0 when IPv6 is unavailable.
    private func bind() async throws -> (ServerChannel, String) {
        switch capability.target {
        case .address(let host):
            return (try await bind(host: host, dualStack: false), host)
        case .everyInterface:
            do {
                return (try await bind(host: "::", dualStack: true), "::")
            } catch let error as IOError where [EAFNOSUPPORT, EADDRNOTAVAIL, EPROTONOSUPPORT].contains(error.errnoCode) {
                logger.info("IPv6 is unavailable (\(error)); listening on IPv4 only")
                return (try await bind(host: "0.0.0.0", dualStack: false), "0.0.0.0")
            }
        }
    }

    private func bind(host: String, dualStack: Bool) async throws -> ServerChannel {
        let timeouts = self.timeouts
        var bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
        if dualStack {
            bootstrap = bootstrap.serverChannelOption(ChannelOptions.Types.SocketOption(level: .ipv6, name: .ipv6_v6only), value: 0)
        }
        return try await bootstrap.bind(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                let stats = ConnectionStats()
                return (try channel.configureGamePipeline(timeouts: timeouts, stats: stats), stats)
            }
        }
    }

    /// Handshake, then the match. Returns what the match code wants next; `.keepListening` on any failure.
    private func serve(
        _ asyncChannel: GameAsyncChannel,
        stats: ConnectionStats,
        onEvent: @Sendable (Event) -> Void,
        onMatch: @Sendable (inout PeerLink) async -> Next
    ) async -> Next {
        let channel = asyncChannel.channel
        let remote = channel.remoteAddress.map(describe) ?? "?"
        do {
            return try await asyncChannel.executeThenClose { inbound, outbound in
                var link = PeerLink(
                    peerName: "", role: .host, stats: stats, inbound: inbound.makeAsyncIterator(),
                    outbound: outbound, channel: channel, linger: timeouts.linger
                )
                let first: GameMessage?
                do {
                    first = try await link.next()
                } catch {
                    onEvent(.handshakeFailed(remote: remote, error: "\(error)"))
                    return .keepListening
                }
                guard let first else {
                    onEvent(.handshakeFailed(remote: remote, error: "closed before hello"))
                    return .keepListening
                }
                let answer = HostHandshake.answer(to: first, hostName: hostName)
                try await link.send(answer)
                guard case .accept = answer, case .hello(_, let peerName) = first else {
                    onEvent(.handshakeFailed(remote: remote, error: "answered \(answer)"))
                    await link.closeGracefully()
                    return .keepListening
                }
                link = link.withPeerName(peerName)
                return await onMatch(&link)
            }
        } catch {
            logger.info("connection from \(remote) ended: \(error)")
            onEvent(.handshakeFailed(remote: remote, error: "\(error)"))
            return .keepListening
        }
    }

    /// Reads the joiner's hello (so closing does not reset the connection under our answer), answers busy, closes.
    private func rejectBusy(_ asyncChannel: GameAsyncChannel, onEvent: @Sendable (Event) -> Void) async {
        let channel = asyncChannel.channel
        let remote = channel.remoteAddress.map(describe) ?? "?"
        onEvent(.rejectedBusy(remote: remote))
        try? await asyncChannel.executeThenClose { inbound, outbound in
            var link = PeerLink(
                peerName: "", role: .host, stats: ConnectionStats(), inbound: inbound.makeAsyncIterator(),
                outbound: outbound, channel: channel, linger: timeouts.linger
            )
            _ = try? await link.next()
            try? await link.send(.reject(reason: .busy, text: "\(hostName) is already playing a game; try again later"))
            await link.closeGracefully()
        }
    }
}

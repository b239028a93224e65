import GamePairing
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

// Binding the listening socket and what its child channel initializer makes of each accepted connection.
extension GameListener {
    /// What the child channel initializer makes of an accepted connection.
    enum Accepted: Sendable {
        /// Its pipeline is set up; a private game's attempt is under way.
        case admitted(GameAsyncChannel, ConnectionStats, PairingGate.Attempt?)
        /// A private game refused it: no handler was added, the accept loop closes it.
        case refused(Channel, source: String, retryAfter: Duration, reason: String)
    }

    typealias ServerChannel = NIOAsyncChannel<Accepted, Never>

    /// Binds where the capability says; every interface is `::` (dual-stack), or 0.0.0.0 when IPv6 is unavailable.
    func bind() async throws -> (ServerChannel, String) {
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

    func bind(host: String, dualStack: Bool) async throws -> ServerChannel {
        let timeouts = self.timeouts
        let security = self.security.pipelineSecurity
        let gate = self.pairingGate
        var bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Room for a burst of connections (an attacker's included) while they are accepted.
            .serverChannelOption(.backlog, value: 512)
            .childChannelOption(.socketOption(.so_keepalive), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
        if dualStack {
            bootstrap = bootstrap.serverChannelOption(ChannelOptions.Types.SocketOption(level: .ipv6, name: .ipv6_v6only), value: 0)
        }
        return try await bootstrap.bind(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture { () throws -> Accepted in
                // A private game decides before the TLS handler exists, so a refused joiner gets no handshake byte.
                var attempt: PairingGate.Attempt?
                switch gate?.admit(channel) {
                case .refused(let retryAfter, let reason)?:
                    let source = PairingGate.source(of: channel).description
                    return .refused(channel, source: source, retryAfter: retryAfter, reason: reason)
                case .proceed(let admitted)?:
                    attempt = admitted
                case nil:
                    break
                }
                let stats = ConnectionStats(remoteAddress: channel.remoteAddress)
                do {
                    let child = try channel.configureGamePipeline(timeouts: timeouts, stats: stats, security: security)
                    self.hold(child)
                    return .admitted(child, stats, attempt)
                } catch {
                    if let attempt { _ = gate?.record(attempt, .otherFailure) }
                    throw error
                }
            }
        }
    }
}

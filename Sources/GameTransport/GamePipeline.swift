import GameWire
import GameProtocol
import NIOCore

/// Timing of a game connection.
public struct ConnectionTimeouts: Sendable, Hashable {
    /// How long the first frame (hello or accept) may take to arrive.
    public var handshake: Duration
    /// How often each side pings once the handshake is done.
    public var pingInterval: Duration
    /// Silence after which the peer counts as vanished. Ping interval + silence stays under 5 s.
    public var silence: Duration
    /// How long a closing side waits for the peer's end after its own last frame before closing hard.
    public var linger: Duration

    public init(
        handshake: Duration = .seconds(5),
        pingInterval: Duration = .seconds(1),
        silence: Duration = .milliseconds(3500),
        linger: Duration = .seconds(2)
    ) {
        self.handshake = handshake
        self.pingInterval = pingInterval
        self.silence = silence
        self.linger = linger
    }

    public static let `default` = ConnectionTimeouts()
}

/// The channel type every game connection uses once its pipeline is configured.
public typealias GameAsyncChannel = NIOAsyncChannel<GameMessage, GameMessage>

extension Channel {
    /// Configures the game pipeline (framing with the length limit, error frames, liveness) and wraps the channel;
    /// with `security`, behind protocol 2's first-bytes sniffer and TLS, so that frames run inside TLS.
    /// Must run on the channel's event loop.
    func configureGamePipeline(
        timeouts: ConnectionTimeouts,
        stats: ConnectionStats,
        maximumFrameLength: Int = GameFrame.defaultMaximumLength,
        security: PipelineSecurity = .plaintext
    ) throws -> GameAsyncChannel {
        let operations = self.pipeline.syncOperations
        switch security {
        case .plaintext: break
        case .host(let host):
            try operations.addHostSecurityHandlers(host, stats: stats, linger: TimeAmount(timeouts.linger))
        case .joiner(let joiner):
            try operations.addJoinerSecurityHandlers(joiner, stats: stats, linger: TimeAmount(timeouts.linger))
        }
        try operations.addHandler(
            GameFrameHandler(timeouts: timeouts, stats: stats, maximumFrameLength: maximumFrameLength))
        return try GameAsyncChannel(
            wrappingChannelSynchronously: self,
            configuration: .init(inboundType: GameMessage.self, outboundType: GameMessage.self)
        )
    }
}

/// Which side of protocol 2 a pipeline is, if any.
enum PipelineSecurity {
    case plaintext
    case host(SecureHost)
    case joiner(SecureJoiner)

    /// 2 inside TLS, 1 in clear (`GameMessage.protocolVersion(encrypted:)`).
    var protocolVersion: UInt8 {
        if case .plaintext = self { return GameMessage.protocolVersion(encrypted: false) }
        return GameMessage.protocolVersion(encrypted: true)
    }
}

extension HostSecurity {
    /// The protocol version this listener speaks: the only one its `HostHandshake` accepts, and its `accept`'s.
    public var protocolVersion: UInt8 { pipelineSecurity.protocolVersion }

    var pipelineSecurity: PipelineSecurity {
        switch self {
        case .plaintext: return .plaintext
        case .tlsPSK(let host): return .host(host)
        }
    }
}

extension JoinerSecurity {
    /// The protocol version this connection speaks: its hello's.
    public var protocolVersion: UInt8 { pipelineSecurity.protocolVersion }

    var pipelineSecurity: PipelineSecurity {
        switch self {
        case .plaintext: return .plaintext
        case .tlsPSK(let joiner): return .joiner(joiner)
        }
    }
}

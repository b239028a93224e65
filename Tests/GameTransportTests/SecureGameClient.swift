import GameProtocol
import GameTransport
import NIOCore
import NIOPosix
import TicTacToeTestSupport

@testable import GameTransport

/// A protocol 2 joiner that speaks game frames, not the handshake: TLS on the test exchange (TestPSKExchange.swift)
/// through the joiner's own pipeline, then whatever first frame a test wants to send (a spectator's hello, an old
/// version) and the host's frames as they come. Ping and pong are handled by the pipeline, as for any peer.
struct SecureGameClient {
    private var inbound: NIOAsyncChannelInboundStream<GameMessage>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<GameMessage>
    /// The TLS session once the handshake completed.
    let stats: ConnectionStats

    fileprivate init(
        inbound: NIOAsyncChannelInboundStream<GameMessage>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<GameMessage>, stats: ConnectionStats
    ) {
        self.inbound = inbound
        self.outbound = outbound
        self.stats = stats
    }

    func send(_ message: GameMessage) async throws {
        try await outbound.write(message)
    }

    /// The next frame from the host, or nil at the end of the stream.
    mutating func next() async throws -> GameMessage? {
        try await inbound.next()
    }

    /// Every frame until the host closes the connection.
    mutating func readToEnd() async throws -> [GameMessage] {
        var messages: [GameMessage] = []
        while let message = try await next() { messages.append(message) }
        return messages
    }
}

/// Connects a `SecureGameClient` on `code`'s test key to 127.0.0.1:`port`, runs `body`, closes. The connection is
/// closed after 20 s at the latest, so a test cannot hang on it.
func withSecureGameClient<T>(
    port: Int, code: String, _ body: (inout SecureGameClient) async throws -> T
) async throws -> T {
    try await withSecureGameClient(port: port, joiner: SecureJoiner { TestJoinerExchange(code: code) }, body)
}

/// The same with any joiner's exchange (the real pairing, say).
func withSecureGameClient<T>(
    port: Int, joiner: SecureJoiner, _ body: (inout SecureGameClient) async throws -> T
) async throws -> T {
    let stats = ConnectionStats()
    let channel = try await ClientBootstrap(group: EventLoops.group)
        .connect(host: loopback, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.configureGamePipeline(timeouts: testTimeouts(), stats: stats, security: .joiner(joiner))
            }
        }
    let raw = channel.channel
    let watchdog = raw.eventLoop.scheduleTask(in: .seconds(20)) { raw.close(promise: nil) }
    defer { watchdog.cancel() }
    return try await channel.executeThenClose { inbound, outbound in
        var client = SecureGameClient(inbound: inbound.makeAsyncIterator(), outbound: outbound, stats: stats)
        return try await body(&client)
    }
}

import GameProtocol
import GameWire
import NIOCore

/// What the first bytes from a peer say about the protocol it speaks: TLS (protocol 2) or a plaintext v1 frame.
///
/// A v1 frame starts with its length, 1...512 as a big-endian UInt16 (so its first byte is 0, 1 or 2), then its type;
/// a joiner's first frame is `hello` (type 0x01). A TLS record starts with its content type: 0x16 for the
/// handshake (a ClientHello, a ServerHello), 0x15 for an alert, 0x14/0x17 for the others; as a v1 length these would
/// all be far above 512, so the two can never be confused.
enum FirstBytes {
    enum Verdict: Sendable, Hashable {
        /// Too few bytes to tell yet.
        case needMore
        /// A TLS record: hand the bytes to TLS.
        case tls
        /// A plaintext v1 frame (from a joiner: a v1 hello).
        case plaintextV1
        /// Neither: hand the bytes to TLS, which fails the handshake with its own reason.
        case other
    }

    /// The first bytes a host received from a joiner.
    static func fromJoiner<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Verdict {
        guard let first = bytes.first else { return .needMore }
        if first == 0x16 { return .tls }
        guard first <= 0x02 else { return .other }
        guard bytes.count >= 3 else { return .needMore }
        let header = Array(bytes.prefix(3))
        let length = Int(header[0]) << 8 | Int(header[1])
        guard (1...GameFrame.defaultMaximumLength).contains(length) else { return .other }
        return header[2] == helloType ? .plaintextV1 : .other
    }

    /// The first bytes a joiner received from a host.
    static func fromHost<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Verdict {
        guard let first = bytes.first else { return .needMore }
        if (0x14...0x17).contains(first) { return .tls }
        guard first <= 0x02 else { return .other }
        guard bytes.count >= 2 else { return .needMore }
        let header = Array(bytes.prefix(2))
        let length = Int(header[0]) << 8 | Int(header[1])
        return (1...GameFrame.defaultMaximumLength).contains(length) ? .plaintextV1 : .other
    }

    /// The type byte of a v1 `hello`.
    static let helloType: UInt8 = 0x01
}

/// The first handler of a protocol-2 pipeline, in front of TLS: it looks at the peer's first bytes and, for TLS,
/// hands them on and leaves the pipeline.
///
/// On the host, a plaintext v1 hello is answered in plaintext v1, `reject(version)` with `v1RejectText`, then a
/// lingering close (our output shut, the peer's bytes discarded until it closes or `linger` passes); the channel then
/// fails with `SecureChannelError.plaintextJoiner`. On the joiner, a plaintext v1 frame from the host (a v1 host's
/// `error` for the TLS bytes it could not read) fails the channel with `SecureChannelError.plaintextHost` and closes
/// it. Nothing of either reaches TLS.
final class FirstBytesSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum Side {
        /// A host: answers v1 joiners, closing after `linger` at the latest.
        case host(linger: TimeAmount)
        case joiner
    }

    /// The text of the plaintext `reject(version)` a v2 host sends a v1 joiner: the same as a v1 hello gets inside
    /// TLS ("this host speaks protocol 2 (encrypted); update tictactoe").
    static let v1RejectText = HostHandshake.versionMismatchText(
        hostVersion: GameMessage.encryptedProtocolVersion, joinerVersion: GameMessage.plaintextProtocolVersion)

    private enum State {
        case sniffing(ByteBuffer?)
        case passing
        /// A plaintext v1 peer: its bytes are discarded; the error goes out when the channel closes.
        case refusing(SecureChannelError)
    }

    private let side: Side
    private var state = State.sniffing(nil)
    private var hardClose: Scheduled<Void>?

    init(side: Side) {
        self.side = side
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .passing:
            context.fireChannelRead(data)
        case .refusing:
            return
        case .sniffing(let pending):
            var bytes = unwrapInboundIn(data)
            if var pending {
                pending.writeBuffer(&bytes)
                bytes = pending
            }
            let verdict: FirstBytes.Verdict
            switch side {
            case .host: verdict = FirstBytes.fromJoiner(bytes.readableBytesView)
            case .joiner: verdict = FirstBytes.fromHost(bytes.readableBytesView)
            }
            switch verdict {
            case .needMore:
                state = .sniffing(bytes)
            case .tls, .other:
                state = .passing
                context.fireChannelRead(wrapInboundOut(bytes))
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            case .plaintextV1:
                refuse(context: context)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        hardClose?.cancel()
        hardClose = nil
        if case .refusing(let error) = state {
            context.fireErrorCaught(error)
        }
        context.fireChannelInactive()
    }

    private func refuse(context: ChannelHandlerContext) {
        switch side {
        case .joiner:
            state = .refusing(.plaintextHost)
            context.close(promise: nil)
        case .host(let linger):
            state = .refusing(.plaintextJoiner)
            var frame = context.channel.allocator.buffer(capacity: 64)
            frame.writeGameMessage(.reject(reason: .version, text: Self.v1RejectText))
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in
                bound.value.close(mode: .output, promise: nil)
            }
            let channel = context.channel
            hardClose = context.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
        }
    }
}

import GameProtocol
import NIOCore

/// What a diverted link delivers, in order, on its event loop: the peer's frames, then one end.
public enum PeerEvent {
    case message(GameMessage)
    /// The peer closed the connection (or its output), or the connection failed: `error` says how (nil: a clean
    /// close). Nothing follows.
    case ended(Error?)
}

/// The last handler of a game pipeline, before NIOAsyncChannel's: passes everything on until a match diverts it,
/// then hands the peer's frames and the connection's end straight to the match's callback, on the event loop, as
/// they are read — no async stream, no task switch per frame.
///
/// The handshake reads its frames through NIOAsyncChannel's inbound stream, which may already hold frames that came
/// right behind the hello or accept when the match begins. The relay counts what it passed on; the link counts what
/// it read, so the match knows how many frames to take from the stream first (`PeerLink.divert`).
final class InboundRelay: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = GameMessage
    typealias InboundOut = GameMessage

    /// Frames passed on to NIOAsyncChannel while not diverted.
    private(set) var passedOn = 0
    /// How the inbound side ended while not diverted (nil while open); NIOAsyncChannel's stream has it after its frames.
    private var endedBeforeDiversion: PeerEvent?
    private var sink: ((PeerEvent) -> Void)?
    private var ended = false

    /// From now on, frames and the end go to `sink` (on the event loop), and no longer to NIOAsyncChannel. Returns how
    /// many frames were passed on before, and whether the stream already ended after them.
    func divert(to sink: @escaping (PeerEvent) -> Void) -> (passedOn: Int, endedAlready: Bool) {
        self.sink = sink
        // The stream says how it ended, after its frames: the link reads it there.
        if endedBeforeDiversion != nil { ended = true }
        return (passedOn, endedBeforeDiversion != nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let sink else {
            passedOn += 1
            context.fireChannelRead(data)
            return
        }
        guard !ended else { return }
        sink(.message(unwrapInboundIn(data)))
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        end(.ended(error))
        context.fireErrorCaught(error)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent { end(.ended(nil)) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end(.ended(nil))
        context.fireChannelInactive()
    }

    private func end(_ event: PeerEvent) {
        guard !ended else { return }
        if let sink {
            ended = true
            sink(event)
        } else if endedBeforeDiversion == nil {
            endedBeforeDiversion = event
        }
    }
}

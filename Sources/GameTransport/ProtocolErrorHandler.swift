import GameProtocol
import NIOCore

/// Turns a framing error (oversized, empty, truncated or unknown frame) into an `error` frame for the peer and a
/// lingering close: our output is shut, the peer's remaining bytes are discarded until it closes (NIO closes the
/// channel at its end of stream) or `linger` passes, and only then does the application see the error. Closing while the peer's bytes sit unread would
/// make the kernel send a reset that can destroy the error frame before the peer reads it.
final class ProtocolErrorHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = GameMessage
    typealias InboundOut = GameMessage
    typealias OutboundIn = GameMessage
    typealias OutboundOut = GameMessage

    private let linger: TimeAmount
    private var pendingError: Error?
    private var hardClose: Scheduled<Void>?

    init(linger: TimeAmount) {
        self.linger = linger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard pendingError == nil else { return }  // draining
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard pendingError == nil else { return }  // later decoder errors while draining
        guard let protocolError = error as? GameProtocolError else {
            context.fireErrorCaught(error)
            return
        }
        pendingError = protocolError
        let frame = GameMessage.error(code: protocolError.errorCode, text: "\(protocolError)")
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(self.wrapOutboundOut(frame)).whenComplete { _ in
            bound.value.close(mode: .output, promise: nil)
        }
        let channel = context.channel
        hardClose = context.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        hardClose?.cancel()
        if let error = pendingError {
            context.fireErrorCaught(error)
        }
        context.fireChannelInactive()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard pendingError == nil else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        context.write(data, promise: promise)
    }
}

import GameWire
import Foundation
import GameProtocol
import NIOCore
#if canImport(Glibc)
import Glibc
import TicTacToeTestSupport
#endif

/// A hand-driven TCP peer on loopback: writes raw bytes or frames and reads frames, for misbehaving-peer tests.
final class RawPeer {
    private var fd: Int32
    private var buffer = ByteBuffer()

    init(port: Int) throws {
        fd = try connectToLoopback(port: port)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// A peer on a socket that `RawHost` accepted (a fake host's side of a connection).
    init(acceptedSocket: Int32) {
        fd = acceptedSocket
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { closeSocket() }

    /// Closes our end, as a well-behaved peer does after reading EOF.
    func closeSocket() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    func send(bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawPeerError.system("send", errno) }
            sent += n
        }
    }

    func send(_ messages: GameMessage...) throws {
        var frame = ByteBuffer()
        for message in messages { frame.writeGameMessage(message) }
        try send(bytes: Array(frame.readableBytesView))
    }

    /// The next frame, skipping pings (answered) and pongs; nil at EOF. Throws on timeout or a bad frame.
    func receive() throws -> GameMessage? {
        var decoder = GameMessageDecoder()
        while true {
            if let message = try decoder.decode(buffer: &buffer) {
                switch message {
                case .ping(let value): try send(.pong(value))
                case .pong: break
                default: return message
                }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return nil }
            guard n > 0 else { throw RawPeerError.system("recv", errno) }
            buffer.writeBytes(chunk[0..<n])
        }
    }

    /// Reads frames until EOF (answering pings); returns them.
    func receiveUntilClosed() throws -> [GameMessage] {
        var messages: [GameMessage] = []
        while let message = try receive() { messages.append(message) }
        closeSocket()
        return messages
    }
}

enum RawPeerError: Error {
    case system(String, Int32)
}

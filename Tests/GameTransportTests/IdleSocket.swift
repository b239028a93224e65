import Foundation
import TicTacToeTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP socket to 127.0.0.1 that a test holds open and feeds by hand: the idle or trickling connection of a
/// host's attacker. Closed when released.
final class IdleSocket: @unchecked Sendable {
    private var fd: Int32

    init(port: Int) throws {
        fd = try connectToLoopback(port: port)
    }

    deinit { closeNow() }

    func closeNow() {
        if fd >= 0 { close(fd) }
        fd = -1
    }

    /// Sends `bytes` (a byte of a hello, say).
    func send(_ bytes: [UInt8]) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw SocketCallError(call: "send", code: errno) }
    }

    /// Whether the host has closed the connection (EOF or reset), discarding what it sent before; waits at most
    /// `timeout` seconds for that.
    func isClosedByPeer(within timeout: Double = 0) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = max(0, Int32(deadline.timeIntervalSinceNow * 1000))
            guard poll(&poller, 1, left) > 0 else { return false }
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 { return true }
            if n < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
        }
    }
}

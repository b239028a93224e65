import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A hand-driven fake host on 127.0.0.1 (a port the kernel picks): accepts one joiner at a time as a `RawPeer`, so a
/// test can answer a real `tictactoe join` with whatever frames it likes (hostile names, reject texts).
final class RawHost {
    private let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawPeerError.system("socket", errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw RawPeerError.system("bind", errno)
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(fd) }

    /// The next joiner, waiting at most `timeout` seconds for it.
    func accept(timeout: Int32 = 30) throws -> RawPeer {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, timeout * 1000) == 1 else { throw RawPeerError.system("accept (nobody came)", ETIMEDOUT) }
        let socket = Glibc.accept(fd, nil, nil)
        guard socket >= 0 else { throw RawPeerError.system("accept", errno) }
        return RawPeer(acceptedSocket: socket)
    }
}

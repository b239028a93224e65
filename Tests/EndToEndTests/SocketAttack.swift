import Foundation
import TicTacToeTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A hostile tester's sockets against a host on 127.0.0.1, run on one thread until `stop()`:
///
/// - `idle` sockets that connect and send nothing; whenever the host drops one (handshake deadline, or closing the
///   oldest of too many), it is opened again at once, so that many are always waiting;
/// - one attacker that reconnects in a loop: it opens and closes a connection every `churnInterval`, and keeps one more
///   connection trickling a hello one byte a second, reconnecting as soon as the host drops it.
final class SocketAttack: @unchecked Sendable {
    struct Figures: CustomStringConvertible {
        /// Idle sockets opened again after the host dropped them.
        var idleReopened = 0
        /// Connections the attacker opened and closed at once.
        var churned = 0
        /// Times the trickling connection was dropped by the host and opened again.
        var trickleReconnects = 0
        /// Connects that failed (the host's backlog full, say).
        var failedConnects = 0

        var description: String {
            "idle sockets reopened \(idleReopened) times, attacker connect/close \(churned) times, "
                + "trickler reconnected \(trickleReconnects) times, failed connects \(failedConnects)"
        }
    }

    private let port: Int
    private let idleCount: Int
    private let churnInterval: Double
    private let lock = NSLock()
    private var stopping = false
    private var figures = Figures()
    private let finished = DispatchSemaphore(value: 0)

    init(port: Int, idle: Int, churnInterval: Double = 0.05) {
        self.port = port
        self.idleCount = idle
        self.churnInterval = churnInterval
    }

    /// Opens the idle sockets (returning once they are all connected), then attacks on a thread of its own.
    func start() {
        let idle = (0..<idleCount).map { _ in connectSocket() }
        let thread = Thread { [self] in
            attack(idle)
            finished.signal()
        }
        thread.start()
    }

    /// Stops the attack and closes every socket; returns what it did. Stopping again returns the same.
    func stop() -> Figures {
        lock.lock()
        let first = !stopping
        stopping = true
        lock.unlock()
        if first { finished.wait() }
        lock.lock()
        defer { lock.unlock() }
        return figures
    }

    /// What the attack has done so far.
    var soFar: Figures {
        lock.lock()
        defer { lock.unlock() }
        return figures
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    private func count(_ update: (inout Figures) -> Void) {
        lock.lock()
        update(&figures)
        lock.unlock()
    }

    private func attack(_ opened: [Int32]) {
        var idle = opened
        var trickler = connectSocket()
        var trickled = 0
        var lastTrickle = Date()
        var lastChurn = Date.distantPast
        // The hello the trickler never finishes: 8 bytes at one a second outlast the 5 s handshake deadline.
        let hello: [UInt8] = [0x00, 0x06, 0x01, 0x01, 0x03, 0x41, 0x6E, 0x6E]
        while !isStopping {
            // Whatever the host closed is opened again.
            var polls = (idle + [trickler]).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&polls, nfds_t(polls.count), 20)
            for (index, entry) in polls.enumerated() where entry.fd >= 0 && entry.revents != 0 {
                guard closedByPeer(entry.fd) else { continue }
                close(entry.fd)
                if index < idle.count {
                    idle[index] = connectSocket()
                    count { $0.idleReopened += 1 }
                } else {
                    trickler = connectSocket()
                    trickled = 0
                    count { $0.trickleReconnects += 1 }
                }
            }
            for index in idle.indices where idle[index] < 0 { idle[index] = connectSocket() }
            if trickler < 0 { trickler = connectSocket() }
            if trickler >= 0, Date().timeIntervalSince(lastTrickle) >= 1 {
                lastTrickle = Date()
                var byte = hello[trickled % hello.count]
                _ = send(trickler, &byte, 1, Int32(MSG_NOSIGNAL))
                trickled += 1
            }
            if Date().timeIntervalSince(lastChurn) >= churnInterval {
                lastChurn = Date()
                let churn = connectSocket()
                if churn >= 0 {
                    close(churn)
                    count { $0.churned += 1 }
                }
            }
        }
        for fd in idle + [trickler] where fd >= 0 { close(fd) }
    }

    /// Reads what is there; true at EOF or on an error (the host closed or reset the connection).
    private func closedByPeer(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n == 0 { return true }
        if n < 0 { return errno != EAGAIN && errno != EWOULDBLOCK }
        return false
    }

    /// A connected socket to the host, or -1.
    private func connectSocket() -> Int32 {
        guard let fd = try? connectToLoopback(port: port) else {
            count { $0.failedConnects += 1 }
            return -1
        }
        return fd
    }

}

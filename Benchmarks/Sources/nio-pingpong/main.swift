// The floor of the app's own stack for `make bench` (issue 15): the C ping-pong's exchange (anchors/pingpong.c: same
// arguments, same output) written the way SwiftNIO does it best — channel handlers only, no async bridging, no game
// code — with, on `--tls`, the app's TLS 1.2 PSK (ECDHE-PSK-CHACHA20-POLY1305 in NIOSSL's BoringSSL) on both ends.
// Whatever the app's round trip costs above this is ours to cut; what this costs above the C program is the price of
// NIO and NIOSSL themselves.
//
// With `--async` both ends go through structured concurrency the way the app's match does: NIOAsyncChannel's inbound
// stream read in a loop by a task that prefers the connection's event loop as its executor, each answer written with
// its outbound writer (one awaited write per frame); what this adds to the handler version is the price of the
// async bridge alone.
//
//   nio-pingpong server PORT [--tls] [--async]                          prints "listening PORT"; answers forever
//   nio-pingpong client HOST PORT REQ_BYTES REPLY_BYTES N WARMUP OUT_FILE [--tls] [--async]
//                                                                       WARMUP + N round trips; N times in ns to OUT_FILE
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#endif

/// The same key on both ends: what the app's CPace would have agreed on.
let psk = NIOSSLSecureBytes([UInt8](repeating: 0x5A, count: 32))

func tlsConfiguration() -> TLSConfiguration {
    var configuration = TLSConfiguration.makePreSharedKeyConfiguration()
    configuration.cipherSuites = "ECDHE-PSK-CHACHA20-POLY1305"
    configuration.minimumTLSVersion = .tlsv12
    configuration.maximumTLSVersion = .tlsv12
    configuration.certificateVerification = .none
    configuration.renegotiationSupport = .none
    return configuration
}

func fail(_ text: String) -> Never {
    let line = "nio-pingpong: \(text)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

func monotonicNS() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// Answers every REQ-byte request with REPLY bytes; the sizes come first (two big-endian UInt32s).
final class Answerer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private var sizes: (request: Int, reply: Int)?
    private var pending = 0
    private var buffered: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if sizes == nil {
            buffered.setOrWriteBuffer(&incoming)
            guard var head = buffered, head.readableBytes >= 8,
                  let request = head.readInteger(as: UInt32.self), let reply = head.readInteger(as: UInt32.self)
            else { return }
            sizes = (Int(request), Int(reply))
            buffered = nil
            incoming = head
        }
        guard let sizes else { return }
        pending += incoming.readableBytes
        var answered = false
        while pending >= sizes.request {
            pending -= sizes.request
            context.write(wrapOutboundOut(context.channel.allocator.buffer(repeating: 0, count: sizes.reply)),
                          promise: nil)
            answered = true
        }
        if answered { context.flush() }
    }
}

/// Sends a request, waits for the whole reply, stamps the round trip, sends the next.
final class Asker: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let request: Int, reply: Int, total: Int
    let done: EventLoopPromise<[UInt64]>
    private var received = 0
    private var sentAt: UInt64 = 0
    private var times: [UInt64] = []

    init(request: Int, reply: Int, total: Int, done: EventLoopPromise<[UInt64]>) {
        self.request = request
        self.reply = reply
        self.total = total
        self.done = done
        times.reserveCapacity(total)
    }

    func channelActive(context: ChannelHandlerContext) {
        var head = context.channel.allocator.buffer(capacity: 8)
        head.writeInteger(UInt32(request))
        head.writeInteger(UInt32(reply))
        context.write(wrapOutboundOut(head), promise: nil)
        ask(context)
    }

    private func ask(_ context: ChannelHandlerContext) {
        sentAt = monotonicNS()
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(repeating: 0, count: request)),
                              promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        received += unwrapInboundIn(data).readableBytes
        guard received >= reply else { return }
        received -= reply
        times.append(monotonicNS() - sentAt)
        if times.count == total {
            done.succeed(times)
            context.close(promise: nil)
        } else {
            ask(context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        done.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.fail(ChannelError.ioOnClosedChannel)  // ignored once it succeeded
    }
}

/// Runs a task's jobs on one event loop (as the app's `EventLoopTaskExecutor`).
final class LoopExecutor: TaskExecutor {
    let loop: any EventLoop
    init(_ loop: any EventLoop) { self.loop = loop }
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Reads whole frames of `size` bytes from an async inbound iterator.
struct FrameReader {
    var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    var pending = 0

    /// Consumes `size` bytes; false at end of stream.
    mutating func next(_ size: Int) async throws -> Bool {
        while pending < size {
            guard let buffer = try await iterator.next() else { return false }
            pending += buffer.readableBytes
        }
        pending -= size
        return true
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
let tls = arguments.contains("--tls")
let async = arguments.contains("--async")
arguments.removeAll { $0 == "--tls" || $0 == "--async" }
// One thread, as the app's headless host and joiner have (the singleton group's loops are used one per connection).
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

switch arguments.first {
case "server" where arguments.count == 2:
    guard let port = Int(arguments[1]) else { fail("bad port") }
    let context = tls ? try NIOSSLContext(configuration: {
        var configuration = tlsConfiguration()
        configuration.pskHint = "bench"
        configuration.pskServerProvider = { _ in PSKServerIdentityResponse(key: psk) }
        return configuration
    }()) : nil
    if async {
        let server = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .bind(host: "0.0.0.0", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        print("listening \(server.channel.localAddress?.port ?? 0)")
        fflush(nil)
        try await server.executeThenClose { connections in
            for try await connection in connections {
                try? await withTaskExecutorPreference(LoopExecutor(connection.channel.eventLoop)) {
                    try await connection.executeThenClose { inbound, outbound in
                        var reader = FrameReader(iterator: inbound.makeAsyncIterator())
                        guard try await reader.next(8) else { return }
                        // The sizes are the client's first 8 bytes; the bench always asks 4 for 4.
                        while try await reader.next(4) {
                            try await outbound.write(ByteBuffer(repeating: 0, count: 4))
                        }
                    }
                }
            }
        }
    } else {
        let server = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }
                    try channel.pipeline.syncOperations.addHandler(Answerer())
                }
            }
            .bind(host: "0.0.0.0", port: port).wait()
        print("listening \(server.localAddress?.port ?? 0)")
        fflush(nil)
        try server.closeFuture.wait()
    }
case "client" where arguments.count == 8:
    guard let port = Int(arguments[2]), let request = Int(arguments[3]), let reply = Int(arguments[4]),
          let count = Int(arguments[5]), let warmup = Int(arguments[6]), request > 0, reply > 0, count > 0, warmup >= 0
    else { fail("bad numbers") }
    let context = tls ? try NIOSSLContext(configuration: {
        var configuration = tlsConfiguration()
        configuration.pskClientProvider = { _ in PSKClientIdentityResponse(key: psk, identity: "bench") }
        return configuration
    }()) : nil
    let loop = group.next()
    let all: [UInt64]
    if async {
        let connection = try await ClientBootstrap(group: loop)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connect(host: arguments[1], port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: context, serverHostname: nil))
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        all = try await withTaskExecutorPreference(LoopExecutor(loop)) {
            try await connection.executeThenClose { inbound, outbound in
                var reader = FrameReader(iterator: inbound.makeAsyncIterator())
                var head = ByteBuffer()
                head.writeInteger(UInt32(request))
                head.writeInteger(UInt32(reply))
                try await outbound.write(head)
                var times: [UInt64] = []
                times.reserveCapacity(warmup + count)
                for _ in 0..<(warmup + count) {
                    let sentAt = monotonicNS()
                    try await outbound.write(ByteBuffer(repeating: 0, count: request))
                    guard try await reader.next(reply) else { fail("the server closed") }
                    times.append(monotonicNS() - sentAt)
                }
                return times
            }
        }
    } else {
        let done = loop.makePromise(of: [UInt64].self)
        _ = try ClientBootstrap(group: loop)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let context {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: context, serverHostname: nil))
                    }
                    try channel.pipeline.syncOperations.addHandler(
                        Asker(request: request, reply: reply, total: warmup + count, done: done))
                }
            }
            .connect(host: arguments[1], port: port).wait()
        all = try done.futureResult.wait()
    }
    let times = all.dropFirst(warmup)
    guard let file = fopen(arguments[7], "w") else { fail("cannot write \(arguments[7])") }
    for time in times { fputs("\(time)\n", file) }
    fclose(file)
default:
    fail("usage: nio-pingpong server PORT [--tls] [--async] | client HOST PORT REQ_BYTES REPLY_BYTES N WARMUP OUT_FILE [--tls] [--async]")
}

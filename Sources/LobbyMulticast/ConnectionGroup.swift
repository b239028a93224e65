import AppManifest
import GameTransport
import LocalNetworkPrivacy
import Logging
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A multicast group conversation in the spirit of Network.framework's NWConnectionGroup: made from the gate's
/// `MulticastCapability` (so nothing joins a group without the multicast entitlement and local network permission),
/// it joins the group's IPv4 and IPv6 addresses on one interface (TTL and hop limit 1: nothing leaves the link), goes
/// through `State`s, hands each message to a receive handler (messages over `maximumMessageSize` are rejected, and
/// counted), replies to one message's sender, paces sends (a send starts when the previous one completed), and stops
/// with `cancel()`.
///
/// Tested in the LAN lab only (never in the machine's own network namespace): `tictactoe lobby`.
public final class ConnectionGroup: Sendable {
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// Made, not started.
        case setup
        /// Started, but no interface can carry the group yet (no multicast-capable interface up with an address of
        /// the group's family); it tries again every `retryInterval`.
        case waiting(String)
        /// Joined: messages come in, sends go out.
        case ready
        /// Could not bind or join (the reason); the group is closed.
        case failed(String)
        /// `cancel()` was called.
        case cancelled

        public var description: String {
            switch self {
            case .setup: return "setup"
            case .waiting(let reason): return "waiting (\(reason))"
            case .ready: return "ready"
            case .failed(let reason): return "failed (\(reason))"
            case .cancelled: return "cancelled"
            }
        }
    }

    /// One datagram from the group (or a reply to us), and who sent it.
    public struct Message: Sendable {
        public let bytes: [UInt8]
        public let sender: SocketAddress
    }

    public struct Parameters: Sendable {
        /// Messages longer than this are rejected (not handed to the receive handler).
        public var maximumMessageSize: Int
        /// The interface to join on (e.g. "eth0"); nil: the first one up that supports multicast and has an address
        /// of the group's family (loopback excluded).
        public var interface: String?
        /// How often to look again for an interface while waiting.
        public var retryInterval: Duration

        public init(maximumMessageSize: Int = 512, interface: String? = nil, retryInterval: Duration = .seconds(2)) {
            self.maximumMessageSize = maximumMessageSize
            self.interface = interface
            self.retryInterval = retryInterval
        }
    }

    public enum SendError: Error, Sendable, Hashable, CustomStringConvertible {
        case notReady(State)
        case tooLong(Int, maximum: Int)

        public var description: String {
            switch self {
            case .notReady(let state): return "the group is not ready (\(state))"
            case .tooLong(let count, let maximum): return "a message of \(count) bytes is longer than \(maximum)"
            }
        }
    }

    public let capability: MulticastCapability
    public let parameters: Parameters
    private let eventLoop: EventLoop
    private let logger: Logger
    private let state = Mutex(Inner())

    private struct Inner {
        var state: State = .setup
        var channels: [Joined] = []
        var stateHandler: (@Sendable (State) -> Void)?
        var receiveHandler: (@Sendable (Message) -> Void)?
        var lastSend: EventLoopFuture<Void>?
        var rejectedOversized = 0
        var rejectedOffLink = 0
        var retry: Scheduled<Void>?
        var joinedOn: [String] = []
    }

    /// One joined socket: its family's group address.
    private struct Joined: Sendable {
        let channel: Channel
        let group: SocketAddress
    }

    public init(
        capability: MulticastCapability, parameters: Parameters = Parameters(),
        group: EventLoopGroup = EventLoops.group, logger: Logger = Logger(label: "tictactoe.group")
    ) {
        self.capability = capability
        self.parameters = parameters
        self.eventLoop = group.next()
        self.logger = logger
    }

    public var currentState: State { state.withLock { $0.state } }
    /// Messages rejected for being longer than `maximumMessageSize`.
    public var rejectedOversized: Int { state.withLock { $0.rejectedOversized } }
    /// Datagrams dropped because they did not come from the link (an IPv4 source outside the interface's subnet, an
    /// IPv6 source that is not link-local): the group's TTL of 1 means a member is always on the link.
    public var rejectedOffLink: Int { state.withLock { $0.rejectedOffLink } }
    /// Where the group was joined (ready only): "239.255.77.77 on eth0 (192.168.1.20)".
    public var joinedOn: [String] { state.withLock { $0.joinedOn } }

    /// Starts: the state handler gets each new state, the receive handler each message (on the group's event loop:
    /// return quickly).
    public func start(
        stateUpdate: @escaping @Sendable (State) -> Void, receive: @escaping @Sendable (Message) -> Void
    ) {
        let go = state.withLock { inner -> Bool in
            guard case .setup = inner.state else { return false }
            inner.stateHandler = stateUpdate
            inner.receiveHandler = receive
            return true
        }
        guard go else { return }
        eventLoop.execute { self.attempt() }
    }

    /// Sends `bytes` to the group (on each family joined). Paced: it starts when the previous send completed, and
    /// returns when this one did.
    public func send(_ bytes: [UInt8]) async throws {
        try await enqueue(bytes) { joined in [(joined.channel, joined.group)] }
    }

    /// Sends `bytes` to the sender of `message` only (unicast), paced like `send`.
    public func reply(to message: Message, _ bytes: [UInt8]) async throws {
        try await enqueue(bytes) { joined in
            joined.group.protocol == message.sender.protocol ? [(joined.channel, message.sender)] : []
        }
    }

    /// Leaves the group and closes its sockets; the state becomes `.cancelled`.
    public func cancel() {
        let (channels, handler, retry) = state.withLock { inner in
            defer {
                // The handlers go too: they may hold their owner (which holds the group) until then.
                inner.channels = []
                inner.retry = nil
                inner.stateHandler = nil
                inner.receiveHandler = nil
            }
            if case .cancelled = inner.state { return ([Joined](), (@Sendable (State) -> Void)?.none, inner.retry) }
            inner.state = .cancelled
            return (inner.channels, inner.stateHandler, inner.retry)
        }
        retry?.cancel()
        for joined in channels { joined.channel.close(promise: nil) }
        handler?(.cancelled)
    }

    // MARK: Sending

    private func enqueue(
        _ bytes: [UInt8], targets: @escaping @Sendable (Joined) -> [(Channel, SocketAddress)]
    ) async throws {
        guard bytes.count <= parameters.maximumMessageSize else {
            throw SendError.tooLong(bytes.count, maximum: parameters.maximumMessageSize)
        }
        let eventLoop = self.eventLoop
        let logger = self.logger
        let future: EventLoopFuture<Void> = try state.withLock { inner in
            guard case .ready = inner.state else { throw SendError.notReady(inner.state) }
            let previous = inner.lastSend ?? eventLoop.makeSucceededVoidFuture()
            let channels = inner.channels
            let next = previous.flatMapError { _ in eventLoop.makeSucceededVoidFuture() }.flatMap {
                let writes = channels.flatMap(targets).map { channel, address in
                    var buffer = channel.allocator.buffer(capacity: bytes.count)
                    buffer.writeBytes(bytes)
                    return channel.writeAndFlush(AddressedEnvelope(remoteAddress: address, data: buffer))
                        .flatMapErrorThrowing { error in
                            // One family failing (no route for it) does not fail the other's send.
                            logger.debug("group send to \(address): \(error)")
                            throw error
                        }
                }
                return EventLoopFuture.whenAllComplete(writes, on: eventLoop).flatMapThrowing { results in
                    // Sent if any family sent it.
                    if !results.isEmpty, results.allSatisfy({ if case .failure = $0 { return true } else { return false } }),
                       case .failure(let error) = results[0]
                    {
                        throw error
                    }
                }
            }
            inner.lastSend = next
            return next
        }
        try await future.get()
    }

    // MARK: Joining

    /// On the event loop: find an interface, bind and join each family, or wait and try again.
    private func attempt() {
        switch currentState {
        case .setup, .waiting: joinAll()
        case .ready, .failed, .cancelled: return
        }
    }

    private func joinAll() {
        let group = capability.group
        let families: [(String, Bool)] = [group.ipv4.map { ($0, false) }, group.ipv6.map { ($0, true) }].compactMap { $0 }
        let devices: [NIONetworkDevice]
        do {
            devices = try System.enumerateDevices()
        } catch {
            return fail("cannot list the network interfaces: \(error)")
        }
        var plans: [(address: String, device: NIONetworkDevice, v6: Bool)] = []
        for (address, v6) in families {
            // Both families on one interface where it can be (the IPv4 one's, when no name is given).
            let name = parameters.interface ?? plans.first?.device.name
            if let device = Self.device(for: v6, among: devices, named: name)
                ?? Self.device(for: v6, among: devices, named: parameters.interface)
            {
                plans.append((address, device, v6))
            }
        }
        guard !plans.isEmpty else {
            guard let name = parameters.interface else {
                return wait("no multicast-capable interface (other than loopback) has an address for \(group) yet; "
                            + "to use one interface, name it (--interface)")
            }
            return wait("interface \(name) does not support multicast or has no address for \(group) yet; "
                        + "`ip addr` lists the interfaces")
        }
        let chosen = plans
        let futures = chosen.map { plan in bind(plan.address, device: plan.device, v6: plan.v6) }
        EventLoopFuture.whenAllComplete(futures, on: eventLoop).whenComplete { result in
            let joined = (try? result.get())?.compactMap { try? $0.get() } ?? []
            let errors = (try? result.get())?.compactMap { outcome -> String? in
                if case .failure(let error) = outcome { return "\(error)" } else { return nil }
            } ?? []
            guard !joined.isEmpty else {
                return self.fail("cannot join \(group): \(errors.joined(separator: "; "))")
            }
            for error in errors { self.logger.warning("multicast group \(group): one family not joined: \(error)") }
            let on = chosen.filter { plan in joined.contains { $0.group.ipAddress == (try? SocketAddress(ipAddress: plan.address, port: 0))?.ipAddress } }
                .map { "\($0.address) on \($0.device.name) (\($0.device.address?.ipAddress ?? "?"))" }
            let handler = self.state.withLock { inner -> (@Sendable (State) -> Void)? in
                guard case .cancelled = inner.state else {
                    inner.joinedOn = on
                    inner.channels = joined
                    inner.state = .ready
                    return inner.stateHandler
                }
                return nil
            }
            guard let handler else {
                for item in joined { item.channel.close(promise: nil) }
                return
            }
            self.logger.info("multicast group joined: \(on.joined(separator: ", ")), port \(group.port)")
            handler(.ready)
        }
    }

    /// Binds the family's wildcard address on the group's port (shared with other processes: SO_REUSEADDR), joins the
    /// group on `device`, sends on `device` with TTL (hop limit) 1.
    private func bind(_ address: String, device: NIONetworkDevice, v6: Bool) -> EventLoopFuture<Joined> {
        let port = capability.group.port
        let maximum = parameters.maximumMessageSize
        var bootstrap = DatagramBootstrap(group: eventLoop)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            // One byte more than the maximum: a longer datagram arrives truncated to maximum + 1, so it is seen.
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: maximum + 1))
            .channelInitializer { [onLink = Self.onLink(device: device, v6: v6)] channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Receiver(group: self, onLink: onLink))
                }
            }
        if v6 {
            bootstrap = bootstrap
                .channelOption(ChannelOptions.Types.SocketOption(level: .ipv6, name: .ipv6_v6only), value: 1)
                // Linux: only the groups this socket joined (IPV6_MULTICAST_ALL, 29), not every group any socket did.
                .channelOption(ChannelOptions.Types.SocketOption(level: .ipv6, name: NIOBSDSocket.Option(rawValue: 29)), value: 0)
        } else {
            // Linux: IP_MULTICAST_ALL (49) off, as above.
            bootstrap = bootstrap.channelOption(
                ChannelOptions.Types.SocketOption(level: .ip, name: NIOBSDSocket.Option(rawValue: 49)), value: 0)
        }
        return bootstrap.bind(host: v6 ? "::" : "0.0.0.0", port: port).flatMap { channel in
            // NIOPosix's datagram channels are both; anything else cannot join a group.
            guard let multicast = channel as? MulticastChannel, let options = channel as? SocketOptionProvider else {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
            }
            do {
                let group = try SocketAddress(ipAddress: address, port: port)
                let interfaceSet: EventLoopFuture<Void>
                if v6 {
                    interfaceSet = options.setIPv6MulticastIF(CUnsignedInt(device.interfaceIndex))
                        .flatMap { options.setIPv6MulticastHops(1) }
                        .flatMap { options.setIPv6MulticastLoop(1) }
                } else {
                    guard case .v4(let local)? = device.address else {
                        throw ChannelError.badInterfaceAddressFamily
                    }
                    interfaceSet = options.setIPMulticastIF(local.address.sin_addr)
                        .flatMap { options.setIPMulticastTTL(1) }
                        .flatMap { options.setIPMulticastLoop(1) }
                }
                return interfaceSet
                    .flatMap { multicast.joinGroup(group, device: device) }
                    .map { Joined(channel: channel, group: group) }
                    .flatMapErrorThrowing { error in
                        channel.close(promise: nil)
                        throw error
                    }
            } catch {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(error)
            }
        }
    }

    /// The interface to use for a family: `name` if given, else the first up, multicast-capable, non-loopback one.
    static func device(for v6: Bool, among devices: [NIONetworkDevice], named name: String?) -> NIONetworkDevice? {
        devices.first { device in
            guard let address = device.address else { return false }
            let family: Bool
            switch address {
            case .v4: family = !v6
            case .v6: family = v6
            case .unixDomainSocket: family = false
            }
            guard family, device.multicastSupported else { return false }
            if let name { return device.name == name }
            return device.name != "lo" && !Loopback.isLoopback(host: address.ipAddress ?? "")
        }
    }

    /// Whether a source is on the link: in the interface's IPv4 subnet, or an IPv6 link-local address.
    static func onLink(device: NIONetworkDevice, v6: Bool) -> @Sendable (SocketAddress) -> Bool {
        if v6 {
            return { source in
                guard case .v6(let address) = source else { return false }
                let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
                return bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80  // fe80::/10
            }
        }
        guard case .v4(let local)? = device.address, case .v4(let mask)? = device.netmask else { return { _ in false } }
        let network = local.address.sin_addr.s_addr & mask.address.sin_addr.s_addr
        let netmask = mask.address.sin_addr.s_addr
        return { source in
            guard case .v4(let address) = source else { return false }
            return address.address.sin_addr.s_addr & netmask == network
        }
    }

    private func wait(_ reason: String) {
        let (handler, changed) = state.withLock { inner -> ((@Sendable (State) -> Void)?, Bool) in
            if case .cancelled = inner.state { return (nil, false) }
            let changed = inner.state != .waiting(reason)
            inner.state = .waiting(reason)
            inner.retry = eventLoop.scheduleTask(in: TimeAmount(parameters.retryInterval)) { self.attempt() }
            return (inner.stateHandler, changed)
        }
        if changed {
            logger.info("multicast group \(capability.group): waiting: \(reason)")
            handler?(.waiting(reason))
        }
    }

    private func fail(_ reason: String) {
        let handler = state.withLock { inner -> (@Sendable (State) -> Void)? in
            if case .cancelled = inner.state { return nil }
            inner.state = .failed(reason)
            for joined in inner.channels { joined.channel.close(promise: nil) }
            inner.channels = []
            return inner.stateHandler
        }
        logger.error("multicast group \(capability.group): \(reason)")
        handler?(.failed(reason))
    }

    fileprivate func droppedOffLink(_ source: SocketAddress) {
        state.withLock { $0.rejectedOffLink += 1 }
        logger.debug("multicast group: dropped a datagram from \(source), which is not on the link")
    }

    fileprivate func received(_ envelope: AddressedEnvelope<ByteBuffer>) {
        let bytes = Array(envelope.data.readableBytesView)
        let handler = state.withLock { inner -> (@Sendable (Message) -> Void)? in
            guard case .ready = inner.state else { return nil }
            guard bytes.count <= parameters.maximumMessageSize else {
                inner.rejectedOversized += 1
                return nil
            }
            return inner.receiveHandler
        }
        if bytes.count > parameters.maximumMessageSize {
            logger.debug("multicast group: rejected a message from \(envelope.remoteAddress) over \(parameters.maximumMessageSize) bytes")
        }
        handler?(Message(bytes: bytes, sender: envelope.remoteAddress))
    }

    private final class Receiver: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        // The group outlives its channels' handlers only through this reference; the group closes them on cancel.
        let group: ConnectionGroup
        let onLink: @Sendable (SocketAddress) -> Bool
        init(group: ConnectionGroup, onLink: @escaping @Sendable (SocketAddress) -> Bool) {
            self.group = group
            self.onLink = onLink
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let envelope = Self.unwrapInboundIn(data)
            guard onLink(envelope.remoteAddress) else { return group.droppedOffLink(envelope.remoteAddress) }
            group.received(envelope)
        }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            // A datagram error (an ICMP unreachable for a reply, a truncation) is not the end of the group.
            group.logger.debug("multicast group socket: \(error)")
        }
    }
}

import AppCore
import GameClient
import GameProtocol
import HeadlessUI
import JSONLines
import LocalNetworkPrivacy
import MatchPlay
import TicTacToeTestSupport
import XCTest

/// Where joiners reach a host: the ordering of this machine's interface addresses, and the lines
/// the transcript and `--json` print with them.
final class JoinAddressesTests: XCTestCase {
    private func v4(_ interface: String, _ address: String, up: Bool = true, loopback: Bool = false) -> InterfaceAddress {
        InterfaceAddress(interface: interface, family: .ipv4, address: address, isUp: up, isLoopback: loopback)
    }

    private func v6(_ interface: String, _ address: String, up: Bool = true, loopback: Bool = false) -> InterfaceAddress {
        InterfaceAddress(interface: interface, family: .ipv6, address: address, isUp: up, isLoopback: loopback)
    }

    /// A machine with loopback, two LAN interfaces, a down interface and a few odd entries.
    private var machine: [InterfaceAddress] {
        [
            v4("lo", "127.0.0.1", loopback: true),
            v6("lo", "::1", loopback: true),
            v6("eth0", "fe80::a8c1:abff:fe12:3456%eth0"),
            v6("eth0", "2001:DB8::5"),
            v4("eth0", "192.168.1.20"),
            v6("eth0", "fd00:1::20"),
            v4("eth1", "198.18.0.12"),
            v6("eth1", "fe80::1%eth1"),
            v4("docker0", "172.17.0.1", up: false),
            v6("eth1", "::ffff:198.18.0.12"),  // IPv4-mapped: never a joiner's address
            v4("eth2", "192.168.1.20"),  // the same address on a second interface
            v6("eth2", "fe80::1%eth2"),  // the same link-local address on another link
            v4("wlan0", "169.254.7.7"),
            v6("tun0", "ff02::1"),
            v4("odd", "not an address"),
        ]
    }

    private func texts(_ addresses: [JoinAddress]) -> [String] { addresses.map(\.description) }

    func testEveryInterfaceListsIPv4ThenIPv6ThenLinkLocalLastWithoutLoopbackOrDuplicates() {
        let addresses = JoinAddresses.list(listeningOn: "::", port: 7990, interfaces: machine)
        XCTAssertEqual(texts(addresses), [
            "192.168.1.20:7990", "198.18.0.12:7990",
            "[2001:db8::5]:7990", "[fd00:1::20]:7990",
            "169.254.7.7:7990",
            "[fe80::a8c1:abff:fe12:3456]:7990", "[fe80::1]:7990",
        ])
        XCTAssertEqual(addresses.map(\.kind), [.routable, .routable, .routable, .routable, .routable, .linkLocal, .linkLocal])
        XCTAssertFalse(addresses.onlyThisMachine)
    }

    func testIPv4OnlyListenerListsIPv4Only() {
        let addresses = JoinAddresses.list(listeningOn: "0.0.0.0", port: 7878, interfaces: machine)
        XCTAssertEqual(texts(addresses), ["192.168.1.20:7878", "198.18.0.12:7878", "169.254.7.7:7878"])
    }

    func testOneBoundAddressIsTheOnlyOneListed() {
        XCTAssertEqual(texts(JoinAddresses.list(listeningOn: "198.18.0.12", port: 7990, interfaces: machine)),
                       ["198.18.0.12:7990"])
        XCTAssertEqual(texts(JoinAddresses.list(listeningOn: "2001:db8::5", port: 7990, interfaces: machine)),
                       ["[2001:db8::5]:7990"])
        XCTAssertEqual(texts(JoinAddresses.list(listeningOn: "::ffff:198.18.0.12", port: 1, interfaces: machine)),
                       ["198.18.0.12:1"])
        let linkLocal = JoinAddresses.list(listeningOn: "fe80::1%eth1", port: 7990, interfaces: machine)
        XCTAssertEqual(linkLocal, [JoinAddress(host: "fe80::1", port: 7990, kind: .linkLocal)])
    }

    func testLoopbackMeansOnlyThisMachine() {
        for host in ["127.0.0.1", "::1", "localhost"] {
            let addresses = JoinAddresses.list(listeningOn: host, port: 7990, interfaces: machine)
            XCTAssertEqual(addresses, [JoinAddress(host: host, port: 7990, kind: .loopback)], host)
            XCTAssertTrue(addresses.onlyThisMachine, host)
        }
    }

    func testAMachineWithLoopbackOnlyHasNoJoinAddress() {
        let addresses = JoinAddresses.list(
            listeningOn: "::", port: 7990,
            interfaces: [v4("lo", "127.0.0.1", loopback: true), v6("lo", "::1", loopback: true),
                         v4("eth0", "192.0.2.1", up: false)])
        XCTAssertEqual(addresses, [])
        XCTAssertFalse(addresses.onlyThisMachine)
    }

    func testTheLiveListingReadsThisMachinesInterfaces() {
        // Every machine the tests run on has a loopback interface with 127.0.0.1.
        let current = InterfaceAddress.current()
        XCTAssertTrue(current.contains { $0.isLoopback && $0.family == .ipv4 && $0.address == "127.0.0.1" }, "\(current)")
        XCTAssertFalse(JoinAddresses.list(listeningOn: "::", port: 1, interfaces: current)
            .contains { $0.host == "127.0.0.1" || $0.host == "::1" })
    }

    // MARK: What the transcript and --json print

    private func transcript(_ reports: [MatchReport]) -> [String] {
        let out = Recorder<String>()
        let reporter = TranscriptReporter(localName: "Carol", write: { out.append($0) }, writeError: { out.append($0) })
        for report in reports { reporter.report(report) }
        return out.all
    }

    func testTheTranscriptPrintsTheJoinLineForEveryAddress() {
        let addresses = JoinAddresses.list(listeningOn: "::", port: 7990, interfaces: machine)
        XCTAssertEqual(transcript([.listening(host: "::", port: 7990, name: "Carol", addresses: addresses)]), [
            "Hosting as Carol on port 7990. Join with: tictactoe join 192.168.1.20:7990",
            "  or: tictactoe join 198.18.0.12:7990",
            "  or: tictactoe join [2001:db8::5]:7990",
            "  or: tictactoe join [fd00:1::20]:7990",
            "  or: tictactoe join 169.254.7.7:7990",
            "  or: tictactoe join [fe80::a8c1:abff:fe12:3456]:7990 (link-local: this link only; join finds its own interface)",
            "  or: tictactoe join [fe80::1]:7990 (link-local: this link only; join finds its own interface)",
        ])
    }

    func testTheTranscriptKeepsThePrivateAndPlaintextVariants() {
        let one = [JoinAddress(host: "198.18.0.12", port: 7990, kind: .routable),
                   JoinAddress(host: "2001:db8::5", port: 7990, kind: .routable)]
        XCTAssertEqual(transcript([.listening(host: "::", port: 7990, name: "Carol", security: .private, addresses: one)]), [
            "Hosting as Carol on port 7990. Join with: tictactoe join 198.18.0.12:7990 --code-file FILE (a private game: the code is on stderr)",
            "  or: tictactoe join [2001:db8::5]:7990 --code-file FILE",
        ])
        XCTAssertEqual(transcript([.listening(host: "::", port: 7990, name: "Carol", security: .plaintext,
                                              addresses: Array(one.prefix(1)))]),
                       ["Hosting as Carol on port 7990. Join with: tictactoe join 198.18.0.12:7990 --plaintext (unencrypted)"])
    }

    func testTheTranscriptSaysWhenOnlyThisMachineOrNobodyCanJoin() {
        let loopback = JoinAddresses.list(listeningOn: "127.0.0.1", port: 7990, interfaces: machine)
        XCTAssertEqual(transcript([.listening(host: "127.0.0.1", port: 7990, name: "Carol", addresses: loopback)]), [
            "Hosting as Carol on 127.0.0.1:7990: only this machine can join. Join with: tictactoe join 127.0.0.1:7990",
        ])
        XCTAssertEqual(transcript([.listening(host: "::", port: 7990, name: "Carol", addresses: [])]), [
            "Hosting as Carol on port 7990. Join with: tictactoe join ADDRESS:7990 (this machine has no network address now: see ip addr)",
        ])
    }

    func testTheTranscriptAnnouncesTheAddressesOnceAndThenWaits() {
        let one = [JoinAddress(host: "198.18.0.12", port: 7990, kind: .routable)]
        let listening = MatchReport.listening(host: "::", port: 7990, name: "Carol", addresses: one)
        XCTAssertEqual(transcript([listening, listening]), [
            "Hosting as Carol on port 7990. Join with: tictactoe join 198.18.0.12:7990",
            "Waiting for the next joiner at 198.18.0.12:7990",
        ])
        let nowhere = MatchReport.listening(host: "::", port: 7990, name: "Carol", addresses: [])
        XCTAssertEqual(transcript([nowhere, nowhere]).last, "Waiting for the next joiner at [::]:7990")
    }

    func testTheJSONListeningEventCarriesTheAddressesLinkLocalLast() throws {
        let addresses = JoinAddresses.list(
            listeningOn: "::", port: 7990,
            interfaces: [v6("eth0", "fe80::1%eth0"), v6("eth0", "2001:db8::5"), v4("eth0", "198.18.0.12")])
        XCTAssertEqual(
            try JSONEvent.line(.listening(host: "::", port: 7990, name: "Carol", addresses: addresses)),
            #"{"addresses":["198.18.0.12:7990","[2001:db8::5]:7990","[fe80::1]:7990"],"event":"listening","host":"::","name":"Carol","port":7990,"private":false,"secure":true}"#)
    }

    // MARK: A link-local address typed or pasted on the joiner

    /// A bare link-local address, or one with another machine's interface (a host's join line), is tried on each of
    /// this machine's interfaces that is up with IPv6; one with an interface of this machine is tried as written.
    func testALinkLocalAddressIsTriedOnEachInterfaceUpUnlessItNamesOneOfThisMachine() throws {
        let joiner = [
            v6("lo", "::1", loopback: true),
            v6("wlp2s0", "fe80::ff:fe00:c%wlp2s0"),
            v4("wlp2s0", "198.18.0.12"),
            v6("enx0", "fe80::2"),
            v6("docker0", "fe80::3", up: false),
            v6("enx0", "fe80::4"),  // a second link-local address on the same interface
        ]
        let tried = { (text: String) in
            try JoinAddresses.zoned(try Endpoint(parsing: text), interfaces: joiner).map(\.description)
        }
        XCTAssertEqual(try tried("[fe80::ff:fe00:b]:7878"), ["[fe80::ff:fe00:b%wlp2s0]:7878", "[fe80::ff:fe00:b%enx0]:7878"])
        XCTAssertEqual(try tried("fe80::ff:fe00:b"), ["[fe80::ff:fe00:b%wlp2s0]:7878", "[fe80::ff:fe00:b%enx0]:7878"])
        XCTAssertEqual(try tried("[fe80::ff:fe00:b%enp3s0]:7878"),
                       ["[fe80::ff:fe00:b%wlp2s0]:7878", "[fe80::ff:fe00:b%enx0]:7878"], "the host's own interface")
        XCTAssertEqual(try tried("[FE80::FF:FE00:B%eth0]:9"), ["[fe80::ff:fe00:b%wlp2s0]:9", "[fe80::ff:fe00:b%enx0]:9"])
        XCTAssertEqual(try tried("[fe80::ff:fe00:b%enx0]:7878"), ["[fe80::ff:fe00:b%enx0]:7878"], "this machine's")
        XCTAssertEqual(try tried("[fe80::ff:fe00:b%3]:7878"), ["[fe80::ff:fe00:b%3]:7878"], "an interface index")
        for other in ["198.18.0.11:7878", "[2001:db8::1]:7878", "host-a.local:7878", "[::1]:7878"] {
            XCTAssertEqual(try tried(other), [other], "not link-local: as typed")
        }
    }

    /// With no interface up with IPv6, a link-local address says in words what it needs.
    func testALinkLocalAddressWithNoInterfaceToReachItSaysWhatItNeeds() {
        let none = [v6("lo", "::1", loopback: true), v4("eth0", "192.168.1.20"), v6("eth1", "fe80::1", up: false)]
        XCTAssertThrowsError(try JoinAddresses.zoned(Endpoint(host: "fe80::ff:fe00:b%enp3s0", port: 7878),
                                                     interfaces: none)) { error in
            XCTAssertEqual("\(error)", "bad address: fe80::ff:fe00:b is a link-local IPv6 address: it is reached "
                + "through one of this machine's network interfaces (written [fe80::ff:fe00:b%INTERFACE]:7878), and "
                + "none is up with IPv6; 'enp3s0' is no interface of this machine (see ip addr)")
        }
    }
}

/// A joiner pointed at something that is not a tictactoe game (an HTTP server answering its TLS hello): it says so in
/// words, once, without a library's bare reason name.
final class NotAGameJoinTests: XCTestCase {
    func testAnHTTPServerIsNamedNotAGameOnce() async throws {
        let server = try HTTPLikeServer()
        defer { server.stop() }
        let lines = Recorder<String>()
        let reporter = TranscriptReporter(localName: "me", write: { lines.append($0) }, writeError: { lines.append($0) })
        let gate = try makeGate(.allowed)
        let request = JoinRequest(target: try JoinTarget(parsing: "127.0.0.1:\(server.port)"),
                                  connectTimeout: .seconds(5), origin: OperationOrigin("not a game test"))
        let options = MatchOptions(name: "me", player: .perfect, seed: 1, games: nil, clock: ContinuousClock())
        let status = await joinMatch(request, options: options, gate: gate, reporter: reporter)
        XCTAssertEqual(status, .protocolError, "\(lines.all)")
        let said = lines.all.filter { $0.contains("not a tictactoe game") }
        XCTAssertEqual(said.count, 1, "said once: \(lines.all)")
        XCTAssertTrue(said.first?.contains("the other end answers, but it is not a tictactoe game") == true, "\(said)")
        XCTAssertFalse(lines.all.contains { $0.contains("the TLS handshake failed") }, "\(lines.all)")
    }
}

/// A loopback TCP server that answers anything with an HTTP error and closes, as a web server would.
private final class HTTPLikeServer: @unchecked Sendable {
    let port: Int
    private let fd: Int32
    private let thread: Thread

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketCallError(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else { throw SocketCallError(call: "bind/listen", code: errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
        thread = Thread {
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                _ = read(client, &buffer, buffer.count)
                let answer = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
                _ = write(client, answer, answer.count)
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

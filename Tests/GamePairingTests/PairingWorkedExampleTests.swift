@testable import GamePairing
import XCTest
import PairingCode

/// The worked example of docs/PROTOCOL.md ("Worked example: CPace on a code"): every value it prints is computed here
/// from the example's fixed inputs (a code, a sid, the two scalars) and compared with the hex the page shows, so the
/// page and the derivation cannot drift apart. The values are read from the page's two example blocks; on a mismatch
/// the message gives the block as it should read.
///
/// A real run draws the sid and the scalars from libsodium's CSPRNG; `HostPairing` and `JoinerPairing` take no
/// scalar, so the example is computed from the same parts they use (the code's PRS, `Pairing.channelIdentifier`,
/// empty ADs, `CPace` with a given scalar, `HostHint`, `JoinerIdentity`, `Pairing.preSharedKey`), and the last test
/// checks that the two entry points put those parts together the same way.
final class PairingWorkedExampleTests: XCTestCase {
    /// The example's inputs (scalars little-endian, as libsodium takes them; both below the group order).
    static let code = "048213"
    static let sessionID = bytes("000102030405060708090a0b0c0d0e0f")
    static let hostScalar = bytes("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f00")
    static let joinerScalar = bytes("2122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f00")

    func testThePrivateCodeExampleIsWhatThePagePrints() throws {
        let printed = try Self.pageBlocks()
        XCTAssertEqual(printed.count, 2, "the section has two example blocks: a private code, then the open game")
        let computed = try Self.example(code: GameCode(parsing: Self.code), withIntermediates: true)
        Self.compare(printed.first ?? [], computed)
    }

    func testTheOpenGameExampleIsWhatThePagePrints() throws {
        let printed = try Self.pageBlocks()
        let computed = try Self.example(code: .open, withIntermediates: false)
        Self.compare(printed.count > 1 ? printed[1] : [], computed)
    }

    /// `HostPairing` and `JoinerPairing` draw their own scalars, so each is run against the example's other side: the
    /// key it derives must be the one the example's construction gives for the same shares.
    func testHostAndJoinerPairingBuildTheKeyAsTheExampleDoes() throws {
        let code = try GameCode(parsing: Self.code)
        let example = try Self.example(code: code, withIntermediates: false)

        // A host with the example's sid: a joiner with the example's scalar answers with the example's identity.
        var host = try HostPairing(code: code, sessionID: Self.sessionID)
        var joiner = try CPace.Responder(
            password: code.password, channelIdentifier: Pairing.channelIdentifier, sessionID: Self.sessionID,
            associatedData: [], testVectorScalar: Self.joinerScalar)
        let identity = JoinerIdentity(joinerShare: joiner.share).encoded
        XCTAssertEqual(identity, try Self.value("identity", in: example))
        let joinerKey = try Pairing.preSharedKey(from: joiner.finish(initiatorShare: host.hint.hostShare))
        XCTAssertEqual(try host.preSharedKey(forIdentity: identity), joinerKey)

        // A joiner given the example's hint: the example's host key for its identity is the joiner's key.
        let hint = try Self.value("hint", in: example)
        let answer = try JoinerPairing.respond(code: code, identityHint: hint)
        var exampleHost = try CPace.Initiator(
            password: code.password, channelIdentifier: Pairing.channelIdentifier, sessionID: Self.sessionID,
            associatedData: [], testVectorScalar: Self.hostScalar)
        let hostKey = try Pairing.preSharedKey(
            from: exampleHost.finish(responderShare: JoinerIdentity(decoding: answer.identity).joinerShare))
        XCTAssertEqual(hostKey, answer.preSharedKey)
    }

    // MARK: - The example, computed

    /// The example's values in the page's order, as (label, lowercase hex).
    static func example(code: GameCode, withIntermediates: Bool) throws -> [(String, String)] {
        let password = code.password
        let ci = Pairing.channelIdentifier
        var host = try CPace.Initiator(
            password: password, channelIdentifier: ci, sessionID: sessionID,
            associatedData: Pairing.hostAssociatedData, testVectorScalar: hostScalar)
        var joiner = try CPace.Responder(
            password: password, channelIdentifier: ci, sessionID: sessionID,
            associatedData: Pairing.joinerAssociatedData, testVectorScalar: joinerScalar)
        let hint = HostHint(sessionID: sessionID, hostShare: host.share).encoded
        let identity = JoinerIdentity(joinerShare: joiner.share).encoded
        let hostKey = try host.finish(
            responderShare: JoinerIdentity(decoding: identity).joinerShare,
            responderAssociatedData: Pairing.joinerAssociatedData)
        let joinerKey = try joiner.finish(
            initiatorShare: HostHint(decoding: hint).hostShare, initiatorAssociatedData: Pairing.hostAssociatedData)
        XCTAssertEqual(hostKey, joinerKey, "both sides get the same ISK")
        let psk = Pairing.preSharedKey(from: hostKey)
        XCTAssertEqual(psk, Pairing.preSharedKey(from: joinerKey))

        var values: [(String, String)] = [("PRS", Hex.encode(password))]
        if withIntermediates {
            let generatorString = CPace.generatorString(
                domainSeparator: CPace.domainSeparator, password: password, channelIdentifier: ci,
                sessionID: sessionID, hashBlockSize: CPace.hashBlockSize)
            let generator = CPace.calculateGenerator(password: password, channelIdentifier: ci, sessionID: sessionID)
            var sharedPoint = [UInt8](repeating: 0, count: CPace.shareByteCount)
            let ok = joiner.share.bytes.withUnsafeBytes { point in
                sharedPoint.withUnsafeMutableBytes {
                    CPace.scalarMultiply(SecretBytes(copying: hostScalar), point, into: $0)
                }
            }
            XCTAssertTrue(ok)
            values += [
                ("CI", Hex.encode(ci)), ("sid", Hex.encode(sessionID)),
                ("generator_string", Hex.encode(generatorString)), ("g", Hex.encode(array(generator))),
                ("ya", Hex.encode(hostScalar)), ("Ya", Hex.encode(host.share.bytes)),
                ("yb", Hex.encode(joinerScalar)), ("Yb", Hex.encode(joiner.share.bytes)),
                ("K", Hex.encode(sharedPoint)),
            ]
        } else {
            values += [("Ya", Hex.encode(host.share.bytes)), ("Yb", Hex.encode(joiner.share.bytes))]
        }
        values += [
            ("hint", hint), ("identity", identity), ("ISK", Hex.encode(array(hostKey))),
            ("PSK", Hex.encode(array(psk))),
        ]
        return values
    }

    static func value(_ label: String, in values: [(String, String)]) throws -> String {
        try XCTUnwrap(values.first { $0.0 == label }?.1, "no \(label) in the example")
    }

    /// Compares the page's block with the computed values; on a difference, says how the block should read.
    static func compare(
        _ printed: [(String, String)], _ computed: [(String, String)],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(printed.map(\.0), computed.map(\.0), "the block's labels", file: file, line: line)
        for (label, hex) in computed {
            XCTAssertEqual(printed.first { $0.0 == label }?.1, hex, "\(label)", file: file, line: line)
        }
        if printed.map(\.0) != computed.map(\.0) || zip(printed, computed).contains(where: { $0.1 != $1.1 }) {
            XCTFail("the block should read:\n" + render(computed), file: file, line: line)
        }
    }

    /// A block as the page prints it: the label in a column of 18, hex in lines of 64 digits.
    static func render(_ values: [(String, String)]) -> String {
        var lines: [String] = []
        for (label, hex) in values {
            var rest = Substring(hex)
            var first = true
            repeat {
                let head = first ? label : ""
                lines.append(head + String(repeating: " ", count: max(1, 18 - head.count)) + rest.prefix(64))
                rest = rest.dropFirst(64)
                first = false
            } while !rest.isEmpty
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - The page

    static let heading = "### Worked example: CPace on a code"

    /// The code blocks of the page's worked example (from its heading to the next heading), each as (label, hex): a
    /// line that starts with a label begins a value, an indented line continues it.
    static func pageBlocks() throws -> [[(String, String)]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try XCTUnwrap(lines.firstIndex { $0 == heading }, "docs/PROTOCOL.md has no \"\(heading)\"")
        var blocks: [[(String, String)]] = []
        var inBlock = false
        for line in lines[(start + 1)...] {
            if !inBlock, line.hasPrefix("#") { break }
            if line.hasPrefix("```") {
                if !inBlock { blocks.append([]) }
                inBlock.toggle()
                continue
            }
            guard inBlock, var current = blocks.popLast() else { continue }
            let words = line.split(separator: " ")
            if line.first == " ", var last = current.popLast() {
                last.1 += words.joined()
                current.append(last)
            } else if line.first != " ", let label = words.first {
                current.append((String(label), words.dropFirst().joined()))
            }
            blocks.append(current)
        }
        return blocks
    }
}

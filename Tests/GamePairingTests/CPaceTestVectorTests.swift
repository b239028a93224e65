@testable import GamePairing
import XCTest

/// The test vectors of draft-irtf-cfrg-cpace-21 (the revision `CPace` pins), byte for byte: appendix "CPace function
/// definitions" (prepend_len, lv_cat, transcript_ir) and appendix "Test vector for CPace using group ristretto255 and
/// hash SHA-512" (generator, shares from the vector's fixed scalars, K, ISK in the initiator-responder setting, and
/// scalar_mult_vfy on valid and invalid points). Source: github.com/cfrg/draft-irtf-cfrg-cpace, tag
/// draft-irtf-cfrg-cpace-21, draft-irtf-cfrg-cpace.md.
final class CPaceTestVectorTests: XCTestCase {
    // Inputs of the ristretto255 vector.
    let password = Array("Password".utf8)
    let channelIdentifier = bytes("0b415f696e69746961746f720b425f726573706f6e646572")
    let sessionID = bytes("7e4b4791d6a8ef019b936c79fb7f2c57")
    let initiatorAssociatedData = Array("ADa".utf8)
    let responderAssociatedData = Array("ADb".utf8)
    let initiatorScalar = bytes("da3d23700a9e5699258aef94dc060dfda5ebb61f02a5ea77fad53f4ff0976d08")
    let responderScalar = bytes("d2316b454718c35362d83d69df6320f38578ed5984651435e2949762d900b80d")

    // Outputs of the ristretto255 vector.
    let generatorString = bytes("""
        11435061636552697374726574746f3235350850617373776f726464
        00000000000000000000000000000000000000000000000000000000
        00000000000000000000000000000000000000000000000000000000
        00000000000000000000000000000000000000000000000000000000
        00000000000000000000000000000000180b415f696e69746961746f
        720b425f726573706f6e646572107e4b4791d6a8ef019b936c79fb7f
        2c57
        """)
    let generator = bytes("222b6b195fe84b1652badb6f6a3ae3d24341e7306967f0b8115b40d5698c7e56")
    let initiatorShare = bytes("d6bac480f2c386c394efc7c47adb9925dcd2630b64f240c50f8d0eec482b9157")
    let responderShare = bytes("3ea7e0b19560d7c0b0f5734f63b955286dfa8232b5ebe63324e2d9e7433f7258")
    let sharedPoint = bytes("80b69a8a76457ab6a4d7f887a4bf6b55a2f80ac19c333f917a05fc9887c8b40f")
    let transcript = bytes("""
        20d6bac480f2c386c394efc7c47adb9925dcd2630b64f240c50f8d0e
        ec482b915703414461203ea7e0b19560d7c0b0f5734f63b955286dfa
        8232b5ebe63324e2d9e7433f725803414462
        """)
    let intermediateSessionKey = bytes("""
        b69effbf61b51d56401c0f65601abe428de8206feaaf0e32198896dc
        ae7b35cd2b38950a39dfd5d4a79164614c2984f7daa460b588c1e80c
        3fa2068af7900447
        """)

    func testThePinnedRevisionIs21() {
        XCTAssertEqual(CPace.draftRevision, "draft-irtf-cfrg-cpace-21")
        XCTAssertEqual(CPace.domainSeparator, Array("CPaceRistretto255".utf8))
        XCTAssertEqual(CPace.iskDomainSeparator, bytes("435061636552697374726574746f3235355f49534b"))
    }

    func testStringFunctionVectorsOfDraft21() {
        XCTAssertEqual(CPace.prependLength([]), bytes("00"))
        XCTAssertEqual(CPace.prependLength(Array("1234".utf8)), bytes("0431323334"))
        XCTAssertEqual(CPace.prependLength((0..<127).map { UInt8($0) }), [0x7f] + (0..<127).map { UInt8($0) })
        XCTAssertEqual(CPace.prependLength((0..<128).map { UInt8($0) }), [0x80, 0x01] + (0..<128).map { UInt8($0) })
        XCTAssertEqual(CPace.prependLength([UInt8](repeating: 7, count: 300)).prefix(2), [0xac, 0x02])
        XCTAssertEqual(
            CPace.lengthValueConcatenation([Array("1234".utf8), Array("5".utf8), [], Array("678".utf8)]),
            bytes("043132333401350003363738"))
        XCTAssertEqual(
            CPace.initiatorResponderTranscript(
                initiatorShare: Array("123".utf8), initiatorAssociatedData: Array("PartyA".utf8),
                responderShare: Array("234".utf8), responderAssociatedData: Array("PartyB".utf8)),
            bytes("03313233065061727479410332333406506172747942"))
        XCTAssertEqual(
            CPace.initiatorResponderTranscript(
                initiatorShare: Array("3456".utf8), initiatorAssociatedData: Array("PartyA".utf8),
                responderShare: Array("2345".utf8), responderAssociatedData: Array("PartyB".utf8)),
            bytes("043334353606506172747941043233343506506172747942"))
    }

    func testRistretto255VectorsOfDraft21() throws {
        // generator_string and calculate_generator.
        XCTAssertEqual(
            CPace.generatorString(
                domainSeparator: CPace.domainSeparator, password: password, channelIdentifier: channelIdentifier,
                sessionID: sessionID, hashBlockSize: CPace.hashBlockSize),
            generatorString)
        XCTAssertEqual(generatorString.count, 170)
        let g = CPace.calculateGenerator(
            password: password, channelIdentifier: channelIdentifier, sessionID: sessionID)
        XCTAssertEqual(array(g), generator)

        // The messages from the vector's fixed scalars.
        var initiator = try CPace.Initiator(
            password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
            associatedData: initiatorAssociatedData, testVectorScalar: initiatorScalar)
        var responder = try CPace.Responder(
            password: password, channelIdentifier: channelIdentifier, sessionID: sessionID,
            associatedData: responderAssociatedData, testVectorScalar: responderScalar)
        XCTAssertEqual(initiator.share.bytes, initiatorShare)
        XCTAssertEqual(responder.share.bytes, responderShare)

        // K = scalar_mult_vfy(ya, Yb) = scalar_mult_vfy(yb, Ya).
        XCTAssertEqual(try multiply(initiatorScalar, responderShare), sharedPoint)
        XCTAssertEqual(try multiply(responderScalar, initiatorShare), sharedPoint)

        // transcript_ir and ISK (initiator/responder).
        XCTAssertEqual(
            CPace.initiatorResponderTranscript(
                initiatorShare: initiator.share.bytes, initiatorAssociatedData: initiatorAssociatedData,
                responderShare: responder.share.bytes, responderAssociatedData: responderAssociatedData),
            transcript)
        let initiatorKey = try initiator.finish(
            responderShare: responder.share, responderAssociatedData: responderAssociatedData)
        let responderKey = try responder.finish(
            initiatorShare: initiator.share, initiatorAssociatedData: initiatorAssociatedData)
        XCTAssertEqual(array(initiatorKey), intermediateSessionKey)
        XCTAssertEqual(array(responderKey), intermediateSessionKey)
    }

    func testScalarMultVerifyVectorsOfDraft21() throws {
        let s = bytes("7cd0e075fa7955ba52c02759a6c90dbbfc10e6d40aea8d283e407d88cf538a05")
        let x = bytes("2c3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")
        XCTAssertEqual(
            try multiply(s, x), bytes("7c13645fe790a468f62c39beb7388e541d8405d1ade69d1778c5fe3e7f6b600e"))
        // Y_i1 (not a valid encoding) and Y_i2 = G.I: scalar_mult_vfy gives G.I, so the protocol aborts.
        XCTAssertNil(try? multiply(s, bytes("2b3c6b8c4f3800e7aef6864025b4ed79bd599117e427c41bd47d93d654b4a51c")))
        XCTAssertNil(try? multiply(s, [UInt8](repeating: 0, count: 32)))
    }

    private struct Aborted: Error {}

    /// scalar_mult_vfy(scalar, point), throwing where the draft says abort.
    private func multiply(_ scalar: [UInt8], _ point: [UInt8]) throws -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        let ok = point.withUnsafeBytes { pointBytes in
            output.withUnsafeMutableBytes {
                CPace.scalarMultiply(SecretBytes(copying: scalar), pointBytes, into: $0)
            }
        }
        guard ok else { throw Aborted() }
        return output
    }
}

@testable import GamePairing
import XCTest

/// HKDF-SHA256 over libsodium's HMAC, pinned by RFC 5869's test vectors for SHA-256 (appendix A, cases 1 to 3).
final class HKDFTests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private func derive(ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int) -> String {
        var output = [UInt8](repeating: 0, count: length)
        ikm.withUnsafeBytes { ikm in
            output.withUnsafeMutableBytes { HKDF.sha256(inputKeyMaterial: ikm, salt: salt, info: info, into: $0) }
        }
        return hex(output)
    }

    func testRFC5869Case1Basic() {
        XCTAssertEqual(
            derive(ikm: [UInt8](repeating: 0x0B, count: 22), salt: Array(0x00...0x0C), info: Array(0xF0...0xF9),
                   length: 42),
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    func testRFC5869Case2LongerInputsAndOutput() {
        XCTAssertEqual(
            derive(ikm: Array(0x00...0x4F), salt: Array(0x60...0xAF), info: Array(0xB0...0xFF), length: 82),
            "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da"
                + "3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87")
    }

    func testRFC5869Case3NoSaltNoInfo() {
        XCTAssertEqual(
            derive(ikm: [UInt8](repeating: 0x0B, count: 22), salt: [], info: [], length: 42),
            "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    /// The TLS PSK is HKDF-SHA256(ISK, no salt, "tictactoe v2 tls-psk", 32).
    func testThePreSharedKeyIsHKDFOfTheIntermediateSessionKey() {
        let isk = SecretBytes(copying: Array(0x00...0x3F) as [UInt8])
        let psk = Pairing.preSharedKey(from: isk).withUnsafeBytes { Array($0) }
        // Computed apart, with Python's hmac and hashlib.
        XCTAssertEqual(hex(psk),
                       "ffacecfa82a8f29b61ef06dac30e94e3b742401ea5e6eb252fb3fa149b9f5e12")
    }
}

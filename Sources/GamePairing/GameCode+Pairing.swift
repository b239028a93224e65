import PairingCode

extension GameCode {
    /// A new private code, uniform over 000000 ... 999999, from libsodium's CSPRNG.
    public static func random() -> GameCode {
        GameCode(secret: Sodium.uniform(1_000_000))
    }

    /// CPace's PRS: the six digits in ASCII, or `openGamePassword` in UTF-8.
    var password: [UInt8] { Array((revealed ?? GameCode.openGamePassword).utf8) }
}

import FoundationEssentials
import TextSupport

#if canImport(Glibc)
import Glibc
#endif

/// Which hosts are loopback, and so exempt from the local network permission (as on Apple platforms).
public enum Loopback {
    /// True for 127.0.0.0/8 (also written short, like "127.1"), ::1, IPv4-mapped loopback (::ffff:127.x.y.z) and
    /// the name "localhost". Other names are not resolved here: they count as the local network.
    public static func isLoopback(host: String) -> Bool {
        var text = host.trimmingWhitespace()
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        let lower = text.lowercased()
        if lower == "localhost" { return true }  // not "localhost.": a resolver may send that one to the LAN's DNS
        var v4 = in_addr()
        if !text.contains(":"), inet_aton(text, &v4) != 0 {
            return (UInt32(bigEndian: v4.s_addr) >> 24) == 127
        }
        var v6 = in6_addr()
        guard text.contains(":"), inet_pton(AF_INET6, text, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }  // ::1
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return bytes[12] == 127 }
        return false
    }
}

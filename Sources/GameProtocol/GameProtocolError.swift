/// What the frame decoder reports when bytes from the peer are not a valid message.
///
/// Each case maps to the `error` frame a receiver sends back before closing (see `errorCode`).
public enum GameProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The length header announced more than the maximum frame length (checked before the body is buffered).
    case frameTooLong(length: Int, maximum: Int)
    /// The length header was zero: a frame has at least its type byte.
    case emptyFrame
    /// The type byte is not a known message.
    case unknownMessageType(UInt8)
    /// The payload does not parse as the message its type announces.
    case malformedPayload(type: UInt8, why: String)
    /// The connection closed in the middle of a frame.
    case truncatedFrame(bufferedBytes: Int)

    public var errorCode: ProtocolErrorCode {
        switch self {
        case .frameTooLong, .emptyFrame: return .badFrameLength
        case .unknownMessageType: return .unknownMessage
        case .malformedPayload, .truncatedFrame: return .malformedFrame
        }
    }

    public var description: String {
        switch self {
        case .frameTooLong(let length, let maximum):
            return "frame of \(length) bytes exceeds the maximum of \(maximum)"
        case .emptyFrame:
            return "empty frame (length 0)"
        case .unknownMessageType(let type):
            return "unknown message type 0x\(String(type, radix: 16))"
        case .malformedPayload(let type, let why):
            return "malformed message of type 0x\(String(type, radix: 16)): \(why)"
        case .truncatedFrame(let bytes):
            return "connection closed in the middle of a frame (\(bytes) bytes buffered)"
        }
    }
}

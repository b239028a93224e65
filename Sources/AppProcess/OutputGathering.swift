/// When the text written to an output that is not a terminal goes out: at once after a pause, otherwise gathered
/// with what follows for at most `window`, then written in one piece.
///
/// Each write(2) to a pipe wakes its reader, which costs the writer more than a move of the game, and a `--json`
/// match writes two lines a move. Written at once, the first line after a pause (a host's `listening`, a prompt,
/// the line a script waits for) is never held; lines that come fast one after the other wait at most `window`, and
/// a reader is then woken once for them all. Nothing is dropped or reordered: `CheckedOutput` writes what is held
/// when the window closes, before other text, and before the process exits.
///
/// Pure: the caller says what time it is (nanoseconds on a monotonic clock) and carries out the decision.
struct OutputGathering: Sendable {
    /// The longest a text is held.
    let window: UInt64
    /// Held bytes that make a write of their own at once.
    let limit: Int
    /// Text taken and not yet written, oldest first.
    private(set) var held: [UInt8] = []
    /// When text last went out (nil: never).
    private var lastWrite: UInt64?
    /// When the held text must go out (nil while nothing is held).
    private(set) var deadline: UInt64?

    init(window: UInt64, limit: Int = 16 * 1024) {
        self.window = window
        self.limit = limit
    }

    enum Decision: Equatable {
        /// Write these bytes now (the text taken, after what was held).
        case write([UInt8])
        /// Held; `flushAt` is set when a flush must be arranged for then (the first text held since the last write).
        case hold(flushAt: UInt64?)
    }

    /// `bytes`, and a newline after them with `newline`, are to be written at `now`.
    mutating func take<Bytes: Sequence>(
        _ bytes: Bytes, newline: Bool = false, at now: UInt64
    ) -> Decision where Bytes.Element == UInt8 {
        if held.isEmpty, lastWrite.map({ now &- $0 >= window }) ?? true {
            lastWrite = now
            var text = Array(bytes)
            if newline { text.append(UInt8(ascii: "\n")) }
            return .write(text)
        }
        held.append(contentsOf: bytes)
        if newline { held.append(UInt8(ascii: "\n")) }
        let due = deadline ?? (lastWrite ?? now) &+ window
        if held.count >= limit || now >= due { return .write(takeHeld(at: now)) }
        if deadline == nil {
            deadline = due
            return .hold(flushAt: due)
        }
        return .hold(flushAt: nil)
    }

    /// The held text, to write now (the window closed, other text must not overtake it, the process exits); empty
    /// when nothing is held.
    mutating func takeHeld(at now: UInt64) -> [UInt8] {
        deadline = nil
        guard !held.isEmpty else { return [] }
        lastWrite = now
        defer { held = [] }
        return held
    }
}

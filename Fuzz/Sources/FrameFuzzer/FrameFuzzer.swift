import GameWireFuzzing

/// libFuzzer's entry point: one input, checked as a stream of frames and as one frame body (`WireInvariants`). A
/// broken invariant stops the run (libFuzzer keeps the input as a crash artifact).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try WireInvariants.check(bytes)
    } catch {
        fatalError("wire invariant broken: \(error)")
    }
    return 0
}

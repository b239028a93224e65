import Foundation
import GameProtocol
import GameRules
import GameWire
import GameWireFuzzing
import XCTest

/// The bounded fuzz pass `make test` runs: the committed seed corpus (Fuzz/corpus) and seeded random inputs made from
/// it, through the normal decoder (no sanitizer build), each checked against `WireInvariants`, the same invariants
/// the libFuzzer target checks (`make fuzz`). Bounded by the number of inputs, not by time.
final class WireFuzzPassTests: XCTestCase {
    /// The inputs of the random pass; the seed makes any failure replayable.
    static let randomInputs = 50_000
    static let seed: UInt64 = 0x7_1C7A_C70E

    static let corpusDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/corpus").path

    private func corpus() throws -> [(name: String, bytes: [UInt8])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.corpusDirectory).sorted()
        return try names.map { name in
            (name, Array(try Data(contentsOf: URL(fileURLWithPath: Self.corpusDirectory + "/" + name))))
        }
    }

    func testTheSeedCorpusHoldsEveryWireSampleAndKeepsTheInvariants() throws {
        let seeds = try corpus()
        for sample in WireSamples.all {
            XCTAssertTrue(seeds.contains { $0.bytes == sample.frame },
                          "no seed in Fuzz/corpus holds the frame of \(sample.message): \(sample.frame)")
        }
        var kinds = Set<GameMessage.Kind>()
        var refused = 0
        for seed in seeds {
            do {
                let outcome = try WireInvariants.check(seed.bytes)
                kinds.formUnion(outcome.messages.map(\.kind))
                if outcome.error != nil { refused += 1 }
                XCTAssertEqual(seed.name.hasPrefix("bad-"), outcome.error != nil, "\(seed.name): \(outcome)")
            } catch {
                XCTFail("\(seed.name): \(error)")
            }
        }
        XCTAssertEqual(kinds, Set(GameMessage.Kind.allCases), "every message type has a seed")
        print("seed corpus: \(seeds.count) inputs, \(refused) refused as they should be, every invariant held")
    }

    func testTheInvariantsReportWhatTheDecoderDid() throws {
        let joiner = try XCTUnwrap(try corpus().first { $0.name == "stream-joiner-match" })
        let outcome = try WireInvariants.check(joiner.bytes)
        XCTAssertEqual(outcome.messages, [
            .hello(version: 1, name: "Ann"), .move(cell: 4), .move(cell: 0), .move(cell: 8), .ping(0), .pong(1),
            .rematchAccept, .move(cell: 2), .resign, .bye(.seriesOver),
        ])
        XCTAssertNil(outcome.error)
        XCTAssertEqual(try WireInvariants.check([0x02, 0x01, 0x12]).error, .frameTooLong(length: 513, maximum: 512))
        XCTAssertEqual(try WireInvariants.check([0x00, 0x02, 0x11, 0x04, 0x00, 0x05, 0x01]).error,
                       .truncatedFrame(bufferedBytes: 3))
        XCTAssertEqual(try WireInvariants.check([0x00, 0x02, 0x11, 0x04, 0x00, 0x00]),
                       WireInvariants.StreamOutcome(messages: [.move(cell: 4)], error: .emptyFrame))
        // With a smaller limit, the same frame is refused from its header.
        XCTAssertEqual(try WireInvariants.check([0x00, 0x09, 0x30] + [UInt8](repeating: 0, count: 8),
                                                maximumFrameLength: 8).error,
                       .frameTooLong(length: 9, maximum: 8))
    }

    func testSeededRandomInputsKeepTheInvariants() throws {
        let seeds = try corpus().map(\.bytes)
        var mutator = Mutator(seeds: seeds, random: SplitMix64(seed: Self.seed))
        var messages = 0
        var bytes = 0
        var errors: [String: Int] = [:]
        let started = ContinuousClock.now
        for index in 0..<Self.randomInputs {
            let input = mutator.next()
            bytes += input.count
            do {
                let outcome = try WireInvariants.check(input)
                messages += outcome.messages.count
                if let error = outcome.error { errors[Self.name(of: error), default: 0] += 1 }
            } catch {
                XCTFail("input \(index) of seed \(Self.seed): \(error)")
                return
            }
        }
        let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            + Double((ContinuousClock.now - started).components.seconds)
        XCTAssertGreaterThan(messages, 0)
        XCTAssertGreaterThan(errors.count, 3, "the inputs reach several kinds of refusal: \(errors)")
        print("random pass (seed \(Self.seed)): \(Self.randomInputs) inputs, \(bytes) bytes, \(messages) messages "
              + "decoded, refusals \(errors.sorted { $0.key < $1.key }), "
              + String(format: "%.1f s", seconds) + ", every invariant held")
    }

    private static func name(of error: GameProtocolError) -> String {
        switch error {
        case .frameTooLong: return "frame-too-long"
        case .emptyFrame: return "empty-frame"
        case .unknownMessageType: return "unknown-type"
        case .malformedPayload: return "malformed"
        case .truncatedFrame: return "truncated"
        }
    }
}

/// Inputs made from the seeds the way a fuzzer makes them: bits flipped, bytes changed, inserted, removed, lengths
/// set to the edges, slices repeated, seeds joined; now and then plain random bytes.
struct Mutator {
    let seeds: [[UInt8]]
    var random: SplitMix64

    /// Length headers at the edges of what the decoder accepts.
    static let lengths: [UInt16] = [0, 1, 2, 9, 255, 256, 511, 512, 513, 0x8000, 0xFFFF]

    mutating func next() -> [UInt8] {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            return (0..<Int.random(in: 0...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 1:
            var joined = seeds.randomElement(using: &random)! + seeds.randomElement(using: &random)!
            mutate(&joined)
            return joined
        default:
            var input = seeds.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...4, using: &random) { mutate(&input) }
            return input
        }
    }

    mutating func mutate(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else {
            bytes.append(UInt8.random(in: 0...255, using: &random))
            return
        }
        let at = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0..<7, using: &random) {
        case 0: bytes[at] ^= 1 << UInt8.random(in: 0...7, using: &random)
        case 1: bytes[at] = UInt8.random(in: 0...255, using: &random)
        case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
        case 3: bytes.remove(at: at)
        case 4: bytes.removeSubrange(at...)
        case 5:
            let length = Self.lengths.randomElement(using: &random)!
            let start = min(at, bytes.count - 1)
            bytes.replaceSubrange(start..<min(start + 2, bytes.count), with: [UInt8(length >> 8), UInt8(length & 0xFF)])
        default:
            let end = Int.random(in: at...bytes.count, using: &random)
            bytes.insert(contentsOf: bytes[at..<end], at: end)
        }
    }
}

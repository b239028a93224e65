import Foundation
import NIOCore

// `make bench`'s figures for the secure transport's speed targets: a protocol-2 join (CPace + TLS) on loopback within 10 ms, and
// a move round trip over TLS within 1.5× of the same build's plaintext round trip. Speed is measured here and never
// asserted in tests; the bench reports and exits 0 whether or not a target is met (1 only when the run itself fails:
// a join or a match that does not complete).
//
// A plain executable rather than ordo-one/package-benchmark: each figure is two peers talking over a real socket in
// one process (the listener and the connection, as the app runs them), and the targets are a latency and a ratio of
// two medians compared with fixed limits; package-benchmark's strength (many micro-benchmarks, allocation and
// baseline tracking, its own jemalloc dependency and build plugin) would add a dependency and a build step here for
// little. Percentiles are computed in `Samples`.

@main
struct TransportBench {
    static let handshakeTargetMilliseconds = 10.0
    static let roundTripRatioTarget = 1.5

    static func main() async {
        let arguments: Arguments
        do {
            arguments = try Arguments(CommandLine.arguments.dropFirst())
        } catch {
            FileHandle.standardError.write(Data("transport-bench: \(error)\n\(Arguments.usage)\n".utf8))
            exit(2)
        }
        let gate: BenchGate
        do {
            gate = try BenchGate()
        } catch {
            FileHandle.standardError.write(Data("transport-bench: \(error)\n".utf8))
            exit(1)
        }
        defer { gate.remove() }
        do {
            try await run(arguments, gate: gate)
        } catch {
            gate.remove()
            FileHandle.standardError.write(Data("transport-bench: the run failed: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ arguments: Arguments, gate: BenchGate) async throws {
        print(
            "transport bench on \(Loopback.host), \(System.coreCount) cores: \(arguments.joins) timed joins of each"
                + " kind (after \(arguments.warmUpJoins) untimed), \(arguments.rounds) matches of"
                + " \(arguments.gamesPerMatch) games on each transport")
        let joins = try await HandshakeBench(gate: gate, joins: arguments.joins, warmUp: arguments.warmUpJoins).run()
        for kind in JoinKind.allCases {
            let samples = joins[kind] ?? Samples()
            var line = "\(pad(kind.label)) \(samples.summary)"
            if kind.isEncrypted, let median = samples.median {
                let met = median <= handshakeTargetMilliseconds
                let target = formatTarget(handshakeTargetMilliseconds)
                line += " — target ≤ \(target) ms (median): \(met ? "met" : "NOT met")"
            }
            print(line)
        }

        let roundTrips = try await RoundTripBench(
            gate: gate, gamesPerMatch: arguments.gamesPerMatch, rounds: arguments.rounds
        ).run()
        for (label, samples) in [("plaintext", roundTrips.plaintext), ("TLS", roundTrips.tls)] {
            print("\(pad("move round trip, \(label)")) \(samples.summary) (\(samples.count) round trips)")
        }
        guard let tls = roundTrips.tls.median, let plaintext = roundTrips.plaintext.median, plaintext > 0 else {
            throw BenchFailure("no round trips were measured")
        }
        let ratio = tls / plaintext
        let met = ratio <= roundTripRatioTarget
        print(
            "\(pad("move round trip, TLS / plaintext")) \(String(format: "%.2f", ratio))× (medians)"
                + " — target ≤ \(formatTarget(roundTripRatioTarget))×: \(met ? "met" : "NOT met")")
    }

    private static func pad(_ label: String) -> String {
        label.count >= 38 ? label : label + String(repeating: " ", count: 38 - label.count)
    }

    private static func formatTarget(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// `transport-bench [--joins N] [--warm-up N] [--games N] [--rounds N]`.
struct Arguments {
    static let usage =
        "usage: transport-bench [--joins N (200)] [--warm-up N (10)] [--games N games per match (50)]"
        + " [--rounds N matches per transport (10)]"

    var joins = 200
    var warmUpJoins = 10
    var gamesPerMatch = 50
    var rounds = 10

    init<Words: Sequence<String>>(_ words: Words) throws {
        var words = words.makeIterator()
        while let flag = words.next() {
            guard let text = words.next(), let value = Int(text) else {
                throw BenchFailure("\(flag) needs a whole number")
            }
            switch flag {
            case "--joins" where value >= 1: joins = value
            case "--warm-up" where value >= 0: warmUpJoins = value
            case "--games" where value >= 1: gamesPerMatch = value
            case "--rounds" where value >= 1: rounds = value
            default: throw BenchFailure("unknown option or value out of range: \(flag) \(text)")
            }
        }
    }
}

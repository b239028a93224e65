// In-process figures for `make bench` (issue 15): the pure code on a move's path, with ordo-one/benchmark
// (wall clock p50/p99 and mallocs). Run: swift package --package-path Benchmarks --scratch-path .build-bench benchmark
import Benchmark
import GameProtocol
import GameRules
import GameWire
import NIOCore

/// Two sessions wired together in memory: every `send` of one is the other's `receive`. Each side plays the first
/// free cell and always wants a rematch, so the match goes on for as long as it is driven.
struct SessionPair {
    var host = MatchSession(role: .host)
    var joiner = MatchSession(role: .joiner)
    var board = Set<Int>()
    /// Whose local move is asked for next: nil when neither.
    var hostToMove = false
    var joinerToMove = false

    init() {
        var pending: [(toHost: Bool, message: GameMessage)] = []
        handle(host.begin(), fromHost: true, into: &pending)
        handle(joiner.begin(), fromHost: false, into: &pending)
        deliver(&pending)
    }

    /// One move round: whoever is to move plays; messages flow until a local move is asked again.
    mutating func round() {
        var pending: [(toHost: Bool, message: GameMessage)] = []
        let cell = (0..<9).first { !board.contains($0) } ?? 0
        if hostToMove {
            hostToMove = false
            handle(try! host.playLocalMove(cell), fromHost: true, into: &pending)
        } else if joinerToMove {
            joinerToMove = false
            handle(try! joiner.playLocalMove(cell), fromHost: false, into: &pending)
        }
        deliver(&pending)
    }

    private mutating func deliver(_ pending: inout [(toHost: Bool, message: GameMessage)]) {
        while !pending.isEmpty {
            let (toHost, message) = pending.removeFirst()
            if toHost {
                handle(host.receive(message), fromHost: true, into: &pending)
            } else {
                handle(joiner.receive(message), fromHost: false, into: &pending)
            }
        }
    }

    private mutating func handle(
        _ actions: [MatchSession.Action], fromHost: Bool, into pending: inout [(toHost: Bool, message: GameMessage)]
    ) {
        for action in actions {
            switch action {
            case .send(let message): pending.append((toHost: !fromHost, message: message))
            case .requestLocalMove: if fromHost { hostToMove = true } else { joinerToMove = true }
            case .requestRematchDecision:
                let more = fromHost ? host.decideRematch(true) : joiner.decideRematch(true)
                handle(more, fromHost: fromHost, into: &pending)
            case .emit(.gameStarted): board = []
            case .emit(.moved(_, let cell, by: .local)) where fromHost: board.insert(cell)
            case .emit(.moved(_, let cell, by: .peer)) where fromHost: board.insert(cell)
            default: break
            }
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        maxDuration: .seconds(1),
        maxIterations: 100_000
    )

    Benchmark("Minimax: a perfect move on the empty board") { benchmark in
        let game = Game()
        for _ in benchmark.scaledIterations {
            blackHole(Minimax.bestMoves(for: game))
        }
    }

    Benchmark("Minimax: a perfect move after one move") { benchmark in
        var game = Game()
        _ = try? game.play(4, by: .x)
        for _ in benchmark.scaledIterations {
            blackHole(Minimax.bestMoves(for: game))
        }
    }

    Benchmark("MatchSession: one move round (play, receive, answer asked; both sessions)") { benchmark in
        var pair = SessionPair()
        for _ in benchmark.scaledIterations {
            pair.round()
        }
        blackHole(pair.board)
    }

    Benchmark("GameWire: a move frame encoded and decoded") { benchmark in
        var buffer = ByteBufferAllocator().buffer(capacity: 16)
        var decoder = GameMessageDecoder()
        for index in benchmark.scaledIterations {
            buffer.clear()
            buffer.writeGameMessage(.move(cell: UInt8(truncatingIfNeeded: index % 9)))
            blackHole(try! decoder.decode(buffer: &buffer))
        }
    }
}

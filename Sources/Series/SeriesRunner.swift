import AppCore
import AppProcess
import GameClient
import GameProtocol
import GameTransport
import MatchStatistics

/// Runs a series (`tictactoe match`): at most `concurrency` games at once in a task group, each reported in game order
/// as soon as it and every game before it are done (so the output, the scores and an SPRT's stopping point are the
/// same whatever the concurrency), then the totals.
public struct SeriesRunner: Sendable {
    public var schedule: SeriesSchedule
    public var player: SeriesGamePlayer
    public var concurrency: Int
    /// Stop a two-player series as soon as the test decides.
    public var sprt: SPRT?

    public init(schedule: SeriesSchedule, player: SeriesGamePlayer, concurrency: Int, sprt: SPRT?) {
        self.schedule = schedule
        self.player = player
        self.concurrency = max(1, concurrency)
        self.sprt = sprt
    }

    /// How the series ended.
    public struct Outcome: Sendable {
        /// Each pair's score, from its first player's side (the order of `schedule.pairs`).
        public var scores: [MatchScore]
        /// Games reported.
        public var games: Int
        /// The SPRT's decision when it stopped the series (H0 or H1), or `.continue` when it ran to the end.
        public var decision: SPRT.Decision?
        /// A script that failed, or a network game that could not be played (the series stopped at that game).
        public var failure: SeriesFailure?
        /// The reporter asked to stop (its output failed).
        public var stopped: Bool
        /// Why the series was stopped from outside (`stop` raised: Ctrl-C, SIGTERM, SIGHUP), if it was. The games
        /// under way then are abandoned (their engines ended) and not reported.
        public var interrupted: ByeReason? = nil
    }

    /// Plays the series; `onGame` gets each game in order with the scores after it, and returns false to stop. When
    /// `stop` is raised the games under way are cancelled (which ends their engines' processes) and the outcome is
    /// what was reported before.
    public func run(stop: StopSignal? = nil, onGame: (SeriesGameRecord, [MatchScore]) -> Bool) async -> Outcome {
        // Several network games at once in this process: SwiftNIO's loop per core rather than the one loop every
        // other command runs on (`EventLoops`), asked for before the first game uses the group.
        if concurrency > 1, player.network != nil { EventLoops.usePerCore() }
        var outcome = Outcome(
            scores: Array(repeating: MatchScore(), count: schedule.pairs.count), games: 0,
            decision: sprt.map { _ in .continue }, failure: nil, stopped: false)
        let total = schedule.count
        let player = player
        let schedule = schedule
        /// A game's end, or the stop signal (number 0).
        typealias Event = (number: Int, result: Result<SeriesGameRecord, SeriesFailure>?, stop: ByeReason?)
        await withTaskGroup(of: Event.self) { group in
            var next = 1
            var running = 0
            func start() {
                guard next <= total else { return }
                let number = next
                next += 1
                running += 1
                group.addTask {
                    do throws(SeriesFailure) {
                        return (number, .success(try await player.play(schedule.game(number))), nil)
                    } catch {
                        return (number, .failure(error), nil)
                    }
                }
            }
            if let stop {
                group.addTask {
                    for await reason in stop.stream() { return (0, nil, reason) }
                    return (0, nil, nil)  // cancelled: the series is over
                }
            }
            for _ in 0..<min(concurrency, total) { start() }
            var done: [Int: Result<SeriesGameRecord, SeriesFailure>] = [:]
            var finished = false
            while !finished, running > 0, let event = await group.next() {
                guard let result = event.result else {
                    if let reason = event.stop {
                        outcome.interrupted = reason
                        finished = true
                        group.cancelAll()
                    }
                    continue
                }
                running -= 1
                let number = event.number
                done[number] = result
                while !finished, let result = done.removeValue(forKey: outcome.games + 1) {
                    switch result {
                    case .failure(let failure):
                        outcome.failure = failure
                        finished = true
                    case .success(let record):
                        outcome.games += 1
                        outcome.scores[record.game.pair].record(record.outcome)
                        if !onGame(record, outcome.scores) {
                            outcome.stopped = true
                            finished = true
                        }
                        if let sprt, outcome.scores.count == 1 {
                            let decision = sprt.decision(outcome.scores[0])
                            outcome.decision = decision
                            if decision != .continue { finished = true }
                        }
                    }
                }
                if finished {
                    group.cancelAll()
                } else {
                    start()
                }
            }
            group.cancelAll()  // the stop signal's watcher, and whatever still runs after a stop
        }
        return outcome
    }
}

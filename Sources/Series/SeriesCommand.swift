import AppCore
import AppManifest
import AppProcess
import FoundationEssentials
import GameClient
import GameProtocol
import GameRules
import LocalNetworkPrivacy
import MatchPlay
import MatchStatistics
import TextSupport

/// `tictactoe match` once its arguments are parsed: reads the script players and makes the transcripts folder before
/// anything runs, asks for the network first when the series is played over it, plays the series with a line (or
/// JSON lines) after each game and the totals at the end, and says on standard error why it did not complete.
public struct SeriesCommand: Sendable {
    public var players: [PlayerSpec]
    public var gamesPerPair: Int
    public var seed: UInt64
    public var sprt: SPRT?
    public var concurrency: Int
    public var moveTime: Duration
    public var gameTime: Duration?
    public var network: SeriesNetwork?
    /// JSON lines instead of text.
    public var json: Bool
    /// Where each game's transcript goes (`game-0001.jsonl`, …), made if missing; nil: nowhere.
    public var transcripts: String?
    /// The one clock of the series: the game clocks, the engines' limits, the network games' waits, the time taken.
    public var clock: any Clock<Duration>

    public init(
        players: [PlayerSpec], gamesPerPair: Int, seed: UInt64, sprt: SPRT?, concurrency: Int, moveTime: Duration,
        gameTime: Duration?, network: SeriesNetwork?, json: Bool, transcripts: String?, clock: any Clock<Duration>
    ) {
        self.clock = clock
        self.players = players
        self.gamesPerPair = gamesPerPair
        self.seed = seed
        self.sprt = sprt
        self.concurrency = concurrency
        self.moveTime = moveTime
        self.gameTime = gameTime
        self.network = network
        self.json = json
        self.transcripts = transcripts
    }

    /// Plays the series until it ends or `stop` stops it, printing to `output`; the exit status says how it went (a
    /// failure is also said on `errors`). Throws only when a line cannot be encoded as JSON.
    public func run(
        stop: StopSignal, output: CheckedOutput = .standardOutput, errors: CheckedOutput = .standardError
    ) async throws -> ExitStatus {
        let scripts: [Int: ScriptedPlayer]
        switch readScripts() {
        case .success(let read): scripts = read
        case .failure(let failure):
            errors.writeLine("tictactoe: \(failure)")
            return failure.exitStatus
        }
        if let failure = makeTranscriptsDirectory() {
            errors.writeLine("tictactoe: \(failure)")
            return .outputFailed
        }
        let names = SeriesNames.names(players)
        let schedule = SeriesSchedule(players: players.count, gamesPerPair: gamesPerPair)
        let report = SeriesReport(names: names, schedule: schedule, seed: seed, sprt: sprt)
        let runner = SeriesRunner(
            schedule: schedule,
            player: SeriesGamePlayer(
                specs: players, names: names, seed: seed, scripts: scripts,
                engineLogDirectory: EngineSeat.defaultLogDirectory(), moveTime: moveTime, gameTime: gameTime,
                network: network, clock: clock),
            concurrency: concurrency, sprt: sprt)
        guard output.writeLine(json ? try report.seedJSON() : report.seedLine) else {
            errors.writeLine("tictactoe: \(output.failure.map { "\($0)" } ?? "standard output failed")")
            return .outputFailed
        }
        if let network, let refused = await Self.obtainAccess(network, clock: clock, stop: stop, errors: errors) {
            errors.writeLine("tictactoe: \(refused.message)")
            return refused.status
        }
        let timeTaken = clock.stopwatch()
        var transcriptFailure: String?
        let outcome = await runner.run(stop: stop) { record, scores in
            if let failure = writeTranscript(record, scores: scores, report: report) {
                transcriptFailure = failure
                return false
            }
            do {
                let lines = json ? try report.gameJSON(record, scores: scores)
                    : [report.progressLine(record, scores: scores)]
                return lines.allSatisfy { output.writeLine($0) }
            } catch {
                transcriptFailure = "game \(record.game.number) could not be written as JSON: \(error)"
                return false
            }
        }
        let elapsed = timeTaken()
        var status = ExitStatus.success
        if let failure = outcome.failure { status = failure.exitStatus }
        if let reason = outcome.interrupted { status = ExitStatus(stoppedBy: reason) }
        if transcriptFailure != nil { status = .outputFailed }
        status = status.unlessOutputFailed(output)
        if output.failure == nil {
            let lines = json
                ? try report.finalJSON(outcome, elapsed: elapsed, exit: status)
                : report.finalText(outcome, elapsed: elapsed)
            for line in lines { output.writeLine(line) }
            status = status.unlessOutputFailed(output)  // after the last lines are written (or failed)
        }
        if let failure = outcome.failure { errors.writeLine("tictactoe: \(DisplayText.escaped(failure.description))") }
        if let transcriptFailure { errors.writeLine("tictactoe: \(transcriptFailure)") }
        if let failure = output.failure { errors.writeLine("tictactoe: \(failure)") }
        return status
    }

    /// The `script:` players' scripts, read and parsed before anything runs (exit 8 as for host and join).
    private func readScripts() -> Result<[Int: ScriptedPlayer], PlayerSpecError> {
        var scripts: [Int: ScriptedPlayer] = [:]
        for (index, player) in players.enumerated() {
            guard case .script = player else { continue }
            do throws(PlayerSpecError) {
                scripts[index] = try player.makePlayer(seed: 0) as? ScriptedPlayer
            } catch {
                return .failure(error)
            }
        }
        return .success(scripts)
    }

    /// Makes the transcripts folder before the first game; why it cannot be, or nil.
    private func makeTranscriptsDirectory() -> String? {
        guard let transcripts else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: transcripts, withIntermediateDirectories: true)
            return nil
        } catch {
            return "cannot create the transcripts directory '\(transcripts)': \(AppManifest.describe(error))"
        }
    }

    /// Writes a game's transcript into the transcripts folder, if there is one; why it cannot be, or nil.
    private func writeTranscript(_ record: SeriesGameRecord, scores: [MatchScore], report: SeriesReport) -> String? {
        guard let transcripts else { return nil }
        let path = transcripts + "/" + Self.transcriptName(record.game.number)
        do {
            let text = try report.transcript(record, scores: scores).joined(separator: "\n") + "\n"
            guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
                return "cannot write the transcript '\(path)'"
            }
            return nil
        } catch {
            return "cannot write the transcript '\(path)': \(error)"
        }
    }

    /// Permission comes first, once (a prompt on a terminal; or a wait, said on standard error); why it did not come
    /// and the exit status that says so, or nil once it has.
    private static func obtainAccess(
        _ network: SeriesNetwork, clock: any Clock<Duration>, stop: StopSignal, errors: CheckedOutput
    ) async -> (message: String, status: ExitStatus)? {
        do {
            try await network.obtainAccess(clock: clock) {
                errors.writeLine("tictactoe: waiting for local network permission: \($0)")
            }
            return nil
        } catch {
            return noAccess(error, over: network.address, stop: stop.raised)
        }
    }

    /// Why the series cannot be played over `address`, and its exit status: the error's own (`ExitStatus(failure:)`;
    /// a wait cancelled by a stop ends as that stop).
    static func noAccess(
        _ error: any Error, over address: String, stop: ByeReason?
    ) -> (message: String, status: ExitStatus) {
        let status = ExitStatus(failure: error, stop: stop)
        if let refusal = error as? TransportSecurityRefusal {
            return ("cannot play unencrypted games (--plaintext) over \(address): \(refusal)", status)
        }
        return (failureMessage(error, before: "the series"), status)
    }

    /// `game-0001.jsonl` (four digits at least).
    static func transcriptName(_ number: Int) -> String {
        let digits = String(number)
        return "game-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + ".jsonl"
    }
}

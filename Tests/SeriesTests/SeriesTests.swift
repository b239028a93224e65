import AppCore
import GameRules
import MatchPlay
import MatchStatistics
import Series
import TicTacToeTestSupport
import XCTest

/// `tictactoe match`'s pieces in process: the pairing and colour schedule, the seeds derived from the series seed,
/// the names, and the runner (the same games whatever the concurrency; the SPRT stopping; the standings).
final class SeriesTests: XCTestCase {
    func testTwoPlayersAlternateColoursTheFirstPlayerIsXInOddGames() {
        let schedule = SeriesSchedule(players: 2, gamesPerPair: 4)
        XCTAssertEqual(schedule.count, 4)
        let games = (1...4).map(schedule.game)
        XCTAssertEqual(games.map(\.x), [0, 1, 0, 1])
        XCTAssertEqual(games.map(\.o), [1, 0, 1, 0])
        XCTAssertEqual(games.map(\.pairGame), [1, 2, 3, 4])
        XCTAssertEqual(games.map(\.first), [0, 0, 0, 0])
    }

    func testARoundRobinPlaysEveryPairInTurn() {
        let schedule = SeriesSchedule(players: 3, gamesPerPair: 2)
        XCTAssertEqual(schedule.pairs.map { "\($0.first)-\($0.second)" }, ["0-1", "0-2", "1-2"])
        XCTAssertEqual(schedule.count, 6)
        let games = (1...6).map(schedule.game)
        XCTAssertEqual(games.map(\.pair), [0, 0, 1, 1, 2, 2])
        XCTAssertEqual(games.map { "\($0.x)\($0.o)" }, ["01", "10", "02", "20", "12", "21"])
        XCTAssertEqual(games.map(\.number), [1, 2, 3, 4, 5, 6])
    }

    func testSeedsDependOnTheSeriesSeedTheGameAndTheMarkOnly() {
        // The first output of SplitMix64 from series ^ (slot · 0xD1B54A32D192ED03), slot = 2·game + (O ? 1 : 0).
        var generator = SplitMix64(seed: 7 ^ (2 &* 0xD1B5_4A32_D192_ED03))
        XCTAssertEqual(SeriesSeeds.seed(series: 7, game: 1, mark: .x), generator.next())
        var seeds = Set<UInt64>()
        for game in 1...1000 {
            for mark in [Mark.x, .o] { seeds.insert(SeriesSeeds.seed(series: 42, game: game, mark: mark)) }
        }
        XCTAssertEqual(seeds.count, 2000, "every player of every game has a seed of its own")
        XCTAssertNotEqual(SeriesSeeds.seed(series: 1, game: 5, mark: .x), SeriesSeeds.seed(series: 2, game: 5, mark: .x))
    }

    func testAPlayerGivenTwiceIsNumbered() {
        XCTAssertEqual(SeriesNames.names([.perfect, .easy]), ["perfect", "easy"])
        XCTAssertEqual(SeriesNames.names([.perfect, .perfect, .easy]), ["perfect#1", "perfect#2", "easy"])
        XCTAssertEqual(
            SeriesNames.names([.engine(command: "python3 bots/perfect.py --level 2"), .script(path: "a.txt")]),
            ["perfect.py", "script:a.txt"])
    }

    private func runner(_ specs: [PlayerSpec], games: Int, seed: UInt64, concurrency: Int, sprt: SPRT? = nil)
        -> SeriesRunner
    {
        SeriesRunner(
            schedule: SeriesSchedule(players: specs.count, gamesPerPair: games),
            player: SeriesGamePlayer(
                specs: specs, names: SeriesNames.names(specs), seed: seed, scripts: [:],
                engineLogDirectory: Scratch.root, moveTime: .seconds(5), clock: ContinuousClock()),
            concurrency: concurrency, sprt: sprt)
    }

    func testTheSameSeedPlaysTheSameGamesWhateverTheConcurrency() async {
        var runs: [[String]] = []
        for concurrency in [1, 4, 7] {
            var games: [String] = []
            let outcome = await runner([.medium, .easy], games: 30, seed: 99, concurrency: concurrency).run { record, _ in
                games.append("\(record.game.number):\(record.moves)")
                return true
            }
            XCTAssertEqual(outcome.games, 30)
            XCTAssertEqual(outcome.scores[0].games, 30)
            runs.append(games)
        }
        XCTAssertEqual(runs[0], runs[1])
        XCTAssertEqual(runs[0], runs[2])
        XCTAssertEqual(runs[0].map { $0.split(separator: ":")[0] }, (1...30).map { "\($0)" }, "reported in order")
        let other = await runner([.medium, .easy], games: 30, seed: 100, concurrency: 1).run { _, _ in true }
        XCTAssertEqual(other.games, 30)
    }

    func testPerfectAgainstItselfDrawsEveryGame() async {
        let outcome = await runner([.perfect, .perfect], games: 10, seed: 1, concurrency: 2).run { _, _ in true }
        XCTAssertEqual(outcome.scores, [MatchScore(wins: 0, losses: 0, draws: 10)])
    }

    func testTheSPRTStopsALopsidedMatchWithH1() async {
        let test = try! SPRT(elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05)
        var decisions: [SPRT.Decision] = []
        let outcome = await runner([.perfect, .easy], games: 1000, seed: 3, concurrency: 3, sprt: test).run { _, scores in
            decisions.append(test.decision(scores[0]))
            return true
        }
        XCTAssertEqual(outcome.decision, .acceptH1)
        XCTAssertLessThan(outcome.games, 1000)
        XCTAssertEqual(decisions.count, outcome.games)
        // It stopped at the first game where the test decides.
        XCTAssertEqual(decisions.last, .acceptH1)
        XCTAssertEqual(Set(decisions.dropLast()), [.continue])
        XCTAssertEqual(outcome.scores[0].losses, 0, "perfect never loses")
    }

    func testStandingsCountPointsForBothSidesOfEachPair() {
        let schedule = SeriesSchedule(players: 3, gamesPerPair: 4)
        let report = SeriesReport(names: ["a", "b", "c"], schedule: schedule, seed: 0, sprt: nil)
        // a–b 3-0-1, a–c 0-2-2, b–c 1-1-2: a 3.5+1 = 4.5; b 0.5+2 = 2.5... worked by hand below.
        let scores = [
            MatchScore(wins: 3, losses: 0, draws: 1), MatchScore(wins: 0, losses: 2, draws: 2),
            MatchScore(wins: 1, losses: 1, draws: 2),
        ]
        // a: 3 + 0.5 + 0 + 1 = 4.5 (8 games); b: 0 + 0.5 + 1 + 1 = 2.5; c: 2 + 1 + 1 + 1 = 5.
        let standings = report.standings(scores)
        XCTAssertEqual(standings.map(\.player), [2, 0, 1])
        XCTAssertEqual(standings.map(\.points), [5, 4.5, 2.5])
        XCTAssertEqual(standings.map(\.score.games), [8, 8, 8])
        XCTAssertEqual(standings[0].score, MatchScore(wins: 3, losses: 1, draws: 4))
    }
}

import Foundation
import XCTest
import TicTacToeTestSupport

/// Bonjour discovery between lab hosts, against real peers (avahi-publish, avahi-browse) and between tictactoes.
final class DiscoveryLabTests: LabTestCase {
    func testGamesPublishedByAvahiAppearInBrowse() throws {
        let published = ["Bob's game", "Partie d’Élodie 🎲", "two  spaces and 'quotes'"]
        for name in published { _ = try publish(on: "host-a", name: name) }
        let (games, status, process) = try browse(on: "host-b")
        XCTAssertEqual(status, 0, process.standardError)
        XCTAssertEqual(names(games).sorted(), published.sorted(), "\(process.output)")
        for game in games {
            XCTAssertEqual(game["compatible"] as? Bool, true, "\(game)")
            XCTAssertEqual(game["private"] as? Bool, false, "\(game)")
            XCTAssertEqual(game["secure"] as? Bool, true, "\(game)")
        }
        // AVAHI_COMPAT_NOWARN: Avahi's compatibility banner never reaches the terminal.
        XCTAssertEqual(process.standardError, "")
    }

    func testIncompatibleServicesAreListedAsIncompatible() throws {
        _ = try publish(on: "host-a", name: "iOS sample game", txt: [])        // another program: no version
        _ = try publish(on: "host-a", name: "From the future", txt: ["proto=3", "sec=open"])
        _ = try publish(on: "host-a", name: "No security said", txt: ["proto=2"])
        _ = try publish(on: "host-c", name: "Newer variant", txt: ["proto=2", "sec=quantum"])
        let (games, status, process) = try browse(on: "host-b")
        XCTAssertEqual(status, 0, process.standardError)
        let byName = Dictionary(uniqueKeysWithValues: games.map { ($0["name"] as! String, $0) })
        XCTAssertEqual(Set(byName.keys), ["iOS sample game", "From the future", "No security said", "Newer variant"])
        for game in games {
            XCTAssertEqual(game["compatible"] as? Bool, false, "\(game)")
            XCTAssertEqual(game["private"] as? Bool, false, "\(game)")
            XCTAssertEqual(game["secure"] as? Bool, false, "\(game)")
        }
        XCTAssertTrue((byName["iOS sample game"]?["reason"] as? String ?? "").contains("no protocol version"))
        XCTAssertTrue((byName["From the future"]?["reason"] as? String ?? "").contains("version 3"))
        XCTAssertEqual(byName["No security said"]?["reason"] as? String, "no security mode advertised")
        XCTAssertEqual(byName["Newer variant"]?["reason"] as? String,
                       "uses security 'quantum' this version does not know; update tictactoe")
        // The text listing says so too.
        let text = try tictactoe(on: "host-b", ["browse", "--timeout", "3"])
        XCTAssertEqual(text.waitForExit(), 0)
        XCTAssertTrue(text.output.contains { $0.hasPrefix("iOS sample game") && $0.contains("not joinable") },
                      "\(text.output)")
    }

    /// Private games (joining needs the host's code) and protocol 1 ones (unencrypted: joinable with --plaintext)
    /// are listed joinable and marked, in `browse --json` and in the text listing.
    func testPrivateAndUnencryptedGamesAreMarked() throws {
        _ = try publish(on: "host-a", name: "Open game")
        _ = try publish(on: "host-a", name: "Secret game", txt: ["proto=2", "sec=private"])
        _ = try publish(on: "host-c", name: "Plain old game", txt: ["proto=1"])
        let (games, status, process) = try browse(on: "host-b")
        XCTAssertEqual(status, 0, process.standardError)
        let byName = Dictionary(uniqueKeysWithValues: games.map { ($0["name"] as! String, $0) })
        XCTAssertEqual(Set(byName.keys), ["Open game", "Secret game", "Plain old game"], "\(process.output)")
        for game in games { XCTAssertEqual(game["compatible"] as? Bool, true, "\(game)") }
        XCTAssertEqual(byName["Open game"]?["private"] as? Bool, false)
        XCTAssertEqual(byName["Open game"]?["secure"] as? Bool, true)
        XCTAssertEqual(byName["Secret game"]?["private"] as? Bool, true)
        XCTAssertEqual(byName["Secret game"]?["secure"] as? Bool, true)
        XCTAssertEqual(byName["Plain old game"]?["private"] as? Bool, false)
        XCTAssertEqual(byName["Plain old game"]?["secure"] as? Bool, false)
        let text = try tictactoe(on: "host-b", ["browse", "--timeout", "3"])
        XCTAssertEqual(text.waitForExit(), 0)
        XCTAssertTrue(text.output.contains { $0.hasPrefix("Open game  on host-a.local ") && !$0.hasSuffix(")") },
                      "\(text.output)")
        // Each line: the name, where it is, then how it is protected.
        XCTAssertTrue(text.output.contains { $0.hasPrefix("Secret game  on host-a.local ") && $0.hasSuffix("  (private: needs a code)") },
                      "\(text.output)")
        XCTAssertTrue(text.output.contains {
            $0.hasPrefix("Plain old game  on host-c.local ") && $0.hasSuffix("  (unencrypted, protocol 1)")
        }, "\(text.output)")
    }

    func testHostIsSeenByAvahiBrowseWithPortAndTXT() throws {
        let (_, port, registered) = try startHost(on: "host-a", name: "Carol's table ☕", port: 7979)
        XCTAssertEqual(registered, "Carol's table ☕")
        let fields = try XCTUnwrap(avahiBrowseResolved(on: "host-b", name: registered),
                                   "avahi-browse never resolved it")
        // =;IFACE;PROTO;NAME;TYPE;DOMAIN;HOSTNAME;ADDRESS;PORT;TXT
        XCTAssertEqual(fields[4], "_tictactoe._tcp")
        XCTAssertEqual(fields[6], "host-a.local")
        XCTAssertEqual(fields[7], Lab.address(of: "host-a"))
        XCTAssertEqual(fields[8], String(port))
        // An open game (the default): protocol 2, encrypted, anyone may join. Avahi lists the strings in any order.
        XCTAssertEqual(Set(fields[9].split(separator: " ")), ["\"proto=2\"", "\"sec=open\""], fields[9])
    }

    func testJoinByNameCompletesAHeadlessGame() throws {
        let (host, port, registered) = try startHost(on: "host-a", name: "Dana's game", extra: ["--games", "3"])
        let state = Scratch.path("tictactoe-lab-join-state-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        scratchPaths.append(state)
        let joiner = try tictactoe(on: "host-b", ["join", registered, "--headless", "--json", "--seed", "5",
                                                  "--name", "joiner"], environment: ["XDG_STATE_HOME": state])
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, joiner.standardError)
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)
        let resolved = try XCTUnwrap(joiner.events(named: "resolved").first)
        let address = "\(Lab.address(of: "host-a")):\(port)"
        XCTAssertEqual(resolved["addresses"] as? [String], [address])
        // The joiner's privacy report: the browse allowed, what the name resolved to, the connection allowed.
        let report = try String(contentsOfFile: state + "/tictactoe/privacy-report.jsonl", encoding: .utf8)
        let records = report.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let summary = records.map { "\($0["event"] ?? "") \($0["operation"] ?? "") \($0["destination"] ?? "")" }
        XCTAssertEqual(summary, [
            "decision browse _tictactoe._tcp",
            "operation resolve \(registered) (_tictactoe._tcp): \(address)",
            "decision connect \(address)",
        ], report)
        XCTAssertEqual(Set(records.compactMap { $0["origin"] as? String }), ["tictactoe join"], report)
        // As the README's table says: `seed` first, then the name's resolution.
        XCTAssertEqual(Array(joiner.events.compactMap { $0["event"] as? String }.prefix(2)), ["seed", "resolved"])
        XCTAssertEqual(joiner.events(named: "summary").last?["games"] as? Int, 3)
        XCTAssertEqual(host.events(named: "summary").last?["games"] as? Int, 3)
        // The host stayed advertised through its match (its TXT record said it was playing) and withdrew only when
        // it was done.
        let hostEvents = host.events.compactMap { $0["event"] as? String }
        let advertised = try XCTUnwrap(hostEvents.firstIndex(of: "advertised"), "\(hostEvents)")
        let matchOver = try XCTUnwrap(hostEvents.firstIndex(of: "match-over"), "\(hostEvents)")
        XCTAssertFalse(hostEvents[advertised..<matchOver].contains("withdrawn"), "\(hostEvents)")
        XCTAssertEqual(hostEvents.last, "withdrawn", "\(hostEvents)")
    }

    func testJoinByAnUnknownNameFailsWithUnreachable() throws {
        let joiner = try tictactoe(on: "host-b", ["join", "Nobody's game", "--headless", "--json",
                                                  "--connect-timeout", "3"])
        XCTAssertEqual(joiner.waitForExit(timeout: 30), 5, joiner.standardError)
        let error = try XCTUnwrap(joiner.events(named: "error").last)
        XCTAssertTrue((error["message"] as? String ?? "").contains("Nobody's game"), "\(error)")
    }

    func testJoinByNameOfAnIncompatibleGameIsRefused() throws {
        _ = try publish(on: "host-a", name: "Other program", txt: [])
        let joiner = try tictactoe(on: "host-b", ["join", "Other program", "--headless", "--json"])
        XCTAssertEqual(joiner.waitForExit(timeout: 30), 4, joiner.standardError)
        XCTAssertTrue((joiner.events(named: "error").last?["message"] as? String ?? "").contains("cannot be joined"))
    }

    func testThreeHostsAdvertisingAtOnceAreListedOnceEach() throws {
        let expected = ["Game on a", "Game on b", "Game on c"]
        for (host, name) in zip(Lab.hosts, expected) { _ = try startHost(on: host, name: name) }
        for host in ["host-b", "host-c"] {
            let (games, status, process) = try browse(on: host)
            XCTAssertEqual(status, 0, process.standardError)
            XCTAssertEqual(names(games).sorted(), expected, "on \(host): \(process.output)")
        }
    }

    func testANameCollisionIsReportedWithTheRegisteredName() throws {
        let (_, _, first) = try startHost(on: "host-a", name: "Twin")
        XCTAssertEqual(first, "Twin")
        let (_, _, second) = try startHost(on: "host-b", name: "Twin")
        XCTAssertNotEqual(second, "Twin", "Avahi renames the second one")
        XCTAssertTrue(second.hasPrefix("Twin"), second)
        let (games, _, _) = try browse(on: "host-c")
        XCTAssertEqual(names(games).sorted(), ["Twin", second].sorted())
    }

    func testAHostThatQuitsDisappearsWithinFiveSeconds() throws {
        let watch = try tictactoe(on: "host-b", ["browse", "--watch", "--json", "--timeout", "60"])
        let (host, _, name) = try startHost(on: "host-a", name: "Eve's game")
        let killed = try startHost(on: "host-c", name: "Mallory's game").0
        let both: Set = [name, "Mallory's game"]
        let listed = try XCTUnwrap(watch.waitForGames(where: { Set(names($0)).isSuperset(of: both) }),
                                   "\(watch.output)")
        host.signal(SIGTERM)  // quits: withdraws its advertisement
        let quitAt = ContinuousClock.now
        let gone = watch.waitForGames(from: listed.index + 1, timeout: 5) { !names($0).contains(name) }
        XCTAssertNotNil(gone, "still listed 5 s after quitting: \(watch.output)")
        if let gone {
            print("LATENCY host quit -> gone from the list: \(Int(gone.time.milliseconds(since: quitAt))) ms")
        }
        killed.signal(SIGKILL)  // dies: its daemon withdraws for it when the D-Bus connection drops
        let diedAt = ContinuousClock.now
        let alsoGone = watch.waitForGames(from: (gone?.index ?? listed.index) + 1, timeout: 5) {
            !names($0).contains("Mallory's game")
        }
        XCTAssertNotNil(alsoGone, "a killed host still listed after 5 s: \(watch.output)")
        if let alsoGone {
            print("LATENCY host killed -> gone from the list: \(Int(alsoGone.time.milliseconds(since: diedAt))) ms")
        }
    }

    /// A live list shows a TXT change without waiting for its refresh (set to 60 s here): a `browse --watch` on host-c
    /// sees the host on host-a turn to playing once a joiner is in, and back to waiting once the match is over, each
    /// within 10 s (the lookup of a listed game stays open).
    func testAWatchShowsAGameTurnToPlayingAndBackWithoutWaitingForItsRefresh() throws {
        let (host, _, name) = try startHost(on: "host-a", name: "Live Lena", extra: ["--matches", "2", "--move-delay", "1"])
        let watch = try tictactoe(on: "host-c", ["browse", "--watch", "--json", "--timeout", "90"],
                                  environment: ["TICTACTOE_BROWSE_REFRESH": "60"])
        func game(_ games: [[String: Any]]) -> [String: Any]? { games.first { $0["name"] as? String == name } }
        let free = try XCTUnwrap(watch.waitForGames { game($0)?["compatible"] as? Bool == true }, "\(watch.output)")
        XCTAssertEqual(game(free.games)?["playing"] as? Bool, false, "\(free.games)")

        let joiner = try tictactoe(on: "host-b", ["join", name, "--headless", "--json", "--move-delay", "1",
                                                  "--name", "Joe"])
        let connected = try XCTUnwrap(joiner.waitForEvent("connected"), joiner.standardError)
        let playing = watch.waitForGames(from: free.index + 1, timeout: 10) { game($0)?["playing"] as? Bool == true }
        XCTAssertNotNil(playing, "not listed as playing within 10 s of the join: \(watch.output)")
        XCTAssertEqual(joiner.waitForExit(timeout: 60), 0, joiner.standardError)
        let over = ContinuousClock.now
        let back = watch.waitForGames(from: (playing?.index ?? free.index) + 1, timeout: 10) {
            game($0)?["playing"] as? Bool == false
        }
        XCTAssertNotNil(back, "not listed as waiting again within 10 s of the match's end: \(watch.output)")
        print("browse --watch (refresh 60 s) on host-c: playing \(playing.map { $0.time.milliseconds(since: connected.time) } ?? -1) ms "
            + "after the joiner connected, waiting again \(back.map { $0.time.milliseconds(since: over) } ?? -1) ms after the match")
        for line in watch.output where line.contains(name) { print("  \(line)") }
        host.terminate()
    }

    /// A host that crashed with its machine's daemon (no goodbye: its records stay in the browsing daemon's cache) and
    /// is started again under the same name, now open instead of private: a watch with a 60 s refresh lists it open
    /// within 10 s of its new advertisement, not as the old private game.
    func testAHostRestartedUnderTheSameNameIsListedAsItIsNow() throws {
        let (first, _, name) = try startHost(on: "host-a", name: "Phoenix", extra: ["--private"])
        let watch = try tictactoe(on: "host-c", ["browse", "--watch", "--json", "--timeout", "90"],
                                  environment: ["TICTACTOE_BROWSE_REFRESH": "60"])
        func game(_ games: [[String: Any]]) -> [String: Any]? { games.first { $0["name"] as? String == name } }
        let privately = try XCTUnwrap(watch.waitForGames { game($0)?["private"] as? Bool == true }, "\(watch.output)")
        defer { if Lab.run(["avahi-running", "host-a"]).0 != 0 { Lab.run(["start-avahi", "host-a"]) } }
        XCTAssertEqual(Lab.run(["kill-avahi", "host-a"]).0, 0)
        first.signal(SIGKILL)
        XCTAssertEqual(Lab.run(["start-avahi", "host-a"]).0, 0)
        let (_, _, again) = try startHost(on: "host-a", name: "Phoenix")
        XCTAssertEqual(again, name, "registered under the same name")
        let restarted = ContinuousClock.now
        let open = watch.waitForGames(from: privately.index + 1, timeout: 10) {
            game($0)?["private"] as? Bool == false && game($0)?["compatible"] as? Bool == true
        }
        XCTAssertNotNil(open, "still listed as the old game 10 s after the restart: \(watch.output)")
        print("restarted under the same name: listed open \(open.map { $0.time.milliseconds(since: restarted) } ?? -1) ms "
            + "after it was advertised again")
    }

    /// A host stays advertised while it plays and says so in its TXT record (`state=playing`, `watch=N`), and two
    /// spectators who found it by name watch its matches: one reads every position; the other stops reading and is
    /// dropped, while the players go on at full speed.
    func testAPlayingHostStaysAdvertisedSaysSoAndTwoSpectatorsOneStalledWatch() throws {
        let (host, _, name) = try startHost(on: "host-a", name: "Watched Wendy", extra: [
            "--spectators", "2", "--matches", "2", "--games", "400"])
        func listed(on lab: String) throws -> [String: Any]? {
            try browse(on: lab).games.first { $0["name"] as? String == name }
        }
        /// The listing once it says `playing` (a TXT change reaches another host's Avahi cache a moment after it is
        /// made: a browse started at once may still see the record before it); the last one seen after 20 s.
        func listed(on lab: String, playing: Bool, watch: Int) throws -> [String: Any]? {
            let deadline = Date().addingTimeInterval(20)
            var last: [String: Any]?
            repeat {
                last = try browse(on: lab, timeout: 1).games.first { $0["name"] as? String == name }
                if last?["playing"] as? Bool == playing, last?["watch"] as? Int == watch { return last }
            } while Date() < deadline
            return last
        }
        let free = try XCTUnwrap(try listed(on: "host-c"))
        XCTAssertEqual(free["playing"] as? Bool, false, "\(free)")
        XCTAssertEqual(free["watch"] as? Int, 2, "\(free)")

        // Two spectators, by name: one on host-b, one on host-c that stops reading once it is in.
        let steady = try tictactoe(on: "host-b", ["watch", name, "--json", "--name", "steady"])
        let stalled = try tictactoe(on: "host-c", ["watch", name, "--json", "--name", "stalled"])
        XCTAssertNotNil(steady.waitForEvent("watch"), steady.standardError)
        XCTAssertNotNil(stalled.waitForEvent("watch"), stalled.standardError)
        for watcher in ["steady", "stalled"] {
            XCTAssertNotNil(host.waitForEvent("spectator", where: {
                $0["name"] as? String == watcher && $0["joined"] as? Bool == true
            }), "\(host.output)")
        }
        stalled.signal(SIGSTOP)

        // A slow first match: meanwhile the host is listed as playing, with no room left for spectators.
        let slow = try tictactoe(on: "host-b", ["join", name, "--headless", "--json", "--games", "2",
                                                "--move-delay", "1", "--name", "Slow Sam"])
        XCTAssertNotNil(slow.waitForEvent("move"), slow.standardError)
        let playing = try XCTUnwrap(try listed(on: "host-c", playing: true, watch: 0), "listed while it plays")
        XCTAssertEqual(playing["playing"] as? Bool, true, "\(playing)")
        XCTAssertEqual(playing["watch"] as? Int, 0, "\(playing)")
        XCTAssertEqual(slow.waitForExit(timeout: 60), 0, slow.standardError)

        // A fast second match of 400 games: the stalled spectator is dropped, the players are not held up.
        let fast = try tictactoe(on: "host-b", ["join", name, "--headless", "--json", "--name", "Fast Fay"])
        XCTAssertEqual(fast.waitForExit(timeout: 120), 0, fast.standardError)
        XCTAssertEqual(fast.events(named: "game-over").count, 400)
        XCTAssertNotNil(host.waitForEvent("spectator", where: {
            $0["name"] as? String == "stalled" && $0["joined"] as? Bool == false
        }), "\(host.output.suffix(20))")
        XCTAssertEqual(host.waitForExit(timeout: 30), 0, host.standardError)

        // The steady one saw both matches to the end, then the host said it was done.
        XCTAssertEqual(steady.waitForExit(timeout: 30), 0, steady.standardError)
        let over = steady.events(named: "watch").filter { $0["phase"] as? String == "over" }
        XCTAssertEqual(over.filter { $0["joiner"] as? String == "Slow Sam" }.count, 2)
        XCTAssertEqual(over.filter { $0["joiner"] as? String == "Fast Fay" }.count, 400)
        XCTAssertEqual(over.last?["game"] as? Int, 400)
        // Resumed, it finds its connection closed without a goodbye (3), or its heartbeat deadline passed (6).
        stalled.signal(SIGCONT)
        let end = stalled.waitForExit(timeout: 30)
        XCTAssertTrue(end == 3 || end == 6, "dropped: \(String(describing: end)) \(stalled.standardError)")
        func txt(_ game: [String: Any]) -> String { "playing: \(game["playing"] ?? "-"), watch: \(game["watch"] ?? "-")" }
        print("spectators in the lab: listed before (\(txt(free))), during a match (\(txt(playing))); the steady spectator saw "
            + "\(steady.events(named: "watch").count) positions (\(over.count) games over), the stalled one saw "
            + "\(stalled.events(named: "watch").count) and was dropped (exit \(end.map(String.init) ?? "-")); host: "
            + host.events(named: "spectator").map { "\($0["name"] ?? "") \($0["joined"] as? Bool == true ? "in" : "out")" }
                .joined(separator: ", "))
    }

    func testTextListingIsSafeForTheTerminal() throws {
        // The text listing is for people: names shown escaped (ESC as \x1b), one per line, so that nothing acts on
        // the terminal and `join NAME` takes the name exactly as printed.
        _ = try publish(on: "host-a", name: "Esc\u{1B}[31mape")
        let text = try tictactoe(on: "host-b", ["browse", "--timeout", "3"])
        XCTAssertEqual(text.waitForExit(), 0)
        XCTAssertFalse(text.output.joined().contains("\u{1B}"), "an escape sequence reached the terminal")
        XCTAssertTrue(text.output.contains { $0.hasPrefix(#"Esc\x1b[31mape  on host-a.local "#) }, "\(text.output)")
    }
}

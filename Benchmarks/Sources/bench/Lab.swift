// The figures measured in the LAN lab (Tests/lab/lan: network namespaces with their own avahi-daemon), under its
// lock, always torn down afterwards.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Bench {
    func lab(rtt: inout Row, up: inout Row, down: inout Row, change: inout Row, memory: inout Row,
             labMemory: inout String?, quick: Bool) throws {
        log("lab: waiting for the lab lock")
        guard labLock() else { throw BenchError("the lab lock stayed taken for 90 s (another lab user)") }
        log("lab: lan up bench-a bench-b")
        labUp = true
        let upResult = try run([lan, "up", "bench-a", "bench-b"], timeout: 120)
        guard upResult.code == 0 else { throw BenchError("lan up failed: \(upResult.output.suffix(300))") }
        let addressA = try run([lan, "addr", "bench-a"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let addressB = try run([lan, "addr", "bench-b"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let environmentA = try grantedEnvironment("bench-a"), environmentB = try grantedEnvironment("bench-b")

        // 2: move round trips across the veth, and the ping-pong the same way.
        log("lab: C ping-pong bench-b → bench-a (\(addressA))")
        let anchor = try pingPong(address: addressA, server: "bench-a", client: "bench-b")
        rtt.anchor = Summary(us(anchor)).map(Measure.init)
        series.append(Series(name: "C ping-pong, lab", color: "#2ca02c", dashed: true, samplesMicroseconds: us(anchor)))
        log("lab: a match bench-b → bench-a, TLS, \(quick ? 200 : 600) games")
        do {
            let run = try match(games: quick ? 200 : 600, plaintext: false, host: "bench-a", joiner: "bench-b",
                                address: addressA, hostEnvironment: environmentA, joinerEnvironment: environmentB)
            rtt.ours = Summary(us(run.roundTrips)).map(Measure.init)
            series.append(Series(name: "ours TLS, lab", color: "#1f77b4", dashed: true, samplesMicroseconds: us(run.roundTrips)))
        } catch {
            rtt.missing = "not measured: \(error)"
        }
        log("lab: a match bench-b → bench-a, plaintext (only where the manifest allows it)")
        do {
            let run = try match(games: quick ? 200 : 600, plaintext: true, host: "bench-a", joiner: "bench-b",
                                address: addressA, hostEnvironment: environmentA, joinerEnvironment: environmentB)
            rtt.oursPlain = Summary(us(run.roundTrips)).map(Measure.init)
        } catch {
            let text = String(describing: error)
            rtt.missingPlain = text.contains("exit 14")
                ? "n/a: the manifest refuses plaintext off loopback (exit 14)" : "not measured: \(text.prefix(120))"
        }
        if let ours = rtt.ours?.summary, let anchorSummary = rtt.anchor?.summary {
            rtt.note = "\(addressB) → \(addressA) over the lab's veth and bridge; means: anchor \(format(anchorSummary.mean)), "
                + "TLS \(format(ours.mean)) µs; \(ours.n) round trips"
        }

        // 5: discovery, ours and avahi's tools, in alternating trials (ours first in even trials, the anchor first in
        // odd ones), each publication after a random pause of up to a second. Within one block of back-to-back trials
        // every trial took nearly the same time (996-998 ms in one run, 805-806 in the next): the daemons' timers
        // kept the same phase to trials of the same length, so two blocks compared two phases, not two programs
        // (ratios from 0.95 to 1.24 across runs of one binary). Both browsers run throughout on bench-b, each on a
        // service type of its own (the anchor's `_tttanchor._tcp`): neither resolves the other's publications nor
        // finds them in the daemon's cache, so the two figures stay apart.
        let trials = quick ? 4 : 20
        var oursUp: [Double] = [], oursDown: [Double] = [], anchorUp: [Double] = [], anchorDown: [Double] = []
        var hostRSS: [Double] = [], browseRSS: Double?, avahiBrowseRSS: Double?
        log("lab: discovery, \(trials) trials each, alternating: tictactoe host → browse --watch, "
            + "avahi-publish → avahi-browse -r")

        let browser = try LineReader()
        let browse = try spawn([bin, "browse", "--watch", "--json"], on: "bench-b", environment: environmentB,
                               stdout: browser.writeFD)
        browser.closeWriteEnd()
        let avahi = try LineReader()
        let avahiBrowse = try spawn(["avahi-browse", "-rp", "_tttanchor._tcp"], on: "bench-b",
                                    environment: environmentB, stdout: avahi.writeFD)
        avahi.closeWriteEnd()
        defer {
            browse.terminate()
            avahiBrowse.terminate()
            browse.wait(timeout: 10)
            avahiBrowse.wait(timeout: 10)
        }
        // Let both browsers settle (their first list, or a quiet second).
        _ = browser.next(timeout: 1.5)
        _ = avahi.next(timeout: 1.5)

        func pause() { usleep(UInt32.random(in: 0..<1_000_000)) }
        func oursTrial(_ trial: Int) throws {
            pause()
            let name = "bench-\(getpid())-\(trial)"
            let start = monotonicNS()
            let host = try spawn([bin, "host", "--headless", "--name", name, "--port", "0", "--json"], on: "bench-a",
                                 environment: environmentA)
            guard let listed = waitForGames(browser, timeout: 15, { games in
                games.contains { ($0["name"] as? String) == name && ($0["state"] as? String) == "joinable"
                    && !(($0["addresses"] as? [Any]) ?? []).isEmpty }
            }) else {
                let hostEnded = host.hasExited  // by itself, before the trial stops it
                host.terminate()
                let hostExit = host.wait(timeout: 5).exitCode
                throw BenchError(Self.notListed(name, host: hostEnded ? hostExit : nil,
                                                browse: browse.hasExited ? browse.wait(timeout: 1).exitCode : nil))
            }
            oursUp.append(Double(listed - start) / 1e6)
            // VmHWM, not wait4's ru_maxrss: that one also counts the `lan exec` script and `ip netns exec` before
            // they exec'd the program.
            if let kb = host.vmHWMKB { hostRSS.append(Double(kb) / 1024) }
            let stop = monotonicNS()
            host.terminate()
            guard let gone = waitForGames(browser, timeout: 15, { games in
                !games.contains { ($0["name"] as? String) == name }
            }) else { throw BenchError("browse --watch still listed \(name) 15 s after the host stopped") }
            oursDown.append(Double(gone - stop) / 1e6)
            host.wait(timeout: 10)
        }
        func anchorTrial(_ trial: Int) throws {
            pause()
            let name = "anchor-\(getpid())-\(trial)"
            let start = monotonicNS()
            let publish = try spawn(["avahi-publish", "-s", name, "_tttanchor._tcp", "7878", "proto=2", "sec=open"],
                                    on: "bench-a", environment: environmentA)
            guard let resolved = waitForAvahi(avahi, prefix: "=", name: name, timeout: 15) else {
                publish.terminate()
                publish.wait(timeout: 5)
                throw BenchError("avahi-browse -r never resolved \(name) within 15 s")
            }
            anchorUp.append(Double(resolved - start) / 1e6)
            let stop = monotonicNS()
            publish.terminate()
            guard let removed = waitForAvahi(avahi, prefix: "-", name: name, timeout: 15) else {
                throw BenchError("avahi-browse never saw \(name) go within 15 s")
            }
            anchorDown.append(Double(removed - stop) / 1e6)
            publish.wait(timeout: 5)
        }
        for trial in 0..<trials {
            if trial.isMultiple(of: 2) {
                try oursTrial(trial)
                try anchorTrial(trial)
            } else {
                try anchorTrial(trial)
                try oursTrial(trial)
            }
        }
        try changeTrials(quick ? 2 : 6, browser: browser, environmentA: environmentA, environmentB: environmentB,
                         into: &change)
        browseRSS = browse.vmHWMKB.map { Double($0) / 1024 }
        avahiBrowseRSS = avahiBrowse.vmHWMKB.map { Double($0) / 1024 }
        // The readers' pipes stay open until both browsers have been read (a closed one would end its browser).
        withExtendedLifetime((browser, avahi)) {}

        up.ours = Summary(oursUp).map(Measure.init)
        up.anchor = Summary(anchorUp).map(Measure.init)
        down.ours = Summary(oursDown).map(Measure.init)
        down.anchor = Summary(anchorDown).map(Measure.init)
        up.note = "\(trials) trials each, alternating, each after a random pause of up to 1 s, from spawning the host "
            + "(`tictactoe host --headless --name N`, advertising) / `avahi-publish -s N _tttanchor._tcp 7878 proto=2 "
            + "sec=open` (a service type of its own) on bench-a until bench-b's `browse --watch --json` lists N "
            + "joinable with addresses / `avahi-browse -rp _tttanchor._tcp` prints its resolved (=) line"
        down.note = "from SIGTERM to the host / avahi-publish until the list no longer has N / avahi-browse prints its "
            + "removal (-) line"
        if let avahiBrowseRSS { memory.anchor = Measure(value: avahiBrowseRSS) }
        labMemory = "in the lab (VmHWM, binary cached): advertising host \(format(hostRSS.max() ?? .nan)) MB, "
            + "browse --watch \(format(browseRSS ?? .nan)) MB, avahi-browse -rp \(format(avahiBrowseRSS ?? .nan)) MB"
    }

    /// 5b: a listed game changes (a match starts on it): how soon `browse --watch` shows it playing, against how soon
    /// a fresh `avahi-browse -rpt` (the daemon's own view, looked at again and again) shows the new TXT record. Both
    /// from the joiner's start on bench-b (it joins by name), in separate trials, alternating.
    func changeTrials(_ trials: Int, browser: LineReader, environmentA: [String: String],
                      environmentB: [String: String], into row: inout Row) throws {
        log("lab: a game turns to playing, \(trials) trials, alternating: browse --watch, avahi-browse -rpt")
        var ours: [Double] = [], anchor: [Double] = []
        for trial in 0..<trials {
            let name = "change-\(getpid())-\(trial)"
            let host = try spawn([bin, "host", "--headless", "--name", name, "--port", "0", "--games", "1",
                                  "--move-delay", "1", "--json"], on: "bench-a", environment: environmentA)
            defer {
                host.terminate()
                host.wait(timeout: 10)
            }
            guard waitForGames(browser, timeout: 15, { games in
                games.contains { ($0["name"] as? String) == name && ($0["state"] as? String) == "joinable" }
            }) != nil else { throw BenchError("browse --watch never listed \(name) within 15 s") }
            let start = monotonicNS()
            let joiner = try spawn([bin, "join", name, "--headless", "--json"], on: "bench-b",
                                   environment: environmentB)
            defer {
                joiner.terminate()
                joiner.wait(timeout: 10)
            }
            if trial.isMultiple(of: 2) {
                guard let shown = waitForGames(browser, timeout: 15, { games in
                    games.contains { ($0["name"] as? String) == name && ($0["playing"] as? Bool) == true }
                }) else { throw BenchError("browse --watch never showed \(name) playing within 15 s") }
                ours.append(Double(shown - start) / 1e6)
            } else {
                var shown: UInt64?
                while shown == nil, monotonicNS() - start < 15_000_000_000 {
                    let look = try run([lan, "exec", "bench-b", "--", "avahi-browse", "-rpt", "_tictactoe._tcp"],
                                       environment: environmentB, timeout: 10)
                    let playing = look.output.split(separator: "\n").contains {
                        $0.hasPrefix("=") && $0.contains(";\(name);") && $0.contains("state=playing")
                    }
                    if playing { shown = monotonicNS() }
                }
                guard let shown else { throw BenchError("avahi-browse -rpt never showed \(name) playing in 15 s") }
                anchor.append(Double(shown - start) / 1e6)
            }
        }
        row.ours = Summary(ours).map(Measure.init)
        row.anchor = Summary(anchor).map(Measure.init)
        row.note = "\(trials) trials, alternating: from starting `tictactoe join NAME` on bench-b (the host on bench-a "
            + "says state=playing in its TXT record as the match starts) until bench-b's `browse --watch` lists NAME "
            + "playing / a fresh `avahi-browse -rpt` (run again and again, each a full look) prints the new TXT"
    }

    /// Why a trial's game was never listed, with the exit status of a host or browser that ended by itself: 12 is
    /// "not allowed to use the network", which a binary copied out of its checkout or prefix gets because it finds
    /// no app manifest (without this, the wait running out was all the message said).
    static func notListed(_ name: String, host: Int32?, browse: Int32?) -> String {
        var reason = "browse --watch never listed \(name) as joinable with addresses within 15 s"
        if let browse { reason += "; browse --watch had exited \(browse)" }
        if let host { reason += "; the host had exited \(host)" }
        if browse == 12 || host == 12 {
            reason += " (exit 12, e.g. no app manifest found: give BIN the layout `make install` makes, "
                + "PREFIX/bin/tictactoe beside PREFIX/share/tictactoe/)"
        }
        return reason
    }

    /// Reads `browse --watch --json` lines until a `games` event whose list satisfies `condition`; when it came.
    func waitForGames(_ reader: LineReader, timeout: Double, _ condition: ([[String: Any]]) -> Bool) -> UInt64? {
        let deadline = monotonicNS() + UInt64(timeout * 1e9)
        while monotonicNS() < deadline, let (line, at) = reader.next(timeout: Double(deadline &- monotonicNS()) / 1e9) {
            guard let object = jsonObject(line), object["event"] as? String == "games" else { continue }
            if condition(object["games"] as? [[String: Any]] ?? []) { return at }
        }
        return nil
    }

    /// Reads `avahi-browse -p` lines until one that starts with `prefix` (= resolved, - removed) for `name`.
    func waitForAvahi(_ reader: LineReader, prefix: String, name: String, timeout: Double) -> UInt64? {
        let deadline = monotonicNS() + UInt64(timeout * 1e9)
        while monotonicNS() < deadline, let (line, at) = reader.next(timeout: Double(deadline &- monotonicNS()) / 1e9) {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            if fields.count >= 4, fields[0] == prefix, fields[3] == name { return at }
        }
        return nil
    }
}

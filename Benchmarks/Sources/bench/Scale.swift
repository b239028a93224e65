// `--scale`: how the app's cost grows with the size of a LAN party. Discovery of N games against avahi-browse, the
// lobby with N members, a host with spectators, and long runs (a long match, a host serving many joins), each row
// saying how its cost grows per added host, member, spectator or 10,000 games. Prints its own table and writes
// scale-LABEL.json and scale-LABEL.svg beside the other results.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One measured point of a scale row.
struct ScalePoint: Codable {
    /// The size: games listed, lobby members, spectators, or games played so far.
    var size: Int
    /// The figure at that size (its unit is the row's).
    var ours: Double
    /// The anchor's figure at that size, where there is one.
    var anchor: Double?
    /// What else was read at that size (CPU, memory, descriptors), in words.
    var detail: String
}

struct ScaleRow: Codable {
    var figure: String
    var unit: String
    var anchorName: String
    var points: [ScalePoint] = []
    /// How the cost grows, in words (per host, member, spectator, 10,000 games).
    var growth = ""
    /// The goal, in words, and whether the run met it.
    var goal: String
    var met: Bool?
    var missing: String?
}

struct ScaleResults: Codable {
    var label: String
    var binary: String
    var date: String
    var runSeconds: Double
    var rows: [ScaleRow]
}

extension Bench {
    /// The lab's hosts for the scale rows: one browser and up to 24 game hosts (lobby members).
    static let scaleSizes = (discovery: [1, 8, 24], lobby: [3, 12, 24], spectators: [0, 1, 8])

    func runScale() throws {
        cleanUpOnSignals()
        defer { cleanUp() }
        var rows: [ScaleRow] = []
        if let reason = labUnavailableReason() {
            rows.append(ScaleRow(figure: "discovery of N games", unit: "ms", anchorName: "avahi-browse -r",
                                 goal: "≤ 1.05× avahi-browse at every N", missing: reason))
            rows.append(ScaleRow(figure: "lobby with N members", unit: "ms", anchorName: "-", goal: "growth only",
                                 missing: reason))
        } else {
            let hosts = ["scale-b"] + (1...24).map { "scale-\($0)" }
            log("scale: waiting for the lab lock")
            guard labLock() else { throw BenchError("the lab lock stayed taken for 90 s (another lab user)") }
            log("scale: lan up, \(hosts.count) hosts")
            labUp = true
            let up = try run([lan, "up"] + hosts, timeout: 300)
            guard up.code == 0 else { throw BenchError("lan up failed: \(up.output.suffix(300))") }
            var environments: [String: [String: String]] = [:]
            for host in hosts { environments[host] = try grantedEnvironment(host) }
            rows.append(scaleDiscovery(browser: "scale-b", hosts: Array(hosts.dropFirst()), environments: environments))
            rows.append(scaleLobby(hosts: Array(hosts.dropFirst()), environments: environments))
            labDown()
        }
        rows.append(scaleSpectators())
        rows.append(contentsOf: scaleLongRuns())
        finishScale(rows)
    }

    // MARK: Discovery of N games

    /// N lab hosts each start hosting one game at once; the time until one `browse --watch` on another host lists all
    /// N joinable with addresses, against `avahi-publish` on the same hosts until `avahi-browse -r` has resolved all
    /// N. A fresh browser per trial; ours and the anchor alternate which goes first.
    func scaleDiscovery(browser: String, hosts: [String], environments: [String: [String: String]]) -> ScaleRow {
        var row = ScaleRow(figure: "discovery of N games (all listed, resolved)", unit: "ms",
                           anchorName: "avahi-browse -r", goal: "≤ 1.05× avahi-browse at every N; < 50 KB per game")
        let trials = options.quick ? 1 : 3
        var memoryByN: [Int: Double] = [:]
        do {
            for n in Self.scaleSizes.discovery {
                var ours: [Double] = [], anchor: [Double] = [], cpu: [Double] = [], memory: [Double] = []
                for trial in 0..<trials {
                    log("scale: discovery of \(n) games, trial \(trial + 1)/\(trials)")
                    let order = trial.isMultiple(of: 2) ? [true, false] : [false, true]
                    for isOurs in order {
                        if isOurs {
                            let result = try discoverOurs(n, browser: browser, hosts: Array(hosts.prefix(n)),
                                                          environments: environments, trial: trial)
                            ours.append(result.ms)
                            cpu.append(result.cpuMS)
                            memory.append(result.peakKB)
                        } else {
                            anchor.append(try discoverAnchor(n, browser: browser, hosts: Array(hosts.prefix(n)),
                                                             environments: environments, trial: trial))
                        }
                    }
                }
                let oursMedian = median(ours), anchorMedian = median(anchor)
                memoryByN[n] = median(memory)
                row.points.append(ScalePoint(
                    size: n, ours: oursMedian, anchor: anchorMedian,
                    detail: "browser CPU \(format(median(cpu))) ms, peak \(format(median(memory) / 1024)) MB"))
            }
            let ratios = row.points.compactMap { point in point.anchor.map { point.ours / $0 } }
            let smallest = Self.scaleSizes.discovery.first ?? 1, largest = Self.scaleSizes.discovery.last ?? 1
            let perGame = ((memoryByN[largest] ?? 0) - (memoryByN[smallest] ?? 0)) / Double(max(1, largest - smallest))
            row.growth = "ratio " + ratios.map { format($0) + "×" }.joined(separator: ", ")
                + "; browser memory \(format(perGame)) KB per listed game"
            row.met = ratios.allSatisfy { $0 <= 1.05 } && perGame < 50
        } catch {
            row.missing = "not measured: \(error)"
        }
        return row
    }

    private func discoverOurs(_ n: Int, browser: String, hosts: [String], environments: [String: [String: String]],
                              trial: Int) throws -> (ms: Double, cpuMS: Double, peakKB: Double) {
        let reader = try LineReader()
        let browse = try spawn([bin, "browse", "--watch", "--json"], on: browser,
                               environment: environments[browser] ?? [:], stdout: reader.writeFD)
        reader.closeWriteEnd()
        var games: [Child] = []
        defer {
            for game in games { game.terminate() }
            for game in games { game.wait(timeout: 10) }
            browse.terminate()
            browse.wait(timeout: 10)
        }
        _ = reader.next(timeout: 1.5)  // its first (empty) list, or a quiet moment
        let names = hosts.map { "scale-\(getpid())-\(trial)-\($0)" }
        let start = monotonicNS()
        for (host, name) in zip(hosts, names) {
            games.append(try spawn([bin, "host", "--headless", "--name", name, "--port", "0", "--json"], on: host,
                                   environment: environments[host] ?? [:]))
        }
        let wanted = Set(names)
        guard let listed = waitForGames(reader, timeout: 30, { list in
            let joinable = list.filter {
                ($0["state"] as? String) == "joinable" && !(($0["addresses"] as? [Any]) ?? []).isEmpty
            }.compactMap { $0["name"] as? String }
            return wanted.isSubset(of: Set(joinable))
        }) else { throw BenchError("browse --watch did not list all \(n) games within 30 s") }
        let cpu = processCPUMilliseconds(browse.pid) ?? .nan
        let peak = Double(browse.vmHWMKB ?? 0)
        withExtendedLifetime(reader) {}
        return (Double(listed - start) / 1e6, cpu, peak)
    }

    private func discoverAnchor(_ n: Int, browser: String, hosts: [String], environments: [String: [String: String]],
                                trial: Int) throws -> Double {
        let reader = try LineReader()
        let browse = try spawn(["avahi-browse", "-rp", "_tttanchor._tcp"], on: browser,
                               environment: environments[browser] ?? [:], stdout: reader.writeFD)
        reader.closeWriteEnd()
        var publishers: [Child] = []
        defer {
            for publisher in publishers { publisher.terminate() }
            for publisher in publishers { publisher.wait(timeout: 10) }
            browse.terminate()
            browse.wait(timeout: 10)
        }
        _ = reader.next(timeout: 1.5)
        let names = hosts.map { "anchor-\(getpid())-\(trial)-\($0)" }
        let start = monotonicNS()
        for (host, name) in zip(hosts, names) {
            publishers.append(try spawn(["avahi-publish", "-s", name, "_tttanchor._tcp", "7878", "proto=2", "sec=open"],
                                        on: host, environment: environments[host] ?? [:]))
        }
        var unresolved = Set(names)
        let deadline = monotonicNS() + 30_000_000_000
        var last = start
        while !unresolved.isEmpty, monotonicNS() < deadline,
              let (line, at) = reader.next(timeout: Double(deadline &- monotonicNS()) / 1e9) {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            if fields.count >= 4, fields[0] == "=", unresolved.remove(String(fields[3])) != nil { last = at }
        }
        guard unresolved.isEmpty else { throw BenchError("avahi-browse -r resolved \(n - unresolved.count) of \(n)") }
        withExtendedLifetime(reader) {}
        return Double(last - start) / 1e6
    }

    // MARK: The lobby with N members

    /// N lab hosts join the lobby at once: the time until every member has listed every other; then, idle, the UDP
    /// datagrams each member's host sends and the CPU each member uses, per minute.
    func scaleLobby(hosts: [String], environments: [String: [String: String]]) -> ScaleRow {
        var row = ScaleRow(figure: "lobby with N members (all see all)", unit: "ms", anchorName: "-",
                           goal: "growth only; idle datagrams per member bounded")
        let idleSeconds = options.quick ? 5.0 : 20.0
        do {
            for n in Self.scaleSizes.lobby {
                log("scale: lobby with \(n) members, then \(format(idleSeconds)) s idle")
                let members = Array(hosts.prefix(n))
                var readers: [LineReader] = [], children: [Child] = []
                defer {
                    for child in children { child.terminate() }
                    for child in children { child.wait(timeout: 10) }
                }
                let start = monotonicNS()
                for (index, host) in members.enumerated() {
                    let reader = try LineReader()
                    children.append(try spawn([bin, "lobby", "--name", "m\(index)", "--duration", "120", "--json"],
                                              on: host, environment: environments[host] ?? [:],
                                              stdout: reader.writeFD))
                    reader.closeWriteEnd()
                    readers.append(reader)
                }
                // Each member's arrivals, read in turn until every member has heard all others (or 30 s).
                var heard = Array(repeating: Set<String>(), count: n)
                var allHeard: UInt64?
                let deadline = monotonicNS() + 30_000_000_000
                while allHeard == nil, monotonicNS() < deadline {
                    for (index, reader) in readers.enumerated() {
                        while let (line, at) = reader.next(timeout: 0.005) {
                            guard let object = jsonObject(line), object["event"] as? String == "lobby-arrived",
                                  let name = object["name"] as? String else { continue }
                            heard[index].insert(name)
                            if heard.allSatisfy({ $0.count >= n - 1 }) { allHeard = at }
                        }
                    }
                }
                guard let allHeard else {
                    throw BenchError("with \(n) members, not all heard each other within 30 s "
                        + "(least: \(heard.map(\.count).min() ?? 0) of \(n - 1))")
                }
                // Idle: datagrams sent by each member's namespace (the lobby's, and its avahi-daemon's, which is
                // idle), and the members' CPU, over the window.
                let sentBefore = try members.map { try udpDatagramsSent(on: $0) }
                let cpuBefore = children.map { processCPUMilliseconds($0.pid) ?? 0 }
                let windowStart = monotonicNS()
                while monotonicNS() - windowStart < UInt64(idleSeconds * 1e9) {
                    for reader in readers { while reader.next(timeout: 0.01) != nil {} }
                }
                let minutes = Double(monotonicNS() - windowStart) / 60e9
                let sentAfter = try members.map { try udpDatagramsSent(on: $0) }
                let cpuAfter = children.map { processCPUMilliseconds($0.pid) ?? 0 }
                let datagrams = zip(sentAfter, sentBefore).map { Double($0 - $1) / minutes }
                let cpu = zip(cpuAfter, cpuBefore).map { ($0 - $1) / minutes }
                row.points.append(ScalePoint(
                    size: n, ours: Double(allHeard - start) / 1e6, anchor: nil,
                    detail: "idle: \(format(median(datagrams))) datagrams/min per member (max \(format(datagrams.max() ?? 0))), "
                        + "CPU \(format(median(cpu))) ms/min per member"))
                withExtendedLifetime(readers) {}
            }
            if let first = row.points.first, let last = row.points.last, last.size > first.size {
                row.growth = "\(format((last.ours - first.ours) / Double(last.size - first.size))) ms per added member "
                    + "to converge; a member announces every 2 s (30 datagrams/min) whatever N"
            }
        } catch {
            row.missing = "not measured: \(error)"
        }
        return row
    }

    /// The UDP datagrams a lab host's namespace has sent (`Udp: OutDatagrams` of its /proc/net/snmp).
    private func udpDatagramsSent(on host: String) throws -> Int {
        let result = try run([lan, "exec", host, "--", "cat", "/proc/net/snmp"], timeout: 10)
        let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("Udp:") }
        guard lines.count >= 2 else { throw BenchError("no Udp counters in \(host)'s /proc/net/snmp") }
        let names = lines[0].split(separator: " "), values = lines[1].split(separator: " ")
        guard let index = names.firstIndex(of: "OutDatagrams"), index < values.count, let value = Int(values[index])
        else { throw BenchError("no OutDatagrams in \(host)'s /proc/net/snmp") }
        return value
    }

    // MARK: Spectators

    /// A TLS match on loopback with 0, 1 and 8 spectators watching: the players' move round trip, and the host's CPU
    /// per move.
    func scaleSpectators() -> ScaleRow {
        var row = ScaleRow(figure: "move round trip with N spectators", unit: "µs", anchorName: "-",
                           goal: "at 8 ≤ 1.2× at 0")
        let games = options.quick ? 100 : 400
        do {
            var cpuPerMove: [Int: Double] = [:]
            for n in Self.scaleSizes.spectators {
                log("scale: a TLS match of \(games) games with \(n) spectators")
                var watchers: [Child] = []
                defer {
                    for watcher in watchers { watcher.terminate() }
                    for watcher in watchers { watcher.wait(timeout: 10) }
                }
                let run = try match(games: games, plaintext: false, hostArguments: ["--spectators", "\(max(1, n))"]) {
                    port in
                    // Spectators are other machines: on the other CPU, not the players' (CPU 0).
                    for index in 0..<n {
                        watchers.append(try Child(
                            ["taskset", "-c", "1", self.bin, "watch", "127.0.0.1:\(port)", "--name", "w\(index)",
                             "--json"], environment: self.appEnvironment("watch")))
                    }
                    // Every watcher in before the first move.
                    usleep(n == 0 ? 0 : 500_000)
                }
                let perMove = Double(run.host.userSystemNS) / 1000 / Double(max(1, run.moves))
                cpuPerMove[n] = perMove
                row.points.append(ScalePoint(size: n, ours: median(us(run.roundTrips)), anchor: nil,
                                             detail: "host CPU \(format(perMove)) µs per move"))
            }
            if let zero = row.points.first(where: { $0.size == 0 }), let eight = row.points.first(where: { $0.size == 8 }) {
                let perSpectator = ((cpuPerMove[8] ?? 0) - (cpuPerMove[0] ?? 0)) / 8
                row.growth = "round trip \(format(eight.ours / zero.ours))× at 8; host CPU \(format(perSpectator)) µs "
                    + "per move per spectator"
                row.met = eight.ours <= 1.2 * zero.ours
            }
        } catch {
            row.missing = "not measured: \(error)"
        }
        return row
    }

    // MARK: Long runs

    /// A long in-process match and a host serving many sequential joins: resident memory and open descriptors
    /// sampled every 10% of the run, and the rate in each tenth.
    func scaleLongRuns() -> [ScaleRow] {
        var match = ScaleRow(figure: "long match, built-in players, --concurrency 2", unit: "games/s",
                             anchorName: "-", goal: "flat: last sample ≤ 1.1× the one at 10%")
        let matchGames = options.quick ? 10_000 : 100_000
        log("scale: match of \(matchGames) built-in games, --concurrency 2")
        do {
            let reader = try LineReader()
            let child = try spawn([bin, "match", "--player", "perfect", "--player", "perfect", "--games",
                                   "\(matchGames)", "--concurrency", "2", "--seed", "1", "--json"],
                                  environment: appEnvironment("match"), stdout: reader.writeFD)
            reader.closeWriteEnd()
            var played = 0
            var samples: [(games: Int, at: UInt64, rssKB: Int, fds: Int)] = [(0, monotonicNS(), 0, 0)]
            while let (line, at) = reader.next(timeout: 120) {
                guard line.contains("\"match-game\"") else { continue }
                played += 1
                // A sample of a process that has already exited (the last game's line comes as it ends) is none.
                if played % (matchGames / 10) == 0, let rss = residentKB(child.pid), let fds = openDescriptors(child.pid) {
                    samples.append((played, at, rss, fds))
                }
            }
            let exit = child.wait(timeout: 60)
            guard exit.exitCode == 0, played == matchGames else {
                throw BenchError("match exited \(exit.exitCode) after \(played) games")
            }
            match = longRunRow(match, samples: samples, per: matchGames / 10)
        } catch {
            match.missing = "not measured: \(error)"
        }

        var host = ScaleRow(figure: "host serving sequential one-game TLS joins", unit: "joins/s", anchorName: "-",
                            goal: "flat: last sample ≤ 1.1× the one at 10%")
        let joins = options.quick ? 1_000 : 10_000
        log("scale: a host serving \(joins) sequential one-game joins")
        do {
            let out = temporaryFile("long-host.jsonl")
            let outFD = openForWriting(out)
            defer { close(outFD) }
            let server = try spawn([bin, "host", "--headless", "--no-advertise", "--bind", "127.0.0.1", "--port", "0",
                                    "--games", "1", "--matches", "\(joins + 1)", "--seed", "1", "--json"],
                                   environment: appEnvironment("long-host"), stdout: outFD)
            defer {
                server.terminate()
                server.wait(timeout: 10)
            }
            guard let port = waitForLine(in: out, timeout: 15, while: server, { line -> Int? in
                guard let object = jsonObject(line), object["event"] as? String == "listening" else { return nil }
                return object["port"] as? Int
            }) else { throw BenchError("the host never said it was listening") }
            let environment = appEnvironment("long-join")
            var samples: [(games: Int, at: UInt64, rssKB: Int, fds: Int)] = [(0, monotonicNS(), 0, 0)]
            for index in 1...joins {
                let joiner = try spawn([bin, "join", "127.0.0.1:\(port)", "--headless", "--games", "1", "--seed",
                                        "\(index)"], environment: environment)
                let exit = joiner.wait(timeout: 30)
                guard exit.exitCode == 0 else { throw BenchError("join \(index) exited \(exit.exitCode)") }
                if index % (joins / 10) == 0 {
                    samples.append((index, monotonicNS(), residentKB(server.pid) ?? 0, openDescriptors(server.pid) ?? 0))
                }
            }
            host = longRunRow(host, samples: samples, per: joins / 10)
        } catch {
            host.missing = "not measured: \(error)"
        }
        return [match, host]
    }

    /// A long run's row from its samples (one every tenth): the rate in each tenth, resident memory and descriptors.
    private func longRunRow(_ row: ScaleRow, samples: [(games: Int, at: UInt64, rssKB: Int, fds: Int)],
                            per: Int) -> ScaleRow {
        var row = row
        for (previous, sample) in zip(samples, samples.dropFirst()) {
            let rate = Double(sample.games - previous.games) / (Double(sample.at - previous.at) / 1e9)
            row.points.append(ScalePoint(size: sample.games, ours: rate, anchor: nil,
                                         detail: "RSS \(format(Double(sample.rssKB) / 1024)) MB, \(sample.fds) fds"))
        }
        let measured = samples.dropFirst()
        if let first = measured.first, let last = measured.last, first.rssKB > 0 {
            let growth = Double(last.rssKB - first.rssKB) / Double(max(1, last.games - first.games)) * 10_000
            row.growth = "RSS \(format(growth)) KB per 10,000 games after the first tenth "
                + "(\(format(Double(first.rssKB) / 1024)) → \(format(Double(last.rssKB) / 1024)) MB), descriptors "
                + "\(first.fds) → \(last.fds), rate \(format(row.points.first?.ours ?? 0)) → "
                + "\(format(row.points.last?.ours ?? 0)) per s"
            row.met = Double(last.rssKB) <= 1.1 * Double(first.rssKB) && last.fds <= first.fds
        }
        return row
    }

    // MARK: Reading processes

    /// User + system CPU time of a running process, ms (/proc/PID/stat, in clock ticks).
    func processCPUMilliseconds(_ pid: pid_t) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command's closing parenthesis: state is field 0, utime 11, stime 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) * 1000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// VmRSS of a running process, kB.
    func residentKB(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        return nil
    }

    /// How many descriptors a running process has open.
    func openDescriptors(_ pid: pid_t) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    func median(_ values: [Double]) -> Double {
        let sorted = values.filter { !$0.isNaN }.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
            : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    // MARK: Output

    func finishScale(_ rows: [ScaleRow]) {
        let seconds = Double(monotonicNS() - started) / 1e9
        print("")
        print("make bench --scale: \(bin) (\(label))")
        print("")
        var cells: [[String]] = []
        for row in rows {
            if let missing = row.missing {
                cells.append([row.figure, "-", row.unit, missing, "-", row.goal, "-"])
                continue
            }
            for (index, point) in row.points.enumerated() {
                let anchor = point.anchor.map { "\(row.anchorName): \(format($0))" } ?? "-"
                cells.append([index == 0 ? row.figure : "", "\(point.size)", row.unit, format(point.ours), anchor,
                              index == 0 ? row.goal : "", index == 0 ? metText(row.met) : ""])
                cells.append(["", "", "", point.detail, "", "", ""])
            }
            cells.append(["", "", "", "growth: " + row.growth, "", "", ""])
        }
        printTable(["figure", "N", "unit", "ours", "anchor", "goal", "met"], cells)
        print("")
        print(String(format: "Measured, never asserted. Run time %.0f s (builds not included).", seconds))
        let results = ScaleResults(label: label, binary: bin, date: ISO8601DateFormatter().string(from: Date()),
                                   runSeconds: seconds, rows: rows)
        writeResults(results, json: "scale-\(label).json", svg: "scale-\(label).svg",
                     chart: scaleChart(rows, title: "How tictactoe's cost grows on a LAN, \(label)"))
    }
}

/// One small panel per scale row (the figure against N, ours solid and the anchor dashed), side by side.
func scaleChart(_ rows: [ScaleRow], title: String) -> String {
    let measured = rows.filter { $0.missing == nil && !$0.points.isEmpty }
    let panelWidth = 300.0, panelHeight = 220.0, gap = 30.0, left = 60.0, top = 50.0
    let width = left + Double(max(1, measured.count)) * (panelWidth + gap)
    var svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(top + panelHeight + 70))" font-family="sans-serif" font-size="11">
    <rect width="100%" height="100%" fill="white"/>
    <text x="\(left)" y="24" font-size="15">\(escapeXML(title))</text>

    """
    for (index, row) in measured.enumerated() {
        let x0 = left + Double(index) * (panelWidth + gap)
        let sizes = row.points.map { Double($0.size) }
        let values = row.points.flatMap { [$0.ours] + ($0.anchor.map { [$0] } ?? []) }.filter { $0.isFinite }
        guard let maxSize = sizes.max(), let maxValue = values.max(), maxValue > 0 else { continue }
        let minSize = sizes.min() ?? 0
        func x(_ size: Double) -> Double {
            x0 + (maxSize > minSize ? (size - minSize) / (maxSize - minSize) : 0.5) * panelWidth
        }
        func y(_ value: Double) -> Double { top + panelHeight - value / (maxValue * 1.1) * panelHeight }
        svg += "<rect x=\"\(x0)\" y=\"\(top)\" width=\"\(panelWidth)\" height=\"\(panelHeight)\" fill=\"none\" stroke=\"#ccc\"/>\n"
        svg += "<text x=\"\(x0)\" y=\"\(top - 8)\">\(escapeXML(row.figure)) (\(escapeXML(row.unit)))</text>\n"
        for (series, color, dashed) in [(row.points.map { ($0.size, $0.ours) }, "#1f77b4", false),
                                        (row.points.compactMap { p in p.anchor.map { (p.size, $0) } }, "#2ca02c", true)]
        where !series.isEmpty {
            let points = series.map { String(format: "%.1f,%.1f", x(Double($0.0)), y($0.1)) }.joined(separator: " ")
            svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dashed ? " stroke-dasharray=\"6 4\"" : "") points=\"\(points)\"/>\n"
            for point in series {
                svg += "<circle cx=\"\(x(Double(point.0)))\" cy=\"\(y(point.1))\" r=\"3\" fill=\"\(color)\"/>\n"
                svg += "<text x=\"\(x(Double(point.0)))\" y=\"\(y(point.1) - 6)\" text-anchor=\"middle\" fill=\"\(color)\">\(format(point.1))</text>\n"
            }
        }
        for size in Set(row.points.map(\.size)).sorted() {
            svg += "<text x=\"\(x(Double(size)))\" y=\"\(top + panelHeight + 16)\" text-anchor=\"middle\">\(size)</text>\n"
        }
        svg += "<text x=\"\(x0 + panelWidth / 2)\" y=\"\(top + panelHeight + 32)\" text-anchor=\"middle\" fill=\"#555\">N"
            + (row.anchorName == "-" ? "" : " (dashed: \(escapeXML(row.anchorName)))") + "</text>\n"
    }
    svg += "</svg>\n"
    return svg
}

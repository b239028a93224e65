// The run: every figure in order, then the table, the JSON and the chart.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Bench {
    func us(_ values: [Double]) -> [Double] { values.map { $0 / 1000 } }

    func runAll() throws {
        if hasTwoCores { pinSelf(to: 1) } else { notes.append("one CPU only: the driver shares CPU 0 with the game processes") }
        let realTime = raiseSelfToRealTime()
        notes.append(realTime ? "the driver reads at SCHED_FIFO 10 (its children at SCHED_OTHER), so its reading is not delayed by other work on CPU 1"
            : "the driver could not take SCHED_FIFO (not root): on a busy machine line stamps may come late")
        if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
            notes.append("load average at the start: \(load.split(separator: " ").prefix(3).joined(separator: " "))")
        }
        log("building the anchors (cc -O2) in \(anchorsDir)")
        try buildAnchors()
        cleanUpOnSignals()
        defer { cleanUp() }

        let quick = options.quick
        let gamesPerRun = quick ? 200 : 1000
        let runsPerMode = quick ? 1 : 5

        // 1, 3, 4, 8 on loopback: the C ping-pong, a TLS match and a plaintext match, in turn, `runsPerMode` rounds
        // (each figure pools its rounds). A burst of other work on this shared machine lands on one round of each
        // rather than on one whole figure: measured in blocks (the anchor first, then three TLS matches, then
        // three plaintext ones), one binary's plaintext round trip swung from 1.97× to 2.86× across runs.
        var anchorLoop: [Double] = []
        var runs: [Bool: [MatchRun]] = [:]
        var failures: [Bool: String] = [:]
        // 8 (loopback part), first: a match in each mode whose peak RSS is the memory figure, each started with the
        // binary out of the page cache (`dropFromPageCache`: how much of it is cached changes how much is mapped),
        // so that two binaries, one just built and one copied long ago, are measured alike. Its round trips are not
        // pooled with the rounds' (its first games wait for the disk).
        var memoryRuns: [Bool: MatchRun] = [:]
        var memoryFailures: [Bool: String] = [:]
        for plaintext in [false, true] {
            log("memory: a match of \(gamesPerRun) games, \(plaintext ? "plaintext" : "TLS"), binary read from disk")
            if let reason = dropFromPageCache(bin) { log("  the binary stays in the page cache: \(reason)") }
            do {
                memoryRuns[plaintext] = try match(games: gamesPerRun, plaintext: plaintext)
            } catch {
                memoryFailures[plaintext] = "not measured: \(error)"
                log("  failed: \(error)")
            }
        }
        for index in 0..<runsPerMode {
            log("round \(index + 1)/\(runsPerMode) on 127.0.0.1: C ping-pong (\(moveFrameBytes) B request, "
                + "\(answerFrameBytes) B reply), then a match of \(gamesPerRun) games, TLS and plaintext")
            anchorLoop += try pingPong(count: 20_000 / runsPerMode)
            for plaintext in [false, true] where failures[plaintext] == nil {
                do {
                    runs[plaintext, default: []].append(try match(games: gamesPerRun, plaintext: plaintext))
                } catch {
                    failures[plaintext] = "not measured: \(error)"
                    log("  failed: \(error)")
                }
            }
        }
        series.append(Series(name: "C ping-pong, loopback", color: "#2ca02c", dashed: false, samplesMicroseconds: us(anchorLoop)))
        for plaintext in [false, true] {
            let samples = us((runs[plaintext] ?? []).flatMap(\.roundTrips))
            series.append(Series(name: plaintext ? "ours plaintext, loopback" : "ours TLS, loopback",
                                 color: plaintext ? "#ff7f0e" : "#1f77b4", dashed: false, samplesMicroseconds: samples))
        }

        var rtt = Row("move round trip, loopback", unit: "µs", anchorName: "C ping-pong", goal: .ratioAtMost(3),
                      goalPlain: .ratioAtMost(2))
        rtt.anchor = Summary(us(anchorLoop)).map(Measure.init)
        rtt.ours = Summary(us((runs[false] ?? []).flatMap(\.roundTrips))).map(Measure.init)
        rtt.oursPlain = Summary(us((runs[true] ?? []).flatMap(\.roundTrips))).map(Measure.init)
        rtt.missing = failures[false]
        rtt.missingPlain = failures[true]
        if let ours = rtt.ours?.summary, let plain = rtt.oursPlain?.summary, let anchor = rtt.anchor?.summary {
            rtt.note = "means: anchor \(format(anchor.mean)), TLS \(format(ours.mean)), plaintext \(format(plain.mean)) µs; "
                + "\(ours.n) + \(plain.n) round trips (first game of each match dropped), each from a peer move line "
                + "of the joiner to its next one (our answer and theirs); includes both players' thinking time (perfect) "
                + "and both processes' JSON lines"
        }
        rows.append(rtt)

        // The floor of our own stack: the same exchange with NIO channel handlers, then through NIO's async bridge (as
        // the app's match used to be), TLS-PSK and plaintext, no game.
        for async in [false, true] {
            var floor = Row(async ? "NIO ping-pong through NIOAsyncChannel, loopback" : "stack floor: NIO ping-pong, loopback",
                            unit: "µs", anchorName: "C ping-pong", goal: .none)
            let extra = async ? ["--async"] : []
            log("NIO ping-pong\(async ? " (async)" : "") on 127.0.0.1, TLS-PSK and plaintext")
            do {
                let nioTLS = try pingPong(count: 10_000, program: nioPingPong, extra: ["--tls"] + extra)
                let nioPlain = try pingPong(count: 10_000, program: nioPingPong, extra: extra)
                floor.anchor = rtt.anchor
                floor.ours = Summary(us(nioTLS)).map(Measure.init)
                floor.oursPlain = Summary(us(nioPlain)).map(Measure.init)
                series.append(Series(name: "NIO ping-pong\(async ? " async" : "") TLS, loopback",
                                     color: async ? "#8c564b" : "#9467bd", dashed: true, samplesMicroseconds: us(nioTLS)))
                if let ours = rtt.ours?.summary, let plain = rtt.oursPlain?.summary,
                   let nio = floor.ours?.summary, let nioP = floor.oursPlain?.summary {
                    floor.note = (async
                        ? "Benchmarks/Sources/nio-pingpong --async: each end a task on its event loop reading "
                            + "NIOAsyncChannel's inbound stream and awaiting one outbound write per frame; "
                        : "Benchmarks/Sources/nio-pingpong: the C ping-pong's 4-byte exchange with SwiftNIO channel "
                            + "handlers only (with --tls: NIOSSL, the app's ECDHE-PSK-CHACHA20-POLY1305); ")
                        + "our move round trip is \(format(ours.p50 / nio.p50))× this in TLS, "
                        + "\(format(plain.p50 / nioP.p50))× in plaintext"
                }
            } catch {
                floor.missing = "not measured: \(error)"
            }
            rows.append(floor)
        }

        // 3: throughput.
        var throughput = Row("throughput, perfect vs perfect, --json", unit: "games/s", anchorName: "ping-pong bound",
                             goal: .ratioAtLeast(0.6))
        let anchorMean = Summary(anchorLoop)!.mean
        var framesPerGame = 12.0
        if let first = runs[false]?.first ?? runs[true]?.first, first.games > 0 {
            // Frames of one game as our protocol sends them: its moves, the host's start, and the rematch exchange
            // (two offers that cross, or an offer and an accept).
            framesPerGame = Double(first.moves) / Double(first.games) + 3
        }
        let roundTripsPerGame = framesPerGame / 2
        throughput.anchor = Measure(value: 1e9 / anchorMean / roundTripsPerGame)
        for plaintext in [false, true] {
            let rates = (runs[plaintext] ?? []).map { Double($0.games) / (Double($0.joinWallNS) / 1e9) }
            guard let summary = Summary(rates) else { continue }
            let measure = Measure(value: summary.p50, note: "median of \(rates.count) runs")
            if plaintext { throughput.oursPlain = measure } else { throughput.ours = measure }
        }
        throughput.missing = failures[false]
        throughput.missingPlain = failures[true]
        throughput.note = "ours: \(gamesPerRun) ÷ the join process's wall time (spawn to exit), median of \(runsPerMode) runs; "
            + "anchor: (1 s ÷ mean ping-pong round trip \(format(anchorMean / 1000)) µs) ÷ \(format(roundTripsPerGame)) "
            + "round trips per game (\(format(framesPerGame)) frames: moves + start + 2 rematch frames, counted from the transcript)"
        rows.append(throughput)

        // 4: CPU per move.
        var cpu = Row("CPU per move (host + joiner, user+sys)", unit: "µs", anchorName: "-", goal: .atMost(40))
        var switches: [String] = []
        for plaintext in [false, true] {
            let all = runs[plaintext] ?? []
            let moves = all.reduce(0) { $0 + $1.moves }
            guard moves > 0 else { continue }
            let cpuNS = all.reduce(UInt64(0)) { $0 + $1.host.userSystemNS + $1.joiner.userSystemNS }
            let csw = all.reduce(0) { $0 + $1.host.contextSwitches + $1.joiner.contextSwitches }
            let measure = Measure(value: Double(cpuNS) / 1000 / Double(moves))
            if plaintext { cpu.oursPlain = measure } else { cpu.ours = measure }
            switches.append("\(plaintext ? "plaintext" : "TLS") \(format(Double(csw) / Double(moves))) context switches per move")
        }
        cpu.missing = failures[false]
        cpu.missingPlain = failures[true]
        cpu.note = "wait4 rusage of both processes over whole matches (start-up included) ÷ moves; " + switches.joined(separator: ", ")
        rows.append(cpu)

        // 8 (loopback part): peak RSS of host and joiner.
        var memory = Row("resident memory, networked host / joiner (peak)", unit: "MB", anchorName: "avahi-browse",
                         goal: .atMost(12))
        for plaintext in [false, true] {
            guard let first = memoryRuns[plaintext] else { continue }
            let host = Double(first.hostPeakKB) / 1024, joiner = Double(first.joinerPeakKB) / 1024
            let measure = Measure(value: max(host, joiner), note: "host \(format(host)), joiner \(format(joiner))")
            if plaintext { memory.oursPlain = measure } else { memory.ours = measure }
        }
        memory.missing = memoryFailures[false]
        memory.missingPlain = memoryFailures[true]

        // 6: cold start.
        var cold = Row("cold start (--version vs /bin/true)", unit: "ms", anchorName: "/bin/true", goal: .ratioAtMost(5))
        log("cold start: hyperfine \(bin) --version vs /bin/true")
        do {
            let times = try hyperfine(["\(pin.joined(separator: " ")) \(bin) --version", "\(pin.joined(separator: " ")) /bin/true"],
                                      runs: quick ? 30 : 100, warmup: 10)
            cold.ours = Summary(times[0]).map(Measure.init)
            cold.anchor = Summary(times[1]).map(Measure.init)
            cold.note = "hyperfine -N, both behind the same `taskset -c 0`"
        } catch {
            cold.missing = "not measured: \(error)"
        }
        rows.append(cold)

        // Issue 16: the match runner. Per game between two trivial engines over pipes, against what the engines cost
        // by themselves (both processes started and fed the same protocol lines, with no runner: anchors/engine-io.sh).
        let engine = "\(repo)/Assets/engines/first-free.sh"
        let engineGames = quick ? 20 : 100
        var runner = Row("match runner, per game, two sh engines over pipes", unit: "ms",
                         anchorName: "the engines alone", goal: .ratioAtMost(2))
        log("match runner: \(engineGames) games between two first-free.sh engines vs the engines alone")
        do {
            let player = "engine:sh \(engine)"
            let times = try hyperfine(
                ["\(pin.joined(separator: " ")) \(bin) match --player '\(player)' --player '\(player)' --games \(engineGames) --seed 1",
                 "\(pin.joined(separator: " ")) sh \(repo)/Benchmarks/anchors/engine-io.sh \(engineGames) \(engine)"],
                runs: quick ? 3 : 10, warmup: 1)
            runner.ours = Summary(times[0].map { $0 / Double(engineGames) }).map(Measure.init)
            runner.anchor = Summary(times[1].map { $0 / Double(engineGames) }).map(Measure.init)
            runner.note = "hyperfine -N, \(engineGames) games a run, both behind the same `taskset -c 0`; the runner "
                + "starts both engines for each game and waits for each answer"
        } catch {
            runner.missing = "not measured: \(error)"
        }
        rows.append(runner)

        // Issue 16: 1,000 games between built-in players, two at a time, in process.
        var builtIn = Row("match, 1,000 built-in games, --concurrency 2", unit: "ms", anchorName: "-",
                          goal: .atMost(2000))
        log("match: 1,000 games perfect vs easy, --concurrency 2")
        do {
            let times = try hyperfine(
                ["\(bin) match --player perfect --player easy --games 1000 --concurrency 2 --seed 1"],
                runs: quick ? 3 : 10, warmup: 1)
            builtIn.ours = Summary(times[0]).map(Measure.init)
            builtIn.note = "hyperfine -N, not pinned (two games at a time use both cores)"
        } catch {
            builtIn.missing = "not measured: \(error)"
        }
        rows.append(builtIn)

        // 7: first TUI frame.
        var frame = Row("first TUI frame (100x30 pty)", unit: "ms", anchorName: "dialog --menu", goal: .ratioAtMost(1))
        log("first TUI frame: ours vs dialog on a pty")
        let tuiEnvironment = appEnvironment("tui")
        let frameRuns = quick ? 10 : 30
        do {
            let dialog = try ptyframe(["frame", "100", "30", tuiMarker, "\(frameRuns)", "--"] + dialogCommand,
                                      environment: tuiEnvironment)
            frame.anchor = Summary(dialog.split(separator: "\n").compactMap { Double($0) }).map(Measure.init)
            let ours = try ptyframe(["frame", "100", "30", tuiMarker, "\(frameRuns)", "--", bin], environment: tuiEnvironment)
            frame.ours = Summary(ours.split(separator: "\n").compactMap { Double($0) }).map(Measure.init)
            frame.note = "fork on a new pty until the output holds \"\(tuiMarker)\" (the last menu item), \(frameRuns) runs each, "
                + "TERM=xterm-256color, LANGUAGE=en, TICTACTOE_BONJOUR=off, a temporary HOME"
        } catch {
            frame.missing = "not measured: \(error)"
        }
        rows.append(frame)

        // 9: idle TUI, ours and dialog at the same time.
        var idle = Row("idle TUI, CPU over 10 s at the menu", unit: "ms", anchorName: "dialog", goal: .atMost(1))
        log("idle TUI: 10 s at the menu, ours and dialog side by side")
        do {
            let seconds = quick ? "3" : "10"
            let oursOut = temporaryFile("idle-ours"), dialogOut = temporaryFile("idle-dialog")
            let oursFD = openForWriting(oursOut), dialogFD = openForWriting(dialogOut)
            let ours = try Child(pin + ["\(anchorsDir)/ptyframe", "idle", "100", "30", tuiMarker, seconds, "--", bin],
                                 environment: tuiEnvironment, stdout: oursFD, stderr: oursFD)
            let dialog = try Child(pin + ["\(anchorsDir)/ptyframe", "idle", "100", "30", tuiMarker, seconds, "--"] + dialogCommand,
                                   environment: tuiEnvironment, stdout: dialogFD, stderr: dialogFD)
            children += [ours, dialog]
            ours.wait(timeout: 60)
            dialog.wait(timeout: 60)
            close(oursFD)
            close(dialogFD)
            func parse(_ path: String) throws -> (ms: Double, hwm: Double) {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
                guard fields.count >= 3, let ms = Double(fields[0]), let kb = Double(fields[2]) else {
                    throw BenchError("ptyframe idle: \(text.prefix(200))")
                }
                return (ms, kb / 1024)
            }
            let oursIdle = try parse(oursOut), dialogIdle = try parse(dialogOut)
            idle.ours = Measure(value: oursIdle.ms)
            idle.anchor = Measure(value: dialogIdle.ms)
            idle.note = "every thread's schedstat run time over the \(seconds) s; peak RSS at the menu: ours "
                + "\(format(oursIdle.hwm)) MB, dialog \(format(dialogIdle.hwm)) MB"
        } catch {
            idle.missing = "not measured: \(error)"
        }

        // 2, 5, 8 in the lab.
        var labRTT = Row("move round trip, lab veth", unit: "µs", anchorName: "C ping-pong", goal: .ratioAtMost(3),
                         goalPlain: .ratioAtMost(2))
        var discoveryUp = Row("discovery: host up → listed + resolved", unit: "ms", anchorName: "avahi-publish → avahi-browse -r",
                              goal: .ratioAtMost(1.05))
        var discoveryDown = Row("discovery: host gone → unlisted", unit: "ms", anchorName: "avahi-publish → avahi-browse -r",
                                goal: .ratioAtMost(1.05))
        var discoveryChange = Row("discovery: a listed game starts playing → shown", unit: "ms",
                                  anchorName: "a fresh avahi-browse -rpt", goal: .none)
        var labMemory: String?
        if let reason = labUnavailableReason() {
            labRTT.missing = reason
            discoveryUp.missing = reason
            discoveryDown.missing = reason
            discoveryChange.missing = reason
            memory.note = "peak RSS (VmHWM, read every 100 games and at the end) over a whole match, the binary "
                + "first dropped from the page cache; the anchor (avahi-browse) "
                + "needs the lab: \(reason)"
        } else {
            do {
                try lab(rtt: &labRTT, up: &discoveryUp, down: &discoveryDown, change: &discoveryChange, memory: &memory,
                        labMemory: &labMemory, quick: quick)
            } catch {
                let reason = "not measured: \(error)"
                if labRTT.ours == nil { labRTT.missing = reason }
                if discoveryUp.ours == nil { discoveryUp.missing = reason }
                if discoveryDown.ours == nil { discoveryDown.missing = reason }
                if discoveryChange.ours == nil { discoveryChange.missing = reason }
                log("lab failed: \(error)")
            }
            labDown()
            memory.note = "peak RSS (VmHWM, read every 100 games and at the end; not wait4's ru_maxrss, which counts "
                + "this driver's own RSS: a spawned process's high-water mark starts with its parent's) over a whole "
                + "loopback match, the binary first dropped from the page cache"
                + (labMemory.map { "; \($0)" } ?? "")
        }
        rows.insert(labRTT, at: 1)
        rows.append(discoveryUp)
        rows.append(discoveryDown)
        rows.append(discoveryChange)
        rows.append(memory)
        rows.append(idle)

        finish()
    }

    func labUnavailableReason() -> String? {
        guard options.lab else { return "skipped (--no-lab)" }
        guard getuid() == 0 else { return "skipped (needs root)" }
        for tool in ["/usr/sbin/avahi-daemon", "/usr/bin/avahi-browse", "/usr/bin/avahi-publish", "/usr/bin/dbus-daemon"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "skipped (\(tool) missing: make deps)"
        }
        return nil
    }

    func finish() {
        let seconds = Double(monotonicNS() - started) / 1e9
        notes.append("move frame \(moveFrameBytes) B and answer \(answerFrameBytes) B as framed in plaintext "
            + "(2-byte length, type 0x11, cell): the ping-pong's sizes")
        notes.append("every game process (ours and the anchors') pinned with `taskset -c 0`; the driver on CPU 1")
        notes.append(String(format: "run time %.0f s (build not included)", seconds))
        let kernel = (try? run(["uname", "-r"]))?.output ?? "?"
        let cpuModel = ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "")
            .split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "?"
        let commit = (try? run(["git", "-C", repo, "rev-parse", "--short", "HEAD"]))?.output ?? "unknown"
        let results = Results(
            label: label, commit: commit, binary: bin,
            machine: Machine(nproc: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), kernel: kernel,
                             date: ISO8601DateFormatter().string(from: Date()), cpu: cpuModel),
            runSeconds: seconds, rows: rows, notes: notes,
            rttQuantiles: Dictionary(uniqueKeysWithValues: series.map { ($0.name, quantiles($0.samplesMicroseconds)) }))
        print("")
        print("make bench: \(bin) (\(label)), \(results.machine.nproc) CPUs, \(cpuModel), Linux \(kernel)")
        print("")
        printResults(results)
        writeResults(results, json: "bench-\(label).json", svg: "rtt-\(label).svg",
                     chart: svgChart(series, title: "Move round trips, \(label): ours vs a C ping-pong of the same sizes (CDF)"))
    }

    /// Writes a run's results as JSON and its chart as SVG in `outDir`, and says where.
    func writeResults<Results: Encodable>(_ results: Results, json: String, svg: String, chart: String) {
        do {
            try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let jsonPath = "\(outDir)/\(json)", svgPath = "\(outDir)/\(svg)"
            try encoder.encode(results).write(to: URL(fileURLWithPath: jsonPath))
            try chart.write(toFile: svgPath, atomically: true, encoding: .utf8)
            print("")
            print("results: \(jsonPath)")
            print("chart:   \(svgPath)")
        } catch {
            writeError("bench: cannot write the results: \(error)\n")
        }
    }
}

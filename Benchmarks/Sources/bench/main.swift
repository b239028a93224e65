// `make bench` (issue 15): measures ANY `tictactoe` binary (--bin PATH) from outside the process, with only the
// command-line options it has had since fe810c1, against real anchors measured in the same run; prints one table,
// writes .build/bench/bench-LABEL.json and .build/bench/rtt-LABEL.svg. Measured, never asserted: exits 0 whether
// goals are met or not, non-zero only when the run itself fails.
//
//   bench --bin PATH [--label NAME] [--repo DIR] [--out DIR] [--no-lab] [--quick] [--scale]
//   bench --compare OLD.json NEW.json
//
// --scale measures how the cost grows instead (Scale.swift): discovery of 1, 8 and 24 games, the lobby with 3, 12
// and 24 members, 0, 1 and 8 spectators, and long runs.
import Foundation

#if canImport(Glibc)
import Glibc
#endif


struct Options {
    var bin = ""
    var label: String?
    var repo = FileManager.default.currentDirectoryPath
    var out: String?
    var lab = true
    var quick = false
    var scale = false
    var compare: (String, String)?
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = Array(CommandLine.arguments.dropFirst())
    func value() -> String {
        guard !arguments.isEmpty else {
            writeError("bench: an option needs a value\n")
            exit(2)
        }
        return arguments.removeFirst()
    }
    while !arguments.isEmpty {
        switch arguments.removeFirst() {
        case "--bin": options.bin = value()
        case "--label": options.label = value()
        case "--repo": options.repo = value()
        case "--out": options.out = value()
        case "--no-lab": options.lab = false
        case "--quick": options.quick = true
        case "--scale": options.scale = true
        case "--compare": options.compare = (value(), value())
        case let other:
            writeError("bench: unknown argument \(other)\nusage: bench --bin PATH [--label NAME] [--repo DIR] [--out DIR] [--no-lab] [--quick] [--scale] | --compare OLD.json NEW.json\n")
            exit(2)
        }
    }
    return options
}

let options = parseOptions()

if let (oldPath, newPath) = options.compare {
    do {
        let decoder = JSONDecoder()
        let old = try decoder.decode(Results.self, from: Data(contentsOf: URL(fileURLWithPath: oldPath)))
        let new = try decoder.decode(Results.self, from: Data(contentsOf: URL(fileURLWithPath: newPath)))
        printComparison(old, new)
        exit(0)
    } catch {
        writeError("bench --compare: \(error)\n")
        exit(1)
    }
}

guard !options.bin.isEmpty, FileManager.default.isExecutableFile(atPath: options.bin) else {
    writeError("bench: --bin PATH must name an executable tictactoe (got '\(options.bin)')\n")
    exit(2)
}

// The lab's rows need a binary that finds its app manifest (its network use is gated on it): beside it as `make
// install` lays it out, or in the checkout it was built in. Said now rather than by every lab trial 15 s later.
if options.lab, let check = try? run([options.bin, "manifest"], timeout: 30), check.code == 12 {
    writeError("bench: \(options.bin) finds no app manifest, so the LAN lab's rows would fail (exit 12):\n"
        + "  \(check.output.split(separator: "\n").last ?? "")\n"
        + "  give it the layout `make install` makes (PREFIX/bin/tictactoe beside PREFIX/share/tictactoe/), "
        + "or pass --no-lab (BENCH_ARGS=--no-lab)\n")
    exit(2)
}

let bench = Bench(options: options)
do {
    if options.scale { try bench.runScale() } else { try bench.runAll() }
    exit(0)
} catch {
    writeError("bench: the run failed: \(error)\n")
    bench.cleanUp()
    exit(1)
}

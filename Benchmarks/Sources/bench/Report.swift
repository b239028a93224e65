// The table, the JSON results and the SVG chart of `make bench`.
import Foundation

/// What a goal compares.
enum Goal: Codable {
    /// ours ÷ anchor (p50) at most this.
    case ratioAtMost(Double)
    /// ours ÷ anchor at least this (a fraction of the anchor: throughput).
    case ratioAtLeast(Double)
    /// ours (p50 or value) at most this, in the row's unit.
    case atMost(Double)
    case none

    var text: String {
        switch self {
        case .ratioAtMost(let value): return "≤ \(format(value))×"
        case .ratioAtLeast(let value): return "≥ \(Int((value * 100).rounded()))%"
        case .atMost(let value): return "≤ \(format(value))"
        case .none: return "-"
        }
    }

    func met(ours: Double?, ratio: Double?) -> Bool? {
        switch self {
        case .ratioAtMost(let limit): return ratio.map { $0 <= limit }
        case .ratioAtLeast(let limit): return ratio.map { $0 >= limit }
        case .atMost(let limit): return ours.map { $0 <= limit }
        case .none: return nil
        }
    }
}

/// One measured value: a summary of samples, or a single number.
struct Measure: Codable {
    var value: Double
    var summary: Summary?
    var note: String?

    init(_ summary: Summary) {
        value = summary.p50
        self.summary = summary
    }

    init(value: Double, note: String? = nil) {
        self.value = value
        self.note = note
    }

    var text: String {
        if let summary, summary.n > 1 { return "\(format(summary.p50)) / \(format(summary.p99))" }
        return format(value)
    }
}

struct Row: Codable {
    var figure: String
    var unit: String
    var anchorName: String
    var anchor: Measure?
    var ours: Measure?
    var oursPlain: Measure?
    var goal: Goal
    var goalPlain: Goal
    /// Why a column is missing ("not measured: …", "skipped (needs root)").
    var missing: String?
    var missingPlain: String?
    var note: String?
    /// Higher is better (throughput): the ratio is ours ÷ anchor either way.
    var ratio: Double? { ratio(ours) }
    var ratioPlain: Double? { ratio(oursPlain) }

    func ratio(_ measure: Measure?) -> Double? {
        guard let measure, let anchor, anchor.value > 0 else { return nil }
        return measure.value / anchor.value
    }

    var met: Bool? { goal.met(ours: ours?.value, ratio: ratio) }
    var metPlain: Bool? { goalPlain.met(ours: oursPlain?.value, ratio: ratioPlain) }

    init(_ figure: String, unit: String, anchorName: String, goal: Goal, goalPlain: Goal? = nil) {
        self.figure = figure
        self.unit = unit
        self.anchorName = anchorName
        self.goal = goal
        self.goalPlain = goalPlain ?? goal
    }

    enum CodingKeys: String, CodingKey {
        case figure, unit, anchorName, anchor, ours, oursPlain, goal, goalPlain, missing, missingPlain, note
        case ratio, ratioPlain, met, metPlain
    }

    func encode(to encoder: Encoder) throws {
        var object = encoder.container(keyedBy: CodingKeys.self)
        try object.encode(figure, forKey: .figure)
        try object.encode(unit, forKey: .unit)
        try object.encode(anchorName, forKey: .anchorName)
        try object.encodeIfPresent(anchor, forKey: .anchor)
        try object.encodeIfPresent(ours, forKey: .ours)
        try object.encodeIfPresent(oursPlain, forKey: .oursPlain)
        try object.encode(goal, forKey: .goal)
        try object.encode(goalPlain, forKey: .goalPlain)
        try object.encodeIfPresent(missing, forKey: .missing)
        try object.encodeIfPresent(missingPlain, forKey: .missingPlain)
        try object.encodeIfPresent(note, forKey: .note)
        try object.encodeIfPresent(ratio, forKey: .ratio)
        try object.encodeIfPresent(ratioPlain, forKey: .ratioPlain)
        try object.encodeIfPresent(met, forKey: .met)
        try object.encodeIfPresent(metPlain, forKey: .metPlain)
    }

    init(from decoder: Decoder) throws {
        let object = try decoder.container(keyedBy: CodingKeys.self)
        figure = try object.decode(String.self, forKey: .figure)
        unit = try object.decode(String.self, forKey: .unit)
        anchorName = try object.decode(String.self, forKey: .anchorName)
        anchor = try object.decodeIfPresent(Measure.self, forKey: .anchor)
        ours = try object.decodeIfPresent(Measure.self, forKey: .ours)
        oursPlain = try object.decodeIfPresent(Measure.self, forKey: .oursPlain)
        goal = try object.decode(Goal.self, forKey: .goal)
        goalPlain = try object.decode(Goal.self, forKey: .goalPlain)
        missing = try object.decodeIfPresent(String.self, forKey: .missing)
        missingPlain = try object.decodeIfPresent(String.self, forKey: .missingPlain)
        note = try object.decodeIfPresent(String.self, forKey: .note)
    }
}

/// The RTT samples (µs) of one series, for the chart (kept in the JSON as quantiles only).
struct Series {
    var name: String
    var color: String
    var dashed: Bool
    var samplesMicroseconds: [Double]
}

struct Machine: Codable {
    var nproc: Int
    var kernel: String
    var date: String
    var cpu: String
}

struct Results: Codable {
    var label: String
    var commit: String
    var binary: String
    var machine: Machine
    var runSeconds: Double
    var rows: [Row]
    var notes: [String]
    /// Quantiles (p1, p5, p10, …, p99, p99.9) of each RTT series in µs, to redraw or compare distributions.
    var rttQuantiles: [String: [Double]]
}

func quantiles(_ values: [Double]) -> [Double] {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return [] }
    return [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999].map {
        sorted[min(sorted.count - 1, Int(($0 * Double(sorted.count - 1)).rounded()))]
    }
}

// MARK: The table

func pad(_ text: String, _ width: Int) -> String {
    let count = text.count
    return count >= width ? text : text + String(repeating: " ", count: width - count)
}

func printTable(_ headers: [String], _ rows: [[String]]) {
    var widths = headers.map(\.count)
    for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
    func line(_ cells: [String]) -> String {
        "| " + cells.enumerated().map { pad($0.element, widths[$0.offset]) }.joined(separator: " | ") + " |"
    }
    print(line(headers))
    print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    for row in rows { print(line(row)) }
}

func metText(_ met: Bool?) -> String {
    switch met {
    case true?: return "yes"
    case false?: return "NO"
    case nil: return "-"
    }
}

func ratioText(_ ratio: Double?, _ goal: Goal) -> String {
    guard let ratio else { return "-" }
    if case .ratioAtLeast = goal { return String(format: "%.1f%%", ratio * 100) }
    return format(ratio) + "×"
}

func printResults(_ results: Results) {
    let headers = ["figure", "unit", "anchor (same run)", "ours default (TLS)", "ratio", "ours plaintext", "ratio",
                   "goal", "met?"]
    var cells: [[String]] = []
    for row in results.rows {
        let anchor = row.anchor.map { "\(row.anchorName): \($0.text)" } ?? (row.anchorName == "-" ? "-" : "\(row.anchorName): -")
        let ours = row.ours?.text ?? (row.missing ?? "-")
        let plain = row.oursPlain?.text ?? (row.missingPlain ?? "-")
        var goal = row.goal.text
        if row.goalPlain.text != row.goal.text { goal += " (plain \(row.goalPlain.text))" }
        var met = metText(row.met)
        if row.oursPlain != nil { met += " / " + metText(row.metPlain) }
        cells.append([row.figure, row.unit, anchor, ours, ratioText(row.ratio, row.goal), plain,
                      ratioText(row.ratioPlain, row.goalPlain), goal, met])
    }
    printTable(headers, cells)
    print("")
    print("Values are p50 / p99 where two are given (ratios on p50). Measured, never asserted.")
    for row in results.rows where row.note != nil { print("- \(row.figure): \(row.note!)") }
    for note in results.notes { print("- \(note)") }
}

func printComparison(_ old: Results, _ new: Results) {
    print("before: \(old.label) (\(old.commit), \(old.binary)), \(old.machine.date)")
    print("after:  \(new.label) (\(new.commit), \(new.binary)), \(new.machine.date)")
    print("")
    let headers = ["figure", "unit", "anchor before", "anchor after", "ours before", "ours after", "ratio before",
                   "ratio after", "plain before", "plain after", "goal", "met after"]
    var cells: [[String]] = []
    for row in new.rows {
        let previous = old.rows.first { $0.figure == row.figure }
        cells.append([
            row.figure, row.unit,
            previous?.anchor?.text ?? "-", row.anchor?.text ?? "-",
            previous?.ours?.text ?? (previous?.missing ?? "-"), row.ours?.text ?? (row.missing ?? "-"),
            ratioText(previous?.ratio, row.goal), ratioText(row.ratio, row.goal),
            previous?.oursPlain?.text ?? "-", row.oursPlain?.text ?? "-",
            row.goal.text, metText(row.met) + (row.oursPlain != nil ? " / " + metText(row.metPlain) : ""),
        ])
    }
    printTable(headers, cells)
}

// MARK: The chart

/// CDFs of the round-trip series on a log time axis, hand-written SVG.
func svgChart(_ series: [Series], title: String) -> String {
    let width = 900.0, height = 520.0, left = 70.0, right = 230.0, top = 40.0, bottom = 60.0
    let plotWidth = width - left - right, plotHeight = height - top - bottom
    let all = series.flatMap(\.samplesMicroseconds).filter { $0 > 0 }
    guard let lowest = all.min(), let highest = all.max() else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>" }
    let low = pow(10, floor(log10(lowest))), high = pow(10, ceil(log10(highest)))
    func x(_ value: Double) -> Double { left + (log10(value) - log10(low)) / (log10(high) - log10(low)) * plotWidth }
    func y(_ fraction: Double) -> Double { top + (1 - fraction) * plotHeight }
    var svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
    <rect width="100%" height="100%" fill="white"/>
    <text x="\(left)" y="22" font-size="15">\(escapeXML(title))</text>

    """
    // Grid: decades and their 2× and 5× on x; tenths on y.
    var decade = low
    while decade <= high * 1.0001 {
        for step in [1.0, 2.0, 5.0] where decade * step <= high * 1.0001 {
            let position = x(decade * step)
            svg += "<line x1=\"\(position)\" y1=\"\(top)\" x2=\"\(position)\" y2=\"\(top + plotHeight)\" stroke=\"#ddd\"/>\n"
            let label = decade * step >= 1000 ? "\(format(decade * step / 1000)) ms" : "\(format(decade * step)) µs"
            svg += "<text x=\"\(position)\" y=\"\(top + plotHeight + 18)\" text-anchor=\"middle\">\(label)</text>\n"
        }
        decade *= 10
    }
    for tenth in 0...10 {
        let position = y(Double(tenth) / 10)
        svg += "<line x1=\"\(left)\" y1=\"\(position)\" x2=\"\(left + plotWidth)\" y2=\"\(position)\" stroke=\"#eee\"/>\n"
        svg += "<text x=\"\(left - 8)\" y=\"\(position + 4)\" text-anchor=\"end\">\(tenth * 10)%</text>\n"
    }
    svg += "<text x=\"\(left + plotWidth / 2)\" y=\"\(height - 15)\" text-anchor=\"middle\">round trip (log scale)</text>\n"
    svg += "<text transform=\"translate(18 \(top + plotHeight / 2)) rotate(-90)\" text-anchor=\"middle\">share of round trips ≤ x</text>\n"
    for (index, one) in series.enumerated() where !one.samplesMicroseconds.isEmpty {
        let sorted = one.samplesMicroseconds.sorted()
        let stride = max(1, sorted.count / 400)
        var points: [String] = []
        var position = 0
        while position < sorted.count {
            points.append(String(format: "%.1f,%.1f", x(max(low, sorted[position])), y(Double(position + 1) / Double(sorted.count))))
            position += stride
        }
        points.append(String(format: "%.1f,%.1f", x(sorted.last!), y(1)))
        let dash = one.dashed ? " stroke-dasharray=\"6 4\"" : ""
        svg += "<polyline fill=\"none\" stroke=\"\(one.color)\" stroke-width=\"2\"\(dash) points=\"\(points.joined(separator: " "))\"/>\n"
        let legendY = top + 10 + Double(index) * 22
        svg += "<line x1=\"\(left + plotWidth + 15)\" y1=\"\(legendY)\" x2=\"\(left + plotWidth + 40)\" y2=\"\(legendY)\" stroke=\"\(one.color)\" stroke-width=\"2\"\(dash)/>\n"
        let summary = Summary(sorted)!
        svg += "<text x=\"\(left + plotWidth + 45)\" y=\"\(legendY + 4)\">\(escapeXML(one.name)) (p50 \(format(summary.p50)) µs)</text>\n"
    }
    svg += "</svg>\n"
    return svg
}

func escapeXML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;")
}

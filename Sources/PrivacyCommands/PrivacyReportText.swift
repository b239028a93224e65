import FoundationEssentials
import GameProtocol
import LocalNetworkPrivacy
import PrivacyReport
import TextSupport

/// `tictactoe privacy report`: the privacy report's records of the last 7 days, as text (one line each, oldest first,
/// times in UTC) or as JSON lines (each record as the file holds it: README "The privacy report"). The text is the
/// same in every language: a developer's record, its words those of the file.
public enum PrivacyReportText {
    /// The text: a headline with the file, then one line per record (or a line saying there are none).
    public static func text(_ contents: PrivacyReportLog.Contents, path: String) -> String {
        var lines = ["Privacy report: local network activity of the last 7 days (times in UTC), from \(path)"]
        if contents.entries.isEmpty { lines.append("No local network activity recorded in the last 7 days.") }
        lines += contents.entries.map(line)
        return lines.joined(separator: "\n")
    }

    /// One record: "2026-11-25 15:30:00Z  allowed  connect 192.168.1.20:7777  · tictactoe join".
    static func line(_ entry: PrivacyReportEntry) -> String {
        let operation = [entry.operation, entry.destination].compactMap { $0 }.joined(separator: " ")
        let what: String
        switch entry.event {
        case .decision:
            let outcome = entry.outcome?.rawValue ?? "?"
            var verdict = entry.verdict.map { $0 == outcome ? "" : " (\($0))" } ?? ""
            if let detail = entry.detail { verdict = " (\(entry.verdict ?? "refused"): \(detail))" }
            what = DisplayWidth.padded(outcome, to: 9) + operation + verdict
        case .promptShown:
            what = DisplayWidth.padded("prompt", to: 9) + "shown for " + (operation.isEmpty ? "?" : operation)
        case .operation:
            what = DisplayWidth.padded("done", to: 9) + operation
        case .promptAnswered:
            let answer = entry.answer == "allow" ? "OK (allow)" : "Don't Allow (deny)"
            what = DisplayWidth.padded("prompt", to: 9) + "answered \(answer)"
                + (operation.isEmpty ? "" : " for \(operation)")
        }
        let origin = entry.origin.map { "  · \($0)" } ?? ""
        return DisplayText.escaped("\(longTime(entry.time))  \(what)\(origin)")
    }

    /// `--json`: the records, one JSON object a line, each written again by the one encoder (the file's format).
    public static func jsonLines(_ contents: PrivacyReportLog.Contents) throws -> String {
        try contents.entries.map { String(try $0.line().dropLast()) }.joined(separator: "\n")
    }

    /// "2026-11-25 15:30:00Z".
    static func longTime(_ date: Date) -> String {
        Date.ISO8601FormatStyle(dateTimeSeparator: .space, timeZone: .gmt).format(date)
    }

    /// "11-25 15:30:02" (UTC), as Settings shows a record.
    public static func shortTime(_ date: Date) -> String {
        String(longTime(date).dropFirst(5).prefix(14))
    }
}

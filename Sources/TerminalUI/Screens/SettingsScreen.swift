import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets

/// Settings: the computer's level, who starts, the name, colours, key hints; Privacy › Local Network (the toggle,
/// reset, and the privacy report). Opened from the menu, or from a screen that waits for local network access (Esc
/// goes back to it).
public struct SettingsScreen: Sendable, ScreenContent {
    /// The rows, top to bottom.
    public enum Row: Int, CaseIterable, Sendable {
        case difficulty, starter, name, colors, keyHints, localNetwork, reset
        /// The privacy report's latest records (shown first below while this row is chosen).
        case report
    }

    public internal(set) var row: Row = .difficulty
    /// The name being edited (its cursor); nil or out of date (another text) means the name with the cursor at its
    /// end.
    private var nameEditor: LineEditor?

    init(row: Row = .difficulty) {
        self.row = row
    }

    var menuItem: MenuItem { .settings }

    /// The name field's editor, in step with the name.
    func nameEditor(for name: String) -> LineEditor {
        if let nameEditor, nameEditor.text == name { return nameEditor }
        return LineEditor(name, limit: .playerName)
    }

    /// A change is saved at once, except the name while it is being typed (it is saved when the person leaves the
    /// field or the screen).
    mutating func handle(_ key: Key, _ shared: inout Shared) -> Step {
        let step = react(to: key, &shared)
        if case .stay = step.go, row == .name { return step }
        return Step(step.effects + shared.saved(), step.go)
    }

    private mutating func react(to key: Key, _ shared: inout Shared) -> Step {
        if row == .name, key != .up, key != .down {
            // The name is edited in place, as a line (63 bytes, as --name): letters are text here.
            var editor = nameEditor(for: shared.settings.name)
            if editor.handle(key) == .edited {
                shared.settings.name = editor.text
                nameEditor = editor
                return Step()
            }
        }
        switch key {
        case .escape, .character("q"):
            if shared.settings.name.trimmingWhitespace().isEmpty { shared.settings.name = "player" }
            return Step(.back)
        case .up, .character("k"), .backTab:
            return move(by: -1)
        case .down, .character("j"), .tab:
            return move(by: 1)
        case .enter where row == .name:
            row = .colors
        case .left, .right, .enter, .character(" "), .character("h"), .character("l"):
            return change(row, by: key == .left || key == .character("h") ? -1 : 1, key: key, &shared)
        default:
            break
        }
        return Step()
    }

    private func change(_ row: Row, by step: Int, key: Key, _ shared: inout Shared) -> Step {
        switch row {
        case .difficulty: shared.settings.difficulty = cycle(shared.settings.difficulty, step)
        case .starter: shared.settings.starter = cycle(shared.settings.starter, step)
        case .colors: shared.settings.colors.toggle()
        case .keyHints: shared.settings.keyHints.toggle()
        case .localNetwork:
            // The Local Network toggle: on iOS, Settings › Privacy › Local Network › TicTacToe.
            return Step([.setLocalNetwork(allowed: shared.privacy?.state != .allowed)])
        case .reset:
            if key == .enter || key == .character(" ") { return Step([.resetLocalNetwork]) }
        case .report:
            return Step([.loadPrivacyInfo])  // the latest records again
        case .name:
            break
        }
        return Step()
    }

    /// Chooses another row; the privacy report's row reads the latest records.
    private mutating func move(by step: Int) -> Step {
        let count = Row.allCases.count
        row = Row(rawValue: (row.rawValue + step + count) % count) ?? .difficulty
        return Step(row == .report ? [.loadPrivacyInfo] : [])
    }

    private func cycle<T: CaseIterable & Equatable>(_ value: T, _ step: Int) -> T {
        let all = Array(T.allCases)
        let index = all.firstIndex(of: value) ?? 0
        return all[(index + step + all.count) % all.count]
    }

    // MARK: Drawing

    func render(into canvas: inout Canvas, _ view: ScreenView) {
        canvas.putCentered(tr("Settings"), row: 2, style: .bold)
        let settings = view.settings
        let width = min(64, view.size.columns - 2)
        let left = max(1, (view.size.columns - width) / 2)
        let network: String
        switch view.shared.privacy?.state {
        case .allowed?: network = tr("< On >")
        case .denied?: network = tr("< Off >")
        case .notDetermined?: network = tr("< not asked yet >")
        case nil: network = "…"
        }
        let name = nameEditor(for: settings.name).view(width: width - 15, editing: row == .name)
        let rows: [(Row, String, String)] = [
            (.difficulty, tr("Difficulty"), "< \(settings.difficulty.title) >"),
            (.starter, tr("Who starts"), "< \(settings.starter.title) >"),
            (.name, tr("Your name"), name.text),
            (.colors, tr("Colours"), settings.colors ? tr("< on >") : tr("< off >")),
            (.keyHints, tr("Key hints"), settings.keyHints ? tr("< shown >") : tr("< hidden >")),
            (.localNetwork, tr("Local Network"), network),
            (.reset, tr("Reset"), tr("ask again next time (Enter)")),
            (.report, tr("Privacy report"), tr("recent activity below")),
        ]
        for (each, label, value) in rows {
            let line = DisplayWidth.fit(label, to: 15) + value
            canvas.put(DisplayWidth.fit(line, to: width),
                       row: 4 + each.rawValue + (each.rawValue >= Row.localNetwork.rawValue ? 2 : 0), column: left,
                       style: each == row ? .selected : .normal)
        }
        if let cursor = name.cursor {
            canvas.restyle(row: 4 + Row.name.rawValue, column: left + 15 + cursor, width: 1, style: .cursor)
        }
        let privacyRow = 4 + Row.localNetwork.rawValue + 1  // a blank line, the heading, then its rows
        canvas.put(tr("Privacy › Local Network"), row: privacyRow, column: left, style: .bold)
        var line = privacyRow + 4  // under the report row: the dim lines stand apart; a small window keeps them
        for text in privacyLines(view.shared.privacy) {
            for part in wrap(text, width: width) where line < view.size.rows - 2 {
                canvas.put(part, row: line, column: left, style: .dim)
                line += 1
            }
        }
    }

    /// What the privacy section says below its rows: the report's row shows its records first; the others, the
    /// details first (and the records if room is left).
    private func privacyLines(_ privacy: PrivacyInfo?) -> [String] {
        guard let privacy else { return [] }
        var info: [String] = []
        if let error = privacy.manifestError {
            info.append(tr("Manifest: %@", error))
        } else {
            info.append(tr("Why: %@", privacy.usageDescription
                ?? tr("(no NSLocalNetworkUsageDescription: a default is shown)")))
            info.append(tr("Declared services: %@",
                           privacy.services.isEmpty ? tr("none") : privacy.services.joined(separator: ", ")))
            if let path = privacy.manifestPath { info.append(tr("Manifest: %@", path)) }
        }
        if let error = privacy.entitlementsError {
            info.append(tr("Entitlements: %@", error))
        } else if privacy.manifestError == nil {
            info.append(tr("Entitlements: %@", privacy.entitlements.isEmpty
                ? tr("none") : privacy.entitlements.joined(separator: ", ")))
        }
        info.append(tr("Decision: %@", privacy.decisionFile))
        info.append(tr("Debug log: %@", privacy.logFile))
        if let report = privacy.reportFile { info.append(tr("Privacy report: %@", report)) }
        let activity = [privacy.activity.isEmpty
            ? tr("No local network activity in the last 7 days.")
            : tr("Latest local network activity:")] + privacy.activity.map(Self.activityLine)
        return row == .report ? activity + info : info + activity
    }

    /// One record of the privacy report: "11-25 15:30:02 allowed: connect 192.168.1.20:7777 · Join a game screen".
    static func activityLine(_ activity: PrivacyActivity) -> String {
        let outcome: String
        switch activity.kind {
        case .allowed: outcome = tr("allowed")
        case .waiting: outcome = tr("waiting")
        case .refused: outcome = tr("refused")
        case .done: outcome = tr("done")
        case .promptShown: outcome = tr("prompt shown")
        case .promptAnswered(let allow): outcome = tr("prompt answered %@", allow ? tr("OK") : tr("Don't Allow"))
        }
        let operation: String?
        switch activity.operation {
        case "browse": operation = tr("browse")
        case "advertise": operation = tr("advertise")
        case "listen": operation = tr("listen")
        case "connect": operation = tr("connect")
        case "multicast": operation = tr("multicast")
        case "browse-service-types": operation = tr("browse every service type")
        case "resolve": operation = tr("resolve")
        case "permission": operation = tr("permission")  // the decision changed: the new state follows
        case let other: operation = other
        }
        let what = [operation, activity.destination].compactMap { $0 }.joined(separator: " ")
        let origin = activity.origin.map { " · " + $0 } ?? ""
        return DisplayText.escaped("\(activity.time) \(outcome)" + (what.isEmpty ? "" : ": " + what) + origin)
    }

    func hints(_ view: ScreenView) -> String {
        switch view.below {
        case .network?: return tr("↑/↓ choose · ←/→ or Enter change · Esc back to the waiting game")
        case .search?: return tr("↑/↓ choose · ←/→ or Enter change · Esc back to the search")
        case .lobby?: return tr("↑/↓ choose · ←/→ or Enter change · Esc back to the lobby")
        default: return tr("↑/↓ choose · ←/→ or Enter change · type to edit the name · Esc back")
        }
    }

    func statusText(_ view: ScreenView) -> String {
        switch view.shared.privacy?.state {
        case .allowed?: return tr("Local network access: allowed")
        case .denied?: return tr("Local network access: denied")
        case .notDetermined?: return tr("Local network access: not asked yet")
        case nil: return ""
        }
    }
}

import GameClient
import Localization
import TerminalWidgets

/// The usage-description prompt: a modal dialog, as iOS shows it.
public struct PromptState: Sendable, Hashable {
    public var title: String
    public var message: String
    public let intent: NetworkIntent
    /// The buttons' words, in the user's language (as iOS labels them).
    public var deny = tr("Don't Allow")
    public var ok = tr("OK")
    /// 0: Don't Allow, 1: OK.
    public var selected = 1

    package init(title: String, message: String, intent: NetworkIntent) {
        self.title = title
        self.message = message
        self.intent = intent
    }

    package enum Answer { case none, allow, deny }

    /// ←/→ choose a button, Enter answers with it; o and d answer at once, Esc denies.
    package mutating func handle(_ key: Key) -> Answer {
        switch key {
        case .left, .right, .tab, .backTab, .character("h"), .character("l"):
            selected = 1 - selected
        case .enter, .character(" "):
            return selected == 1 ? .allow : .deny
        case .character("o"), .character("y"):
            return .allow
        case .character("d"), .character("n"), .escape:
            return .deny
        default:
            break
        }
        return .none
    }
}

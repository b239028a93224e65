import GameClient
import GameProtocol
import Localization
import TextSupport
import TerminalWidgets
import NetworkScreenState

extension PromptState {
    /// The prompt in a box in the middle of the screen, its two buttons at the bottom.
    func render(into canvas: inout Canvas, unicode: Bool) {
        let (width, inner) = canvas.dialogWidth
        let title = wrap(self.title, width: inner)
        let message = wrap(self.message, width: inner)
        let height = title.count + message.count + 5
        let (top, left, below) = canvas.drawDialog(width: width, height: height, title: title, unicode: unicode)
        canvas.put(lines: message, row: below + 1, column: left + 2)
        let deny = "[ \(self.deny) ]"
        let ok = "[ \(self.ok) ]"
        let buttons = top + height - 2
        let gap = 6
        let start = left + (width - DisplayWidth.of(deny) - DisplayWidth.of(ok) - gap) / 2
        canvas.put(deny, row: buttons, column: start, style: selected == 0 ? .selected : .normal)
        canvas.put(ok, row: buttons, column: start + DisplayWidth.of(deny) + gap,
                   style: selected == 1 ? .selected : .normal)
    }

    var hints: String { tr("←/→ choose · Enter answers · o %@ · d %@", ok, deny) }
}

extension AppModel {
    /// The gate answered for something the person asked for: go ahead (also when denied: it then waits and says
    /// why), ask first, or explain why it cannot happen at all.
    mutating func gateAnswered(
        _ verdict: LocalNetworkVerdict, _ intent: NetworkIntent, _ promptText: (title: String, message: String)?
    ) -> [AppEffect] {
        guard screen.wants(intent) else { return [] }  // the person has moved on
        switch verdict {
        case .allowed, .exempt, .denied:
            return proceed(intent)
        case .needsPrompt:
            let text = promptText ?? (title: tr("“%@” would like to find and connect to devices on your local network.",
                                                 "TicTacToe"),
                                      message: "")
            prompt = PromptState(title: text.title, message: text.message, intent: intent)
        case .noAuth:
            fail(tr("%@ (the service type is not declared in the app's Info.plist)",
                    tr(LocalNetworkVerdict.noAuthMessage)))
        case .manifestError(let text):
            fail(tr("Cannot use the local network: %@", text))
        case .missingEntitlement(let key):
            fail(tr("Cannot use the local network: the app is not entitled to %@", key))
        }
        return []
    }

    /// What the screen that asked goes on to do. What the intent does not say (the gate needs none of it) is on the
    /// network screen that asked.
    mutating func proceed(_ intent: NetworkIntent) -> [AppEffect] {
        var game: NetworkGame?
        if case .network(let current) = screen { game = current }
        switch intent {
        case .search: return [.startBrowsing]
        case .browseServiceTypes: return [.startServiceTypes]
        case .lobby: return [.startLobby(name: settings.name)]
        case .host(let name, let port, _):
            return [.host(name: name, port: port, security: game?.security ?? .open, spectators: game?.spectators ?? 0)]
        case .watch(let name, let address):
            guard case .watch(let watch) = screen else { return [] }
            return [.watch(name: name, address: address, code: watch.code)]
        case .join(let name, let address):
            // The join says within `NetworkGame.connectSeconds` whether it got through: counted down on the screen.
            let join = AppEffect.join(name: name, address: address, code: game?.code)
            guard var joining = game else { return [join] }
            joining.startCountdown()
            screen = .network(joining)
            return [join, .schedule(.connectCountdown, after: .seconds(1))]
        }
    }

    /// Why the network cannot be used, on the screen that asked (or in the status line).
    private mutating func fail(_ text: String) {
        if !screen.fail(text) { flash = text }
    }
}

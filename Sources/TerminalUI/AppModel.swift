import GameClient
import GameProtocol
import TerminalWidgets
import NetworkScreenState

/// The whole state of the terminal UI: a pure value. `handle(_:)` returns the effects the runtime carries out;
/// `render(unicode:)` draws it. No curses, no sockets.
///
/// The model routes each input to the screen it is for and keeps the navigation stack: each screen (`Screen`) is
/// its own reducer; Esc on a screen goes back to the one below it. The modals (the local network prompt, a
/// question before leaving, the help) take the keys before any screen.
public struct AppModel: Sendable {
    /// The screens, the menu at the bottom; the last one shows. Never empty.
    var stack: [Screen]
    var shared: Shared
    public var showHelp = false
    /// The local network prompt, when shown (modal).
    public internal(set) var prompt: PromptState?
    /// A question before leaving a match, resigning or quitting (modal): `y` confirms, any other key cancels.
    public private(set) var confirmation: Confirmation?
    /// Set once the person quits; the runtime exits after the network had a moment to say bye.
    public private(set) var quitting: ExitStatus?

    public init(settings: UISettings, size: TerminalSize, seed: UInt64) {
        shared = Shared(settings: settings, size: size, seed: seed)
        stack = [.menu(MenuScreen())]
    }

    /// The model of `tictactoe replay`: the viewer alone, so leaving it quits (there is no menu to go back to).
    public init(settings: UISettings, size: TerminalSize, replay: ReplayViewer) {
        self.init(settings: settings, size: size, seed: 0)
        stack = [.replay(replay)]
    }

    /// The screen that shows: the top of the stack.
    public internal(set) var screen: Screen {
        get { stack[stack.count - 1] }
        set { stack[stack.count - 1] = newValue }
    }

    /// The screen under the one that shows.
    var below: Screen? { stack.count > 1 ? stack[stack.count - 2] : nil }

    public var settings: UISettings {
        get { shared.settings }
        set { shared.settings = newValue }
    }
    public var size: TerminalSize {
        get { shared.size }
        set { shared.size = newValue }
    }
    public var flash: String? {
        get { shared.flash }
        set { shared.flash = newValue }
    }
    public var privacy: PrivacyInfo? { shared.privacy }

    public var isTooSmall: Bool { size.rows < minimumSize.rows || size.columns < minimumSize.columns }

    /// Routes `input` to the screen (or the modal) it is for; returns what the runtime is to do.
    public mutating func handle(_ input: AppInput) -> [AppEffect] {
        switch input {
        case .key(let key):
            return keyPressed(key)
        case .resized(let newSize):
            size = newSize
        case .timer(let id):
            return timerFired(id)
        case .engine(let event, _):
            guard case .computer(var game) = screen else { return [] }
            let effects = game.engineReported(event) + game.savedIfEnded(as: settings.name)
            screen = .computer(game)
            return effects
        case .signal(let reason):
            confirmation = nil  // Ctrl-C never asks
            return quit(status: ExitStatus(stoppedBy: reason), reason: reason)
        case .discovery(let update):
            guard case .search(var search) = screen else { return [] }
            search.apply(update)
            screen = .search(search)
        case .serviceTypes(let update):
            guard case .serviceTypes(var types) = screen else { return [] }
            types.apply(update)
            screen = .serviceTypes(types)
        case .lobby(let update, _):
            return lobbyUpdated(update)
        case .gate(let verdict, let intent, let promptText):
            return gateAnswered(verdict, intent, promptText)
        case .privacy(let info):
            shared.privacy = info
        case .privacyChanged:
            return [.loadPrivacyInfo]
        case .launchEagerly:
            stack.append(.search(SearchState()))
            return [.checkNetwork(.search)]
        case .notice(let text):
            flash = text
        case .pastGames(let games):
            guard case .pastGames(var past) = screen else { return [] }
            past.load(games)
            screen = .pastGames(past)
        case .network(let event, _):
            return networkEvent(event)
        }
        return []
    }

    private mutating func timerFired(_ id: TimerID) -> [AppEffect] {
        switch id {
        case .clearFlash:
            flash = nil
            return []
        case .quitGrace:
            return [.quit(status: quitting ?? .success)]
        case .connectCountdown:
            guard case .network(var game) = screen else { return [] }
            let more = game.countDown()
            screen = .network(game)
            return more ? [.schedule(.connectCountdown, after: .seconds(1))] : []
        case .computerMove:
            guard case .computer(var game) = screen else { return [] }
            let effects = game.computerMoves() + game.savedIfEnded(as: settings.name)
            screen = .computer(game)
            return effects
        }
    }

    /// A key goes to the first that takes it: a question, the help, the prompt, then the screen.
    private mutating func keyPressed(_ key: Key) -> [AppEffect] {
        if key == .resize { return [] }
        flash = nil
        if let asked = confirmation {
            // The question takes the next key: `y` goes ahead, any other key only closes it.
            confirmation = nil
            return Confirmation.confirms(key) ? confirmed(asked.action) : []
        }
        if showHelp {
            showHelp = false
            return []
        }
        if var prompt {
            let answer = prompt.handle(key)
            self.prompt = answer == .none ? prompt : nil
            switch answer {
            case .none: return []
            case .allow: return [.answerPrompt(allow: true)] + proceed(prompt.intent)
            case .deny: return [.answerPrompt(allow: false)] + proceed(prompt.intent)
            }
        }
        if key == .character("?"), !screen.isTypingText {
            showHelp = true
            return []
        }
        if isTooSmall {
            if key == .character("q") || key == .escape { return askToQuit() }
            return []
        }
        let under = below
        var top = screen
        let step = top.handle(key, &shared, below: under)
        screen = top
        return go(step)
    }

    /// Carries out a screen's step: its effects, then where it goes on the stack.
    mutating func go(_ step: Step) -> [AppEffect] {
        switch step.go {
        case .stay:
            return step.effects
        case .push(let next):
            stack.append(next)
            return step.effects
        case .replace(let next):
            screen = next
            return step.effects
        case .back:
            // The replay of `tictactoe replay` has nothing below: leaving it quits.
            guard stack.count > 1 else { return step.effects + [.quit(status: .success)] }
            let left = stack.removeLast()
            var top = screen
            let resumed = top.resumed(after: left)
            screen = top
            return step.effects + go(resumed)
        case .ask(let question):
            confirmation = question
            return step.effects
        case .quit:
            return step.effects + quit(status: .success, reason: .quit)
        }
    }

    // MARK: Network events

    /// A network event for the match or watch on the screen, or for the host or join that waits behind Settings.
    private mutating func networkEvent(_ event: NetworkEvent) -> [AppEffect] {
        if case .settings = screen, case .network(var waiting)? = below {
            waiting.apply(event)
            stack[stack.count - 2] = .network(waiting)
            return []
        }
        switch screen {
        case .watch(var watch):
            let step = watch.received(event)
            screen = .watch(watch)
            return go(step)
        case .network(var game):
            let step = game.received(event, lobbyBehind: below?.isLobby == true)
            screen = .network(game)
            dropStaleConfirmation()
            return go(step)
        default:
            return []
        }
    }

    // MARK: Confirmations and quitting

    /// Asks before quitting when that forfeits a match; quits at once otherwise.
    private mutating func askToQuit() -> [AppEffect] {
        if case .network(let game) = screen, game.inMatch {
            confirmation = Confirmation(.quit, gameInProgress: game.phase == .playing)
            return []
        }
        return quit(status: .success, reason: .quit)
    }

    /// Carries out what the person confirmed (if it still applies: the match may have moved on meanwhile).
    private mutating func confirmed(_ action: Confirmation.Action) -> [AppEffect] {
        switch action {
        case .quit:
            return quit(status: .success, reason: .quit)
        case .leave:
            guard case .network(let game) = screen else { return [] }
            return go(game.leave())
        case .resign:
            guard case .network(let game) = screen, game.canResign else { return [] }
            return [.command(.resign)]
        }
    }

    /// Forgets a question about a match that ended or a game that is no longer played while it was asked.
    private mutating func dropStaleConfirmation() {
        guard let asked = confirmation, case .network(let game) = screen else { return }
        switch asked.action {
        case .leave, .quit:
            if !game.inMatch { confirmation = nil }
        case .resign:
            if !game.canResign { confirmation = nil }
        }
    }

    /// Leaves: tells a connected peer (bye), then quits after a short grace period for the frame to go out.
    mutating func quit(status: ExitStatus, reason: ByeReason) -> [AppEffect] {
        guard quitting == nil else { return [.quit(status: status)] }
        quitting = status
        let grace = AppEffect.schedule(.quitGrace, after: .milliseconds(300))
        let lobbyBehind = stack.dropLast().contains { $0.isLobby }
        switch screen {
        case .watch(let watch) where !watch.isOver:
            return [.cancelNetwork, grace]  // the host hears bye
        case .network(let game) where !game.isOver:
            var effects: [AppEffect] = []
            if game.inMatch { effects.append(.command(.leave(reason))) }
            effects.append(.cancelNetwork)
            if lobbyBehind { effects.append(.stopLobby) }
            return effects + [grace]
        case .lobby(let lobby) where !lobby.isLeft:
            return [.stopLobby, grace]  // the others hear we left
        default:
            return lobbyBehind ? [.stopLobby, grace] : [.quit(status: status)]
        }
    }
}

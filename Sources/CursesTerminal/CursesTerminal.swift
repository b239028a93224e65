import CNCurses
import FoundationEssentials
import GameProtocol
import TerminalWidgets

#if canImport(Glibc)
import Glibc
#endif

/// The real terminal: ncursesw. The only module that imports curses; everything above speaks `Terminal`.
public final class CursesTerminal: Terminal {
    public private(set) var unicode = false
    public private(set) var colors = false
    /// Colours were started (the terminal has them and they were wanted): the Colours setting can turn them on.
    private var colorsAvailable = false
    private var started = false

    public init() {}

    /// The terminal UI cannot start (exit 1).
    public enum Failure: ExitStatusConvertible, CustomStringConvertible {
        case noTerminal
        public var exitStatus: ExitStatus { .failure }
        public var description: String { "cannot start the terminal UI: standard input/output is not a terminal (TERM=\(ProcessInfo.processInfo.environment["TERM"] ?? "unset"))" }
    }

    public func start(colors wanted: Bool) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw Failure.noTerminal }
        // The two categories anything here reads (LC_ALL would load every one of the locale's files): the character
        // set, for curses' wide characters and `unicode`, and the messages, for strerror's text.
        setlocale(LC_CTYPE, "")
        setlocale(LC_MESSAGES, "")
        unicode = String(cString: nl_langinfo(nl_item(CODESET))).uppercased() == "UTF-8"
        // Signals are blocked around initscr so a Ctrl-C cannot leave a half-initialised terminal.
        var all = sigset_t()
        var previous = sigset_t()
        sigfillset(&all)
        sigprocmask(SIG_BLOCK, &all, &previous)
        let screen = newterm(nil, cncurses_stdout(), cncurses_stdin())
        // Out of ncurses' initial state at once: as long as a screen is in it, ncurses writes out every cursor
        // movement as it makes it (its `_nc_mvcur` flushes, for programs that use terminfo alone), and only an
        // `endwin` and the next refresh end it; a frame would go out in pieces, one `write` per line it touches (a
        // terminal could show half a frame, an ssh session sends as many packets). After this `endwin` the first
        // refresh resumes, and each frame is one write.
        if screen != nil { endwin() }
        sigprocmask(SIG_SETMASK, &previous, nil)
        guard screen != nil else { throw Failure.noTerminal }
        started = true
        CursesTerminal.installCrashHandlers()
        cbreak()
        noecho()
        nonl()
        intrflush(cncurses_stdscr(), false)
        keypad(cncurses_stdscr(), true)
        nodelay(cncurses_stdscr(), true)
        curs_set(0)
        set_escdelay(25)
        mousemask(Self.button1Events, nil)
        mouseinterval(0)
        if wanted, has_colors() {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_CYAN), -1)  // X
            init_pair(2, Int16(COLOR_YELLOW), -1)  // O
            init_pair(3, Int16(COLOR_BLACK), Int16(COLOR_GREEN))  // the winning line
            init_pair(4, Int16(COLOR_BLACK), Int16(COLOR_CYAN))  // selected menu item / field
            init_pair(5, Int16(COLOR_RED), -1)  // errors
            init_pair(6, Int16(COLOR_GREEN), -1)  // results, shortcut letters
            init_pair(7, Int16(COLOR_MAGENTA), -1)  // title
            colorsAvailable = true
            colors = true
        }
    }

    public func useColors(_ on: Bool) {
        colors = colorsAvailable && on
    }

    public func stop() {
        guard started else { return }
        started = false
        mousemask(0, nil)
        endwin()
    }

    public var size: TerminalSize {
        TerminalSize(rows: Int(getmaxy(cncurses_stdscr())), columns: Int(getmaxx(cncurses_stdscr())))
    }

    public func present(_ canvas: Canvas) {
        werase(cncurses_stdscr())
        for row in 0..<min(canvas.size.rows, size.rows) {
            // By segment: each at the column the canvas gives it (curses adds up the widths of an emoji
            // sequence's scalars, the canvas counts it as two columns).
            for run in canvas.segments(row: row) {
                wattrset(cncurses_stdscr(), Int32(truncatingIfNeeded: attributes(for: run.style)))
                _ = mvwaddstr(cncurses_stdscr(), Int32(row), Int32(run.column), run.text)
            }
        }
        wattrset(cncurses_stdscr(), 0)
        wrefresh(cncurses_stdscr())
    }

    public func waitForInput(timeout: Duration?, wakeDescriptor: Int32) -> Bool {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = timeout.map { Int32(min(max($0.milliseconds.rounded(.up), 0), 86_400_000)) } ?? -1
        _ = poll(&descriptors, 2, milliseconds)
        return true
    }

    /// The window changed size (SIGWINCH, delivered through the UI loop's event queue): curses takes the new size.
    public func applyResize() {
        var window = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 {
            resizeterm(Int32(window.ws_row), Int32(window.ws_col))
        }
        clearok(cncurses_curscr(), true)
    }

    public func readKeys() -> [Key] {
        var keys: [Key] = []
        var character: wint_t = 0
        while true {
            let result = wget_wch(cncurses_stdscr(), &character)
            if result == ERR { break }
            if result == KEY_CODE_YES {
                if let key = functionKey(Int32(character)) { keys.append(key) }
            } else if let key = characterKey(UInt32(character)) {
                keys.append(key)
            }
        }
        return keys
    }

    private func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_RESIZE: return .resize
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK, event.bstate & Self.button1Events != 0 else { return nil }
            // Pressed and released both arrive; act on one of them only.
            if event.bstate & Self.button1Released != 0 { return nil }
            return .click(row: Int(event.y), column: Int(event.x))
        default: return nil
        }
    }

    private func characterKey(_ value: UInt32) -> Key? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26:  // Ctrl-A … Ctrl-Z (those above excepted)
            return .control(Character(Unicode.Scalar(UInt8(value) + 0x60)))
        default:
            guard value >= 32, let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }

    // ncurses' attribute and mouse macros do not import into Swift; these are their values (ncurses 6, mouse
    // version 2).
    private static let standout: UInt = 1 << 16
    private static let underline: UInt = 1 << 17
    private static let reverse: UInt = 1 << 18
    private static let dim: UInt = 1 << 20
    private static let bold: UInt = 1 << 21
    private static func pair(_ number: UInt) -> UInt { number << 8 }
    private static let button1Released: mmask_t = 0o1
    private static let button1Events: mmask_t = 0o1 | 0o2 | 0o4

    private func attributes(for style: Style) -> UInt {
        if colors {
            switch style {
            case .normal: return 0
            case .dim: return Self.dim
            case .bold: return Self.bold
            case .title: return Self.bold | Self.pair(7)
            case .markX: return Self.bold | Self.pair(1)
            case .markO: return Self.bold | Self.pair(2)
            case .winning: return Self.bold | Self.pair(3)
            case .selected: return Self.pair(4)
            case .cursor: return Self.reverse
            case .status: return Self.reverse
            case .error: return Self.bold | Self.pair(5)
            case .accent: return Self.bold | Self.pair(6)
            }
        }
        switch style {
        case .normal: return 0
        case .dim: return Self.dim
        case .bold, .title, .markX, .accent, .error: return Self.bold
        case .markO: return Self.bold | Self.underline
        case .winning: return Self.bold | Self.reverse
        case .selected, .status: return Self.reverse
        case .cursor: return Self.reverse | Self.dim
        }
    }

    /// On a crash signal the terminal is restored before the process dies, so the shell stays usable.
    private static func installCrashHandlers() {
        for number in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            signal(number) { received in
                endwin()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }
}

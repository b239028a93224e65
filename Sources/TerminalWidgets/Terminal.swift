/// A key (or other input) from the terminal, independent of curses.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case enter, escape, backspace, delete, tab, backTab, home, end
    /// A control key other than those above: Ctrl-A is `.control("a")` (Ctrl-H, Ctrl-I, Ctrl-J, Ctrl-M and Ctrl-[
    /// arrive as Backspace, Tab, Enter, Enter and Esc).
    case control(Character)
    /// The window changed size.
    case resize
    /// A mouse click at a screen position (0-based).
    case click(row: Int, column: Int)
}

/// The size of the window in character cells.
public struct TerminalSize: Hashable, Sendable {
    public var rows: Int
    public var columns: Int
    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}

/// The small seam every screen is written against. `CursesTerminal` is the real one; tests use a fake that records
/// frames and replays keys.
public protocol Terminal: AnyObject {
    /// Takes over the screen (curses: initscr and friends).
    func start(colors: Bool) throws
    /// Gives the screen back (curses: endwin). Safe to call twice.
    func stop()
    var size: TerminalSize { get }
    /// Whether box-drawing characters can be shown (a UTF-8 locale).
    var unicode: Bool { get }
    /// Whether colours are in use (the terminal has them, neither NO_COLOR nor --no-color said no, and the
    /// Colours setting is on).
    var colors: Bool { get }
    /// The Colours setting: off draws with bold, dim and reverse only (no colour pairs); on uses colours again when
    /// `start(colors:)` could start them. Takes effect at the next `present`.
    func useColors(_ on: Bool)
    /// Shows a frame.
    func present(_ canvas: Canvas)
    /// Sleeps until a key is ready, `wakeDescriptor` becomes readable, or `timeout` passes (nil: no limit).
    /// Returns false when input has ended for good (the fake's script ran out).
    func waitForInput(timeout: Duration?, wakeDescriptor: Int32) -> Bool
    /// The keys available now, without blocking.
    func readKeys() -> [Key]
    /// The window changed size (SIGWINCH): take the new size. Called on the UI thread.
    func applyResize()
}

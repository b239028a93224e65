/// A player that plays a fixed list of cells in order, e.g. for tests and reproducible demos.
///
/// It does not skip illegal cells: it returns them, and the game engine reports them.
public struct ScriptedPlayer: Player, Sendable {
    /// The whole script: cells 0...8 (not checked), in play order.
    public let cells: [Int]
    /// The index in `cells` of the next move.
    public private(set) var nextIndex: Int = 0

    /// Creates a player that plays `cells` (0-based) in order.
    public init(cells: [Int]) {
        self.cells = cells
    }

    /// Parses a script written in the USER numbering 1-9 (reading order, 1 = top-left).
    ///
    /// Numbers are separated by whitespace, commas or newlines; `#` starts a comment to the end of the line.
    /// For example `"5, 1  # centre, then a corner\n9"` plays cells 4, 0 and 8.
    ///
    /// - Throws: `ScriptError.invalidToken(_:line:)` (with the 1-based line) for anything that is not a number
    ///   1-9, or `ScriptError.empty` if there are no numbers at all.
    public init(parsing text: String) throws {
        var cells: [Int] = []
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, line) in lines.enumerated() {
            let code = line.prefix { $0 != "#" }
            for token in code.split(whereSeparator: { $0.isWhitespace || $0 == "," }) {
                guard token.count == 1, let digit = token.first?.wholeNumberValue, token.first?.isASCII == true,
                      (1...9).contains(digit)
                else {
                    throw ScriptError.invalidToken(String(token), line: index + 1)
                }
                cells.append(digit - 1)
            }
        }
        guard !cells.isEmpty else {
            throw ScriptError.empty
        }
        self.init(cells: cells)
    }

    /// The moves not yet played.
    public var remaining: ArraySlice<Int> {
        cells[nextIndex...]
    }

    /// The next scripted cell (whatever the game).
    ///
    /// - Throws: `ScriptError.exhausted` if every scripted cell has been played.
    public mutating func chooseMove(in game: Game) throws -> Int {
        guard nextIndex < cells.count else {
            throw ScriptError.exhausted
        }
        defer { nextIndex += 1 }
        return cells[nextIndex]
    }
}

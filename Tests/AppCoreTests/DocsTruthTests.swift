import Foundation
import XCTest

/// The docs tell the truth, checked in process (nothing runs, nothing touches the network): every fenced-code line
/// of README.md and docs/*.md that runs `tictactoe`, and every code span in their prose that starts with
/// `tictactoe ` and a command or a flag, names a command and only the flags its pinned help lists (docs/help/*.txt,
/// which PinnedHelpTests proves equal to the binary's --help); and every relative link resolves to a file and, when
/// it names one, to a heading of that file. The README stays short, for players.
final class DocsTruthTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Flags every command takes that argument-parser keeps out of the help.
    private static let builtInFlags: Set<String> = ["--generate-completion-script"]

    // MARK: - The pages

    private func pages() throws -> [(name: String, text: String)] {
        let docs = Self.root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return try (["README.md"] + names).map { name in
            (name, try String(contentsOf: Self.root.appendingPathComponent(name), encoding: .utf8))
        }
    }

    /// Each line with its number and whether it is inside a fenced code block (the fence lines count as inside).
    private func lines(_ text: String) -> [(number: Int, text: String, fenced: Bool)] {
        var fenced = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            let isFence = line.drop { $0 == " " }.hasPrefix("```")
            if isFence { fenced.toggle() }
            return (index + 1, String(line), fenced || isFence)
        }
    }

    // MARK: - Commands and flags, from docs/help

    /// The flags each command's help lists, keyed by its words after `tictactoe` ("" for tictactoe itself). A command
    /// with a default subcommand (`play (default)`) takes that one's flags too, as argument-parser does.
    private func helpFlags() throws -> [String: Set<String>] {
        let help = Self.root.appendingPathComponent("docs/help")
        let list = try String(contentsOf: help.appendingPathComponent("COMMANDS"), encoding: .utf8)
        var flags: [String: Set<String>] = [:]
        var defaults: [String: String] = [:]
        for line in list.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard let file = words.first else { continue }
            let text = try String(contentsOf: help.appendingPathComponent("\(file).txt"), encoding: .utf8)
            let command = words.dropFirst().joined(separator: " ")
            flags[command] = Self.optionFlags(text)
            let marked = text.split(separator: "\n").first { $0.hasPrefix("  ") && $0.contains(" (default)") }
            if let sub = marked?.split(separator: " ").first {
                defaults[command] = command.isEmpty ? String(sub) : "\(command) \(sub)"
            }
        }
        for (command, sub) in defaults {
            let inherited = flags[sub] ?? []
            flags[command]?.formUnion(inherited)
        }
        return flags
    }

    /// The flags of a help text's OPTIONS section: `--port <port>`, `-h, --help`, `--advertise/--no-advertise`.
    static func optionFlags(_ help: String) -> Set<String> {
        var flags: Set<String> = []
        var inOptions = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") { inOptions = line == "OPTIONS:" }
            guard inOptions, line.hasPrefix("  -") else { continue }
            let spec = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            for part in spec.split(whereSeparator: { $0 == "," || $0 == "/" || $0 == " " }) where part.hasPrefix("-") {
                flags.insert(String(part))
            }
        }
        return flags
    }

    /// Splits a command line as a shell would: quotes and backslashes honoured, a word starting with `#` begins a
    /// comment, and an unquoted `|`, `&`, `;`, `<` or `>` ends the command.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped { word.append(character); escaped = false; continue }
            if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else {
                    word.append(character)
                }
                continue
            }
            switch character {
            case "\\": escaped = true; inWord = true
            case "'", "\"": quote = character; inWord = true
            case " ", "\t":
                if inWord { words.append(word); word = ""; inWord = false }
            case "#" where !inWord: return words
            case "|", "&", ";", "<", ">":
                if inWord { words.append(word) }
                return words
            default: word.append(character); inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// The words after `tictactoe` when a code line runs it, else nil: after a `$ ` or `alice$ ` prompt and
    /// `NAME=value` assignments, or after the `--` of a wrapper (`sudo Tests/lab/lan exec host-a -- tictactoe …`).
    static func tictactoeArguments(_ line: String) -> [String]? {
        var rest = Substring(line.trimmingCharacters(in: .whitespaces))
        if let dollar = rest.firstIndex(of: "$"), rest[..<dollar].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }),
           rest[rest.index(after: dollar)...].first == " " {
            rest = rest[rest.index(after: dollar)...].drop { $0 == " " }
        }
        var words = Self.words(String(rest))[...]
        while let first = words.first, first.contains("="), !first.hasPrefix("-") { words.removeFirst() }
        if words.first != "tictactoe", let wrapper = words.firstIndex(of: "--"), words[wrapper...].dropFirst().first == "tictactoe" {
            words = words[(wrapper + 1)...]
        }
        guard words.first == "tictactoe" else { return nil }
        return Array(words.dropFirst())
    }

    /// What is wrong with a `tictactoe` command line's words, or nil.
    static func problem(_ arguments: [String], flags: [String: Set<String>]) -> String? {
        let isFlag = { (word: String) in word.hasPrefix("-") && word != "-" && !(word.dropFirst().first?.isNumber ?? false) }
        var command = ""
        var rest = arguments[...]
        if let first = rest.first, !isFlag(first) {
            if first == "help" { rest = rest.dropFirst() }
            guard let name = rest.first, flags[name] != nil else {
                return "unknown command '\(first)'"
            }
            command = name
            rest = rest.dropFirst()
            if let sub = rest.first, !isFlag(sub), flags["\(name) \(sub)"] != nil {
                command = "\(name) \(sub)"
                rest = rest.dropFirst()
            }
        }
        let known = (flags[command] ?? []).union(Self.builtInFlags)
        for word in rest where isFlag(word) {
            let flag = String(word.prefix { $0 != "=" })
            if !known.contains(flag) {
                return "'\(flag)' is not an option of tictactoe\(command.isEmpty ? "" : " " + command)"
            }
        }
        return nil
    }

    /// The code spans of a prose line that start with `tictactoe `, as command lines: a usage's brackets dropped
    /// (`[--json]`), a table's escaped bar (`\|`) a pipe again.
    static func tictactoeSpans(_ line: String) -> [String] {
        line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && $0.element.hasPrefix("tictactoe ") }
            .map { $0.element.replacingOccurrences(of: "\\|", with: "|").filter { $0 != "[" && $0 != "]" } }
    }

    func testEveryTictactoeLineInTheDocsNamesACommandAndItsFlags() throws {
        let flags = try helpFlags()
        XCTAssertTrue(flags["host"]?.contains("--no-advertise") == true, "the help's flags are read")
        XCTAssertTrue(flags[""]?.contains("--plain") == true, "tictactoe takes its default command's flags (play)")
        XCTAssertTrue(flags["privacy"]?.contains("--json") == true, "privacy takes its default command's (status)")
        var checked = 0
        for page in try pages() {
            for line in lines(page.text) where !line.fenced {
                // A span whose next word is no command is a string in prose ("tictactoe open game"), not a command.
                for span in Self.tictactoeSpans(line.text) {
                    guard let arguments = Self.tictactoeArguments(span),
                          let first = arguments.first, first.hasPrefix("-") || first == "help" || flags[first] != nil
                    else { continue }
                    checked += 1
                    if let problem = Self.problem(arguments, flags: flags) {
                        XCTFail("\(page.name):\(line.number): \(problem): `\(span)`")
                    }
                }
            }
            var pending = ""
            var pendingLine = 0
            for line in lines(page.text) where line.fenced {
                if pending.isEmpty { pendingLine = line.number }
                if line.text.hasSuffix("\\") { pending += line.text.dropLast() + " "; continue }
                let whole = pending + line.text
                pending = ""
                guard let arguments = Self.tictactoeArguments(whole) else { continue }
                checked += 1
                if let problem = Self.problem(arguments, flags: flags) {
                    XCTFail("\(page.name):\(pendingLine): \(problem): \(whole.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertGreaterThan(checked, 10, "the docs' tictactoe lines are found")
    }

    func testTheCheckCatchesWhatItShould() throws {
        let flags = ["": ["--version", "-h", "--help", "--plain"], "play": ["--plain"], "host": ["--port", "--name", "-h"],
                     "privacy": ["--version"], "privacy status": ["--json"]]
            .mapValues { Set($0) }
        let cases: [(String, String?)] = [
            ("tictactoe host --port 7878 --name 'A b'  # a comment --nope", nil),
            ("$ tictactoe host --port=0 -h", nil),
            ("alice$ tictactoe host --colour", "'--colour' is not an option of tictactoe host"),
            ("TICTACTOE_CODE=1 tictactoe hots", "unknown command 'hots'"),
            ("tictactoe privacy status --json > out.json", nil),
            ("tictactoe privacy status --jsn", "'--jsn' is not an option of tictactoe privacy status"),
            ("tictactoe --plain", nil),
            ("tictactoe help host", nil),
            ("tictactoe host --name \"it's\" | head -n 2 --nope", nil),
            ("sudo Tests/lab/lan exec host-a -- tictactoe host --nme x", "'--nme' is not an option of tictactoe host"),
        ]
        for (line, expected) in cases {
            let arguments = try XCTUnwrap(Self.tictactoeArguments(line), line)
            XCTAssertEqual(Self.problem(arguments, flags: flags), expected, line)
        }
        XCTAssertNil(Self.tictactoeArguments("tictactoe: the code is 482 913"))
        XCTAssertNil(Self.tictactoeArguments("host-a  privacy: or run `tictactoe privacy grant`"))
        XCTAssertEqual(Self.words("a 'b c' \"d\\\"e\" f#g #h"), ["a", "b c", "d\"e", "f#g"])
        XCTAssertEqual(Self.tictactoeSpans("| `tictactoe host --json \\| head` and `tictactoe browse [--json]`, `make` |"),
                       ["tictactoe host --json | head", "tictactoe browse --json"])
        XCTAssertEqual(Self.optionFlags("OPTIONS:\n  --a/--no-a  x\n  -h, --help  y\n  --p <p>  z\n"),
                       ["--a", "--no-a", "-h", "--help", "--p"])
    }

    // MARK: - The README is for players

    /// The sentences of a page's prose: paragraphs, list items, table cells and headings, split after `.`, `!` or
    /// `?` and a space; code blocks left out.
    static func sentences(_ text: String) -> [String] {
        var units: [String] = []
        var paragraph = ""
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let isItem = trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ")
            if trimmed.hasPrefix("```") { fenced.toggle() }
            if fenced || trimmed.hasPrefix("```") || trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix("|") || isItem {
                units.append(paragraph)
                paragraph = ""
            }
            if fenced || trimmed.hasPrefix("```") || trimmed.isEmpty { continue }
            if trimmed.hasPrefix("|") {
                units += trimmed.split(separator: "|").map(String.init)
            } else if trimmed.hasPrefix("#") {
                units.append(trimmed)
            } else {
                paragraph += " " + (isItem ? String(trimmed.dropFirst(2)) : trimmed)
            }
        }
        units.append(paragraph)
        return units.flatMap { unit in
            unit.replacingOccurrences(of: ". ", with: ".\n").replacingOccurrences(of: "? ", with: "?\n")
                .replacingOccurrences(of: "! ", with: "!\n").split(separator: "\n")
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }.filter { $0.contains { $0.isLetter } }
    }

    func testTheReadmeIsShortWithShortSentences() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        XCTAssertLessThanOrEqual(lines, 250, "README.md is for players: every other topic has its page under docs/")
        let lengths = Self.sentences(readme).map { ($0, $0.split(separator: " ").count) }
        for (sentence, words) in lengths where words > 50 {
            XCTFail("README.md: a sentence of \(words) words (at most 50): \(sentence)")
        }
        let sorted = lengths.map(\.1).sorted()
        XCTAssertLessThan(sorted.isEmpty ? 0 : sorted[sorted.count / 2], 25, "README.md: the median sentence")
        XCTAssertEqual(Self.sentences("# A b\n\nOne two. Three\nfour?\n\n```\nno. code\n```\n- an item. two\n| a b | c |\n"),
                       ["# A b", "One two.", "Three four?", "an item.", "two", "a b", "c"])
    }

    // MARK: - Links

    /// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
    static func slug(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    private func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in lines(text) where !line.fenced && line.text.hasPrefix("#") {
            let heading = line.text.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let base = Self.slug(heading)
            let count = seen[base, default: 0]
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
            seen[base] = count + 1
        }
        return anchors
    }

    /// The targets of a line's links, `[text](target)` and `![alt](target)`, outside code spans.
    static func linkTargets(_ line: String) -> [String] {
        var targets: [String] = []
        var inCode = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "`" { inCode.toggle() }
            if !inCode, character == "]", line[line.index(after: index)...].hasPrefix("(") {
                let start = line.index(index, offsetBy: 2)
                if let end = line[start...].firstIndex(of: ")") {
                    let target = line[start..<end].split(separator: " ").first.map(String.init) ?? ""
                    targets.append(target.trimmingCharacters(in: CharacterSet(charactersIn: "<>")))
                    index = end
                }
            }
            index = line.index(after: index)
        }
        return targets
    }

    func testEveryRelativeLinkResolves() throws {
        var checked = 0
        for page in try pages() {
            let directory = Self.root.appendingPathComponent(page.name).deletingLastPathComponent()
            for line in lines(page.text) where !line.fenced {
                for target in Self.linkTargets(line.text) where !target.contains("://") && !target.hasPrefix("mailto:") {
                    checked += 1
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let path = String(parts[0])
                    let file = path.isEmpty ? Self.root.appendingPathComponent(page.name)
                        : directory.appendingPathComponent(path).standardizedFileURL
                    guard FileManager.default.fileExists(atPath: file.path) else {
                        XCTFail("\(page.name):\(line.number): the link '\(target)' names no file")
                        continue
                    }
                    guard parts.count == 2, file.pathExtension == "md" else { continue }
                    let text = try String(contentsOf: file, encoding: .utf8)
                    if !anchors(text).contains(String(parts[1])) {
                        XCTFail("\(page.name):\(line.number): the link '\(target)' names no heading of \(path.isEmpty ? page.name : path)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 5, "the docs' links are found")
    }

    func testLinksAndSlugsAreReadAsGitHubDoes() {
        XCTAssertEqual(Self.slug("The privacy report: `tictactoe privacy report`"), "the-privacy-report-tictactoe-privacy-report")
        XCTAssertEqual(Self.slug("Watching a game (`tictactoe watch`)"), "watching-a-game-tictactoe-watch")
        XCTAssertEqual(Self.linkTargets("see [a](docs/A.md#x) and ![b](<p.svg> \"t\"), not `[c](d)`"),
                       ["docs/A.md#x", "p.svg"])
    }
}

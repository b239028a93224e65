import EngineProtocol
import GameRules
import XCTest

final class EngineCommandTests: XCTestCase {
    func testLinesAsSent() {
        XCTAssertEqual(EngineCommand.protocolVersion.line(id: 1), "1 protocol_version")
        XCTAssertEqual(EngineCommand.name.line(id: 2), "2 name")
        XCTAssertEqual(EngineCommand.version.line(id: nil), "version")
        XCTAssertEqual(EngineCommand.isReady.line(id: 3), "3 isready")
        XCTAssertEqual(EngineCommand.newGame(engine: .o, first: .x).line(id: 4), "4 newgame o x")
        XCTAssertEqual(EngineCommand.position(moves: [4, 0, 8]).line(id: 5), "5 position 5 1 9")
        XCTAssertEqual(EngineCommand.position(moves: []).line(id: 5), "5 position")
        XCTAssertEqual(EngineCommand.genmove(.x, timeLeft: .milliseconds(4500)).line(id: 6), "6 genmove x 4.500")
        XCTAssertEqual(EngineCommand.genmove(.o, timeLeft: nil).line(id: 7), "7 genmove o -")
        XCTAssertEqual(EngineCommand.play(.o, cell: 2).line(id: 8), "8 play o 3")
        XCTAssertEqual(EngineCommand.quit.line(id: 9), "9 quit")
    }

    func testTimes() {
        XCTAssertEqual(EngineTime.format(.zero), "0.000")
        XCTAssertEqual(EngineTime.format(.seconds(12)), "12.000")
        XCTAssertEqual(EngineTime.format(.nanoseconds(1_999_999)), "0.001")  // truncated, never rounded up
        XCTAssertEqual(EngineTime.format(.milliseconds(-5)), "0.000")
        XCTAssertEqual(try EngineTime.parse("4.5").get(), .milliseconds(4500))
        XCTAssertEqual(try EngineTime.parse("-").get(), nil)
        XCTAssertEqual(try EngineTime.parse("3").get(), .seconds(3))
        for bad in ["", ".5", "4.", "x", "1.2.3", "-1"] {
            XCTAssertThrowsError(try EngineTime.parse(bad).get(), bad)
        }
    }

    func testCellsAndMarks() {
        XCTAssertEqual((0...8).map(EngineCell.format), ["1", "2", "3", "4", "5", "6", "7", "8", "9"])
        XCTAssertEqual(EngineCell.parse("1"), 0)
        XCTAssertEqual(EngineCell.parse(" 9 "), 8)
        for bad in ["0", "10", "a1", "", "５", "-1", "1 2"] {
            XCTAssertNil(EngineCell.parse(bad), bad)
        }
        XCTAssertEqual(EngineMark.parse("X"), .x)
        XCTAssertEqual(EngineMark.parse("o"), .o)
        XCTAssertNil(EngineMark.parse("z"))
    }
}

final class EngineResponseReaderTests: XCTestCase {
    private func read(_ lines: [String], id: Int?) throws -> EngineResponse? {
        var reader = EngineResponseReader()
        reader.expect(id: id)
        var result: EngineResponse?
        for line in lines {
            if let response = try reader.feed(line) {
                XCTAssertNil(result, "two responses")
                result = response
            }
        }
        return result
    }

    func testSuccessFailureAndIDs() throws {
        XCTAssertEqual(try read(["=3 5", ""], id: 3), EngineResponse(id: 3, isSuccess: true, text: "5"))
        XCTAssertEqual(try read(["=3", ""], id: 3), EngineResponse(id: 3, isSuccess: true, text: ""))
        XCTAssertEqual(
            try read(["?7 unknown command", ""], id: 7),
            EngineResponse(id: 7, isSuccess: false, text: "unknown command"))
        XCTAssertEqual(try read(["= ok", ""], id: nil), EngineResponse(id: nil, isSuccess: true, text: "ok"))
        // Carriage returns and trailing spaces go; empty lines before an answer are skipped.
        XCTAssertEqual(
            try read(["", "=1 perfect.py  \r", "\r"], id: 1),
            EngineResponse(id: 1, isSuccess: true, text: "perfect.py"))
        // Several lines.
        XCTAssertEqual(
            try read(["=2 first", "second", ""], id: 2), EngineResponse(id: 2, isSuccess: true, text: "first\nsecond"))
    }

    func testIncompleteUntilTheEmptyLine() throws {
        var reader = EngineResponseReader()
        reader.expect(id: 1)
        XCTAssertNil(try reader.feed("=1 5"))
        XCTAssertTrue(reader.isAwaiting)
        XCTAssertEqual(try reader.feed(""), EngineResponse(id: 1, isSuccess: true, text: "5"))
        XCTAssertFalse(reader.isAwaiting)
    }

    func testGarbageAndWrongIDs() {
        XCTAssertThrowsError(try read(["hello", ""], id: 1)) {
            XCTAssertEqual($0 as? EngineProtocolError, .garbage("hello"))
        }
        XCTAssertThrowsError(try read(["=2 5", ""], id: 1)) {
            XCTAssertEqual($0 as? EngineProtocolError, .wrongID(expected: 1, line: "=2 5"))
        }
        XCTAssertThrowsError(try read(["= 5", ""], id: 1)) {
            XCTAssertEqual($0 as? EngineProtocolError, .wrongID(expected: 1, line: "= 5"))
        }
        XCTAssertThrowsError(try read(["=1x", ""], id: 1)) {
            XCTAssertEqual($0 as? EngineProtocolError, .garbage("=1x"))
        }
        XCTAssertThrowsError(try read(["=99999999999999999999 5"], id: 1))
        // A line when no command waits.
        var idle = EngineResponseReader()
        XCTAssertNoThrow(try idle.feed(""))
        XCTAssertThrowsError(try idle.feed("=1 5")) { XCTAssertEqual($0 as? EngineProtocolError, .garbage("=1 5")) }
        // An answer that never ends.
        XCTAssertThrowsError(try read(["=1 a"] + Array(repeating: "more", count: 64), id: 1)) {
            XCTAssertEqual($0 as? EngineProtocolError, .responseTooLong)
        }
    }

    func testMovesAndProtocolVersion() throws {
        XCTAssertEqual(try EngineResponse(id: 1, isSuccess: true, text: "5").move(), 4)
        XCTAssertThrowsError(try EngineResponse(id: 1, isSuccess: true, text: "10").move()) {
            XCTAssertEqual($0 as? EngineProtocolError, .malformedMove("10"))
        }
        XCTAssertNoThrow(try EngineResponse(id: 1, isSuccess: true, text: "1").checkProtocolVersion())
        XCTAssertThrowsError(try EngineResponse(id: 1, isSuccess: true, text: "2").checkProtocolVersion())
    }

    func testDescriptionsAreOneQuotedLine() {
        XCTAssertEqual(
            EngineProtocolError.garbage("a\"b\u{1B}[2J").description, #"garbage on standard output: "a\"b\u{1b}[2J""#)
        XCTAssertFalse(EngineProtocolError.garbage(String(repeating: "x", count: 500)).description.contains("\n"))
        XCTAssertLessThan(EngineProtocolError.garbage(String(repeating: "x", count: 500)).description.count, 120)
    }
}

final class EngineLineBufferTests: XCTestCase {
    func testSplitsAcrossChunks() throws {
        var buffer = EngineLineBuffer()
        XCTAssertEqual(try buffer.append(Array("=1 5\n\n=2".utf8)), ["=1 5", ""])
        XCTAssertEqual(buffer.unfinished, 2)
        XCTAssertEqual(try buffer.append(Array(" 3\r\n".utf8)), ["=2 3"])
        XCTAssertEqual(try buffer.append(Array("\n".utf8)), [""])
    }

    func testLimits() {
        var buffer = EngineLineBuffer()
        XCTAssertThrowsError(try buffer.append(Array(repeating: UInt8(ascii: "a"), count: 5000))) {
            XCTAssertEqual($0 as? EngineProtocolError, .lineTooLong(4097))
        }
        var utf8 = EngineLineBuffer()
        XCTAssertThrowsError(try utf8.append([0xFF, 0x0A])) { XCTAssertEqual($0 as? EngineProtocolError, .notUTF8) }
    }
}

final class EngineCommandLineTests: XCTestCase {
    func testSplitsLikeAShell() throws {
        // Each expectation is what `sh -c 'for a in ARGS; do printf "[%s]" "$a"; done'` gives for the same words.
        XCTAssertEqual(try EngineCommandLine.split("python3 bot.py --level 2"), ["python3", "bot.py", "--level", "2"])
        XCTAssertEqual(try EngineCommandLine.split("  a\t b  "), ["a", "b"])
        XCTAssertEqual(try EngineCommandLine.split("'my bot' \"x y\""), ["my bot", "x y"])
        XCTAssertEqual(try EngineCommandLine.split("a'b'\"c\"d"), ["abcd"])
        XCTAssertEqual(try EngineCommandLine.split("'' x"), ["", "x"])
        XCTAssertEqual(try EngineCommandLine.split(#"a\ b c\\d"#), ["a b", #"c\d"#])
        XCTAssertEqual(try EngineCommandLine.split(#""a\"b\\c\d\$""#), [#"a"b\c\d$"#])
        XCTAssertEqual(try EngineCommandLine.split(#"'a\b'"#), [#"a\b"#])
        XCTAssertEqual(try EngineCommandLine.split("a \\\nb"), ["a", "b"])
        XCTAssertEqual(try EngineCommandLine.split("'a|b' \"c;d\" e\\>f"), ["a|b", "c;d", "e>f"])
        XCTAssertEqual(try EngineCommandLine.split("bot *.txt ~/x"), ["bot", "*.txt", "~/x"])  // nothing is expanded
    }

    func testErrors() {
        XCTAssertThrowsError(try EngineCommandLine.split("")) {
            XCTAssertEqual($0 as? EngineCommandLine.ParseError, .empty)
        }
        XCTAssertThrowsError(try EngineCommandLine.split("  ")) {
            XCTAssertEqual($0 as? EngineCommandLine.ParseError, .empty)
        }
        XCTAssertThrowsError(try EngineCommandLine.split("a 'b")) {
            XCTAssertEqual($0 as? EngineCommandLine.ParseError, .unterminatedQuote("'"))
        }
        XCTAssertThrowsError(try EngineCommandLine.split("a \"b")) {
            XCTAssertEqual($0 as? EngineCommandLine.ParseError, .unterminatedQuote("\""))
        }
        XCTAssertThrowsError(try EngineCommandLine.split("a\\")) {
            XCTAssertEqual($0 as? EngineCommandLine.ParseError, .trailingBackslash)
        }
        XCTAssertThrowsError(try EngineCommandLine.split("bot > log")) {
            XCTAssertEqual($0 as? EngineCommandLine.ParseError, .shellOperator(">"))
        }
        XCTAssertThrowsError(try EngineCommandLine.split("$HOME/bot")) {
            XCTAssertEqual($0 as? EngineCommandLine.ParseError, .shellOperator("$"))
        }
        XCTAssertTrue("\(EngineCommandLine.ParseError.shellOperator("|"))".contains("no shell"))
    }
}

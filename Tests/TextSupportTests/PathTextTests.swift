import Localization
import XCTest
import TextSupport

/// `PathText` as swift-system's `FilePath` did it (these cases passed on `FilePath` before `PathText` worked on the
/// text itself, for the first frame's sake).
final class PathTextTests: XCTestCase {
    func testJoin() {
        let cases: [(String, String, String)] = [
            ("/a/b", "c", "/a/b/c"),
            ("/a/b/", "c", "/a/b/c"),
            ("/a//b", "c//d/", "/a/b/c/d"),
            ("a", "../share/tictactoe/Info.plist", "a/../share/tictactoe/Info.plist"),
            ("/a", "/abs/path", "/abs/path"),
            ("", "c", "c"),
            ("/a", "", "/a"),
            ("/", "c", "/c"),
            ("", "", ""),
        ]
        for (directory, component, expected) in cases {
            XCTAssertEqual(PathText.join(directory, component), expected, "join(\(directory), \(component))")
        }
    }

    func testDirectory() {
        let cases: [(String, String)] = [
            ("/a/b", "/a"),
            ("/a/b/", "/a"),
            ("/a//b", "/a"),
            ("/a", "/"),
            ("/", "/"),
            ("name", ""),
            ("a/b", "a"),
            ("../x", ".."),
            ("", ""),
            ("//a", "/"),
        ]
        for (path, expected) in cases {
            XCTAssertEqual(PathText.directory(of: path), expected, "directory(of: \(path))")
        }
    }

    func testNormalized() {
        let cases: [(String, String)] = [
            ("/a/b/../c", "/a/c"),
            ("/a/./b/", "/a/b"),
            ("/..", "/"),
            ("/../a", "/a"),
            ("a/..", ""),
            ("a/../..", ".."),
            ("../../a", "../../a"),
            ("./a", "a"),
            ("/opt/bin/../share/tictactoe/Info.plist", "/opt/share/tictactoe/Info.plist"),
            ("a//b///c", "a/b/c"),
            ("/", "/"),
            ("", ""),
            (".", ""),
            ("a/\u{301}b/../c", "a/c"),  // a slash then a combining mark: split at the slash, as FilePath does
        ]
        for (path, expected) in cases {
            XCTAssertEqual(PathText.normalized(path), expected, "normalized(\(path))")
        }
    }
}

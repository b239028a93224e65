import AppProcess
import Foundation
import GameClient
import LocalNetworkPrivacy
import TicTacToeTestSupport
import XCTest

@testable import AppFiles
import AppManifest

/// `settings.json`: versioned, tolerant, written atomically under its own lock, read bounded.
final class SettingsFileTests: XCTestCase {
    private let sample = StoredSettings(
        name: "Zoë", difficulty: "easy", starter: "computer", port: 7990, lastAddress: "[fe80::1%eth0]:7878",
        addressHistory: ["[fe80::1%eth0]:7878", "192.0.2.10:7990", "localhost"], colors: false, keyHints: false)

    func testTheNewFieldsAreWrittenAndReadBack() throws {
        let file = SettingsFile(directory: try makeTemporaryDirectory(self))
        try file.save(sample)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file.path))) as? [String: Any])
        XCTAssertEqual(object["address_history"] as? [String], ["[fe80::1%eth0]:7878", "192.0.2.10:7990", "localhost"])
        XCTAssertEqual(object["colors"] as? Bool, false)
        XCTAssertEqual(object["key_hints"] as? Bool, false)
        XCTAssertEqual(object["last_address"] as? String, "[fe80::1%eth0]:7878", "for older versions")
        XCTAssertEqual(file.load().settings, sample)
    }

    func testTheLastEngineCommandIsWrittenAndReadBack() throws {
        let file = SettingsFile(directory: try makeTemporaryDirectory(self))
        var settings = sample
        settings.engine = "python3 'my bot.py' --level 2"
        try file.save(settings)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file.path))) as? [String: Any])
        XCTAssertEqual(object["engine"] as? String, "python3 'my bot.py' --level 2")
        XCTAssertEqual(file.load().settings, settings)
    }

    func testAnOlderFileWithoutTheNewFieldsLoads() throws {
        let file = SettingsFile(directory: try makeTemporaryDirectory(self))
        // What the first version with settings.json wrote: no history, colours or key hints.
        let text = #"{"difficulty":"easy","last_address":"10.0.0.2:7878","name":"Zoë","port":7990,"#
            + #""version":1,"who_starts":"computer"}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: file.path))
        let loaded = file.load()
        XCTAssertNil(loaded.warning)
        XCTAssertEqual(
            loaded.settings,
            StoredSettings(name: "Zoë", difficulty: "easy", starter: "computer", port: 7990, lastAddress: "10.0.0.2:7878"))
        // A history with entries of the wrong type keeps its strings.
        try Data(#"{"version":1,"address_history":["a:1",3,null,"b:2"],"colors":true}"#.utf8)
            .write(to: URL(fileURLWithPath: file.path))
        XCTAssertEqual(file.load().settings, StoredSettings(addressHistory: ["a:1", "b:2"], colors: true))
    }

    func testARoundTripInTheConfigDirectoryLeavesNoTemporaryFiles() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = SettingsFile(directory: directory)
        XCTAssertEqual(file.path, directory + "/settings.json")
        XCTAssertEqual(file.load().settings, StoredSettings(), "no file: nothing stored")
        XCTAssertNil(file.load().warning, "no file is no problem")
        try file.save(sample)
        try file.save(sample)
        let loaded = file.load()
        XCTAssertEqual(loaded.settings, sample)
        XCTAssertNil(loaded.warning)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted(), ["settings.json", "settings.lock"],
            "only the file and its lock")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file.path))) as? [String: Any])
        XCTAssertEqual(object["version"] as? Int, 1)
        XCTAssertEqual(object["who_starts"] as? String, "computer")
    }

    func testTheDirectoryIsCreatedPrivate() throws {
        let directory = try makeTemporaryDirectory(self) + "/nested/tictactoe"
        try SettingsFile(directory: directory).save(sample)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    private func load(_ text: String) throws -> (settings: StoredSettings, warning: String?) {
        let file = SettingsFile(directory: try makeTemporaryDirectory(self))
        try Data(text.utf8).write(to: URL(fileURLWithPath: file.path))
        return file.load()
    }

    func testACorruptFileGivesTheDefaultsWithAWarning() throws {
        for text in ["{\"name\": \"half", "[1, 2]", "", "\u{FF}\u{FE}"] {
            let loaded = try load(text)
            XCTAssertEqual(loaded.settings, StoredSettings(), text)
            XCTAssertTrue(loaded.warning?.contains("not a JSON object (corrupt): using the defaults.") == true,
                          "\(text): \(loaded.warning ?? "no warning")")
        }
    }

    func testAnUnknownFormatVersionGivesTheDefaultsWithAWarning() throws {
        for version in ["2", "\"1\"", "true", "null", "1.5"] {
            let loaded = try load("{\"version\": \(version), \"name\": \"Zoe\"}")
            XCTAssertEqual(loaded.settings, StoredSettings(), version)
            XCTAssertTrue(loaded.warning?.contains("of an unknown format version") == true, loaded.warning ?? version)
        }
        XCTAssertEqual(try load("{\"name\": \"Zoe\"}").settings.name, "Zoe", "no version: read as version 1")
    }

    /// The file as it is written: one line, keys sorted, `/` as it is (the one encoder, `JSONLine`).
    func testTheFileIsOneLineWithItsKeysSorted() throws {
        let file = SettingsFile(directory: try makeTemporaryDirectory(self))
        try file.save(StoredSettings(name: "Zoë", difficulty: "easy", lastAddress: "a/b:1", colors: true))
        XCTAssertEqual(
            try String(contentsOfFile: file.path, encoding: .utf8),
            #"{"colors":true,"difficulty":"easy","last_address":"a/b:1","name":"Zoë","version":1}"# + "\n")
    }

    /// A value JSON cannot hold is an encoding error, which fails the save (its caller says so): never an empty file.
    func testAValueJSONCannotHoldFailsTheSave() throws {
        XCTAssertThrowsError(try SettingsFile.encode(sample, over: ["kept": .real(.nan)]))
        XCTAssertEqual(
            String(decoding: try SettingsFile.encode(StoredSettings(name: "a"), over: ["kept": .integer(3)]), as: UTF8.self),
            #"{"kept":3,"name":"a","version":1}"# + "\n")
    }

    func testAnOversizedFileIsRefusedBeforeReading() throws {
        let padding = String(repeating: " ", count: 64 * 1024)
        let loaded = try load("{\"version\": 1, \"name\": \"Zoe\"}" + padding)
        XCTAssertEqual(loaded.settings, StoredSettings())
        XCTAssertTrue(loaded.warning?.contains("larger than 64 KiB: using the defaults.") == true, loaded.warning ?? "")
    }

    func testAFIFOIsRefusedWithoutBlocking() throws {
        let file = SettingsFile(directory: try makeTemporaryDirectory(self))
        XCTAssertEqual(mkfifo(file.path, 0o600), 0)
        let loaded = file.load()
        XCTAssertEqual(loaded.settings, StoredSettings())
        XCTAssertTrue(loaded.warning?.contains("not a regular file") == true, loaded.warning ?? "")
    }

    func testFieldsNotUnderstoodKeepTheirDefaultsAndUnknownKeysAreKept() throws {
        let file = SettingsFile(directory: try makeTemporaryDirectory(self))
        let text = #"{"version": 1, "name": 7, "difficulty": "easy", "port": "x", "colours": {"x": "red"}, "#
            + #""key_hints": 0, "colors": "no", "address_history": "10.0.0.2", "sound": false}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: file.path))
        let loaded = file.load()
        XCTAssertNil(loaded.warning)
        XCTAssertEqual(loaded.settings, StoredSettings(difficulty: "easy"))
        try file.save(sample)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file.path))) as? [String: Any])
        XCTAssertEqual(object["colours"] as? [String: String], ["x": "red"], "a newer tictactoe's keys survive")
        XCTAssertEqual(object["sound"] as? Bool, false)
        XCTAssertEqual(object["name"] as? String, "Zoë")
        XCTAssertEqual(file.load().settings, sample)
    }

    func testACorruptFileIsReplacedAtTheNextSave() throws {
        let file = SettingsFile(directory: try makeTemporaryDirectory(self))
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: file.path))
        try file.save(sample)
        XCTAssertEqual(file.load().settings, sample)
        XCTAssertNil(file.load().warning)
    }

    func testConcurrentWritersLeaveAValidFile() throws {
        let directory = try makeTemporaryDirectory(self)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let file = SettingsFile(directory: directory)
            for round in 0..<5 {
                try? file.save(StoredSettings(name: "writer \(index)", port: 1000 + round))
            }
        }
        let loaded = SettingsFile(directory: directory).load()
        XCTAssertNil(loaded.warning)
        XCTAssertTrue(loaded.settings.name?.hasPrefix("writer ") == true)
        XCTAssertEqual(loaded.settings.port, 1004, "each writer's last save is its fifth")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted(), ["settings.json", "settings.lock"])
    }

    func testAFailedSaveIsAWarningNotACrash() throws {
        let blocker = try makeTemporaryDirectory(self) + "/file"
        try Data().write(to: URL(fileURLWithPath: blocker))
        let client = SettingsFile(directory: blocker).client()
        let warning = try XCTUnwrap(client.save(sample))
        XCTAssertTrue(warning.hasPrefix("Cannot save the settings (\(blocker): it exists and is not a directory)"),
                      warning)
    }

    /// `privacy grant` and `privacy reset` write and remove the decision beside the settings, and leave them alone.
    func testTheLocalNetworkDecisionInTheSameDirectoryLeavesTheSettingsAlone() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = SettingsFile(directory: directory)
        try file.save(sample)
        let saved = try Data(contentsOf: URL(fileURLWithPath: file.path))
        let store = DecisionStore(directory: directory)
        try store.write(.allowed, source: "tictactoe privacy grant")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.path)), saved, "the grant touched settings.json")
        try store.reset()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: file.path)), saved, "the reset touched settings.json")
        XCTAssertEqual(file.load().settings, sample)
    }

    func testEveryFileFollowsTheSameHomeAndXDGVariables() {
        let onlyHome = ["HOME": "/home/new"]
        XCTAssertEqual(SettingsFile(directory: AppDirectories.config(environment: onlyHome)).path,
                       "/home/new/.config/tictactoe/settings.json")
        XCTAssertEqual(DecisionStore(environment: onlyHome).decisionPath, "/home/new/.config/tictactoe/local-network.json")
        XCTAssertEqual(FileLogHandler.path(environment: onlyHome), "/home/new/.local/state/tictactoe/tictactoe.log")
        let xdg = ["HOME": "/home/new", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/state"]
        XCTAssertEqual(AppDirectories.config(environment: xdg), "/cfg/tictactoe")
        XCTAssertEqual(FileLogHandler.path(environment: xdg), "/state/tictactoe/tictactoe.log")
        let relative = ["HOME": "/home/new", "XDG_CONFIG_HOME": "cfg", "XDG_STATE_HOME": "state"]
        XCTAssertEqual(AppDirectories.config(environment: relative), "/home/new/.config/tictactoe", "relative: ignored")
        XCTAssertEqual(FileLogHandler.path(environment: relative), "/home/new/.local/state/tictactoe/tictactoe.log")
        XCTAssertEqual(AppDirectories.config(environment: ["TICTACTOE_CONFIG_DIR": "/t", "HOME": "/h"]), "/t")
    }
}

import GameTransport
import NIOCore
import XCTest

/// The shared group's number of loops is settled once, at its first use (`EventLoops`): asking for a loop per core
/// afterwards is refused, not fatal (SwiftNIO's own setter traps when called after the group started).
final class EventLoopsTests: XCTestCase {
    func testALoopPerCoreAskedForOnceTheGroupIsInUseIsRefused() {
        let group = EventLoops.group
        XCTAssertFalse(EventLoops.usePerCore(), "the group was in use: its number of loops cannot change")
        XCTAssertTrue(EventLoops.group === group, "the group is the shared one, whoever asks")
        XCTAssertNoThrow(try group.next().submit { 1 }.wait())
    }
}

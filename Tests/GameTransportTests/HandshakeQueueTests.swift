@testable import GameTransport
import XCTest

/// The listener's bookkeeping of connections waiting for their hello.
final class HandshakeQueueTests: XCTestCase {
    func testTheOldestIsEvictedWhenFullAndFinishedOnesLeave() {
        var queue = HandshakeQueue<String>(capacity: 2)
        let a = queue.admit("a")
        let b = queue.admit("b")
        XCTAssertNil(a.evicted)
        XCTAssertNil(b.evicted)
        let c = queue.admit("c")
        XCTAssertEqual(c.evicted, "a", "over the cap, the oldest goes")
        XCTAssertEqual(queue.count, 2)
        XCTAssertFalse(queue.contains(a.ticket))
        XCTAssertTrue(queue.contains(b.ticket))

        queue.finish(b.ticket)  // its hello came
        XCTAssertEqual(queue.count, 1)
        queue.finish(a.ticket)  // evicted already: nothing happens
        XCTAssertEqual(queue.count, 1)
        XCTAssertTrue(queue.contains(c.ticket))

        XCTAssertNil(queue.admit("d").evicted)
        XCTAssertEqual(queue.removeAll(), ["c", "d"])
        XCTAssertEqual(queue.count, 0)
    }

    func testTicketsAreNeverReused() {
        var queue = HandshakeQueue<Int>(capacity: 1)
        var tickets: Set<Int> = []
        for member in 0..<100 {
            let (ticket, evicted) = queue.admit(member)
            XCTAssertTrue(tickets.insert(ticket).inserted)
            XCTAssertEqual(evicted, member == 0 ? nil : member - 1)
        }
    }
}

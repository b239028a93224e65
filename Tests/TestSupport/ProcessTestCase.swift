import XCTest

/// A test case that stops every process it started when each test ends (by pid: `terminate()`), whatever the test's
/// outcome. `track` registers a process and returns it.
open class ProcessTestCase: XCTestCase {
    public var processes: [ChildProcess] = []

    override open func tearDown() {
        for process in processes.reversed() { process.terminate() }
        processes = []
        super.tearDown()
    }

    @discardableResult
    public func track(_ process: ChildProcess) -> ChildProcess {
        processes.append(process)
        return process
    }
}

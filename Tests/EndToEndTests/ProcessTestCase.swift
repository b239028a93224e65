import XCTest

/// A test case that stops every `tictactoe` process it started when each test ends (by pid: `terminate()`), whatever
/// the test's outcome. `track` registers a process and returns it.
class ProcessTestCase: XCTestCase {
    var processes: [TicTacToeProcess] = []

    override func tearDown() {
        for process in processes { process.terminate() }
        processes = []
        super.tearDown()
    }

    @discardableResult
    func track(_ process: TicTacToeProcess) -> TicTacToeProcess {
        processes.append(process)
        return process
    }
}

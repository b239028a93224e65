import Foundation
import TicTacToeTestSupport
import XCTest

// Helpers for the privacy tests. Everything happens in fresh temporary directories; the only network traffic is on
// loopback. Waits poll with generous limits (15 s) so a loaded 2-core machine cannot make them flake; no test asserts
// a speed.

/// The number of inotify descriptors this process has open.
func openInotifyDescriptors() -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return entries.filter { entry in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"))?.contains("inotify")
            == true
    }.count
}


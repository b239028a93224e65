@testable import AppCore
import Bonjour
import Foundation
import GameClient
import JSONLines
import Synchronization
import TicTacToeTestSupport
import XCTest

import AppManifest
@testable import LocalNetworkPrivacy

/// A service-type browser for tests: no daemon, the test says what the network announces.
final class FakeServiceTypeBrowser: ServiceTypeBrowsing {
    private let feed = EventFeed<ServiceTypeEvent>()
    private let started = Mutex(0)

    var starts: Int { started.withLock { $0 } }
    var stops: Int { feed.finishes }
    var subscribers: Int { feed.subscribers }

    func start() { started.withLock { $0 += 1 } }
    func stop() { feed.finish() }
    func events() -> AsyncStream<ServiceTypeEvent> { feed.stream() }
    func send(_ event: ServiceTypeEvent) { feed.send(event) }
}

/// `browse --all-types` and the TUI's "All services on this network" in the app core: the gate's
/// `browseServiceTypes` (the multicast entitlement first), then the types the browser lists within the time.
final class ServiceTypesCoordinatorTests: XCTestCase {

    func testTheTypesListedWhenTimeIsUpAreReportedSortedAfterTheirCount() async throws {
        let browser = FakeServiceTypeBrowser()
        let clock = ManualClock()
        let reports = Recorder<MatchReport>()
        let task = Task {
            await browseServiceTypes(browser, duration: .seconds(3), clock: clock,
                                     reporter: ClosureReporter { reports.append($0) })
        }
        await clock.waitForSleepers(1)
        await assertEventually("the browser started") { browser.starts == 1 }
        browser.send(.available)
        browser.send(.updated([ServiceType(name: "_ssh._tcp")]))
        browser.send(.updated([ServiceType(name: "_ssh._tcp"), ServiceType(name: "_http._tcp"),
                               ServiceType(name: "_ipp._tcp")]))
        await clock.advance(by: .seconds(3))
        let status = await task.value
        XCTAssertEqual(status, .success)
        XCTAssertEqual(try reports.all.map { try JSONEvent.line($0) }, [
            #"{"count":3,"event":"service-types"}"#,
            #"{"domain":"local.","event":"service-type","type":"_http._tcp"}"#,
            #"{"domain":"local.","event":"service-type","type":"_ipp._tcp"}"#,
            #"{"domain":"local.","event":"service-type","type":"_ssh._tcp"}"#,
        ])
        XCTAssertEqual(reports.all.compactMap { report -> String? in
            guard case .discovery(let discovery) = report else { return nil }
            return discovery.textLine?.0
        }, ["3 service types on the local network:", "_http._tcp", "_ipp._tcp", "_ssh._tcp"])
    }

    func testNothingListedSaysSoAndADaemonThatIsNotThereEndsWithExit10() async throws {
        let quiet = FakeServiceTypeBrowser()
        let clock = ManualClock()
        let reports = Recorder<MatchReport>()
        let task = Task {
            await browseServiceTypes(quiet, duration: .seconds(3), clock: clock,
                                     reporter: ClosureReporter { reports.append($0) })
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(3))
        let quietStatus = await task.value
        XCTAssertEqual(quietStatus, .success)
        XCTAssertEqual(try reports.all.map { try JSONEvent.line($0) }, [#"{"count":0,"event":"service-types"}"#])
        XCTAssertEqual(DiscoveryReport.serviceTypeCount(0).textLine?.0, "No service types found on the local network.")
        XCTAssertEqual(DiscoveryReport.serviceTypeCount(1).textLine?.0, "1 service type on the local network:")

        let gone = FakeServiceTypeBrowser()
        gone.send(.unavailable(.unavailable))
        let failures = Recorder<MatchReport>()
        let status = await browseServiceTypes(gone, duration: .seconds(3), clock: ManualClock(),
                                              reporter: ClosureReporter { failures.append($0) })
        XCTAssertEqual(status, .bonjourUnavailable)
        guard case .error(_, .bonjourUnavailable)? = failures.all.last else { return XCTFail("\(failures.all)") }
        XCTAssertGreaterThan(gone.stops, 0)
    }

    func testWithoutTheEntitlementItEndsAtOnceWithExit15AndAsksNothing() async throws {
        let gate = try makeGate(.notDetermined, entitlements: nil)
        let prompts = Recorder<LocalNetworkOperation>()
        gate.setPromptHandler { prompts.append($0.operation) }
        let reports = Recorder<MatchReport>()
        let status = await browseServiceTypes(
            ServiceTypesRequest(duration: .seconds(3), origin: .browseAllTypesCommand), gate: gate,
            clock: ManualClock(), reporter: ClosureReporter { reports.append($0) })
        XCTAssertEqual(status, .entitlementMissing)
        XCTAssertEqual(status.rawValue, 15)
        XCTAssertEqual(prompts.all, [])
        guard case .error(let message, .entitlementMissing)? = reports.all.last else {
            return XCTFail("\(reports.all)")
        }
        XCTAssertTrue(message.contains("com.apple.developer.networking.multicast"), message)
    }

    /// The TUI's listing, started on `gate` with a fake browser: the browser, what the screen is told, the task.
    private func watchingServiceTypes(
        _ gate: LocalNetworkGate
    ) -> (FakeServiceTypeBrowser, Recorder<ServiceTypesUpdate>, Task<Bool, Never>) {
        let browser = FakeServiceTypeBrowser()
        let updates = Recorder<ServiceTypesUpdate>()
        let task = Task {
            await watchServiceTypes(
                gate: gate, origin: .serviceTypesScreen, clock: ManualClock(), makeBrowser: { _ in browser }
            ) {
                updates.append($0)
            }
        }
        return (browser, updates, task)
    }

    func testTheScreensListingWaitsForPermissionThenListsAndFailsWithoutTheEntitlement() async throws {
        let gate = try makeGate(.denied, entitlements: [AppEntitlements.multicastKey: true])
        let (browser, updates, task) = watchingServiceTypes(gate)
        await assertEventually("waiting") { updates.all.contains { if case .waiting = $0 { true } else { false } } }
        XCTAssertEqual(browser.starts, 0, "nothing is asked of the network while denied")
        try gate.store.write(.allowed)
        await assertEventually("listing once allowed") { browser.starts == 1 && browser.subscribers == 1 }
        browser.send(.updated([ServiceType(name: "_http._tcp"), ServiceType(name: "_ssh._tcp")]))
        await assertEventually("the types") { updates.all.last == .types(["_http._tcp", "_ssh._tcp"]) }
        task.cancel()
        let listed = await task.value
        XCTAssertTrue(listed)

        let unentitled = try makeGate(.allowed, entitlements: nil)
        let failures = Recorder<ServiceTypesUpdate>()
        let ok = await watchServiceTypes(gate: unentitled, origin: .serviceTypesScreen, clock: ManualClock(),
                                         makeBrowser: { _ in XCTFail("no browser without the entitlement"); return browser }) {
            failures.append($0)
        }
        XCTAssertFalse(ok)
        XCTAssertEqual(failures.all, [
            .failed("Cannot use the local network: the app is not entitled to com.apple.developer.networking.multicast"),
        ])
    }

    /// Access turned off while listing stops the browser at once and waits, saying why; turned on again, a new
    /// listing starts; leaving the screen (cancelling) stops it too.
    func testTurningAccessOffStopsTheListingAndOnAgainStartsANewOne() async throws {
        let gate = try makeGate(.allowed, entitlements: [AppEntitlements.multicastKey: true])
        let (browser, updates, task) = watchingServiceTypes(gate)
        await assertEventually("listing") { browser.starts == 1 && browser.subscribers == 1 }
        XCTAssertEqual(browser.stops, 0)
        try gate.store.write(.denied)
        await assertEventually("stopped and waiting") {
            browser.stops == 1 && updates.all.contains { if case .waiting = $0 { true } else { false } }
        }
        XCTAssertEqual(browser.starts, 1, "nothing is asked of the network while denied")
        try gate.store.write(.allowed)
        await assertEventually("listing again") { browser.starts == 2 && browser.subscribers == 1 }
        task.cancel()
        let listed = await task.value
        XCTAssertTrue(listed)
        XCTAssertEqual(browser.stops, 2, "leaving stops the listing")
    }
}

// The app core: the host, join, browse, lobby and service-type coordinators both front ends drive, and
// `GameClient.live`, which wires them to the adapters (the gate, Bonjour, the transport, the lobby's group).
//
// One rule for time and one for shared state. Time is a `Duration` in every API of the core (no Double seconds;
// NIO's `TimeAmount` only at a call into NIO). Everything that waits or times takes the one `any Clock<Duration>`
// handed down from the root (`MatchOptions.clock`, `GameClient.live`'s `clock`: the executable's `ContinuousClock`, a
// test's `ManualClock`; the core has no default clock to fall back on), so a test runs the code production runs; an
// elapsed time is read on that clock (`clock.stopwatch()`), never from `ContinuousClock.now`, `NIODeadline.now` or
// `DispatchTime`. A match's state lives on its connection's event loop (`NIOLoopBound`), other shared state behind a
// `Mutex`; async work is awaited, never waited for with a semaphore.
// Signals and shutdown are in one place, AppProcess: `SignalCatcher` is the one way a signal is caught, and
// `Shutdown` turns a signal or a failing output into the one `StopSignal` every running match hears, and ends the
// process with the stop's exit code (the full-screen game hands its signals to its own loop instead).

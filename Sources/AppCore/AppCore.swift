// The app core: the host, join, browse, lobby and service-type coordinators both front ends drive, and
// `GameClient.live`, which wires them to the adapters (the gate, Bonjour, the transport, the lobby's group).
//
// One rule for time and one for shared state. Time is a `Duration` in every API of the core (no Double seconds;
// NIO's `TimeAmount` only at a call into NIO). Everything that waits or times takes the one `any Clock<Duration>`
// handed down from the root (`MatchOptions.clock`, `GameClient.live`'s `clock`: the executable's `ContinuousClock`, a
// test's `ManualClock`; the core has no default clock to fall back on), so a test runs the code production runs; an
// elapsed time is read on that clock (`clock.stopwatch()`), never from `ContinuousClock.now` or `DispatchTime`. Only
// the adapters keep a time base of their own, each the one of the thing it wraps: a connection's liveness and round
// trip are NIO's (`NIODeadline`, the base of its scheduled heartbeat), the dns_sd thread's timers are its poll's
// timeouts, and standard output's gathering window and the JSON lines' `_mono_ns` stamps are the process's monotonic
// clock (`DispatchTime`).
// A match's state lives on its connection's event loop (`NIOLoopBound`), other shared state behind a `Mutex` (an
// engine's conversation, which holds its state across awaits, is an actor; standard output's flag read at exit is an
// `Atomic`: no lock while the process ends). Async work is awaited: the one thread that blocks on it is the
// executable's main thread, which is no thread of Swift's pool (`blockingWait`, also for the synchronous line game's
// engine); the dns_sd adapter's `sync` waits for its own thread, never for a task.
// Signals and shutdown are in one place, AppProcess: `SignalCatcher` is the one way a signal is caught, and
// `Shutdown` turns a signal or a failing output into the one `StopSignal` every running match hears, and ends the
// process with the stop's exit code (the full-screen game hands its signals to its own loop instead).

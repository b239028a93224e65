import NIOCore

/// Runs a task's jobs on one NIO event loop: the task executor a match prefers (`PeerLink.executor`), so that the
/// match's setup (`PeerLink.divert`, reading the frames that came behind the handshake) and its other inputs' tasks
/// (stop requests, a UI's commands) run on the thread that reads and writes its connection. The frames themselves
/// reach the match with no task at all: `GameFrameHandler` hands them to it inside the pipeline.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

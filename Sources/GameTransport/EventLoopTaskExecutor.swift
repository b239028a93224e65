import NIOCore

/// Runs a task's jobs on one NIO event loop: the task executor a match prefers (`PeerLink.executor`), so that the
/// match's code runs on the thread that reads and writes its connection.
///
/// Each message of a match used to cross threads twice or more: from the event loop to the task reading the inbound
/// stream, from there to the match loop, and back to the event loop for every frame written. With the match's tasks
/// on the connection's own event loop, a frame read resumes the match in the same thread (an event-loop task, no
/// wake-up), and a frame written goes straight into the pipeline.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

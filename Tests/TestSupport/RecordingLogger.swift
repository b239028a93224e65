import Logging

/// A swift-log handler that keeps the messages as "level: message", to check what is logged.
public struct RecordingLogHandler: LogHandler {
    public let lines: Recorder<String>
    public var logLevel: Logger.Level = .trace
    public var metadata: Logger.Metadata = [:]

    public init(lines: Recorder<String>) { self.lines = lines }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        lines.append("\(event.level): \(event.message)")
    }
}

/// A logger whose lines end up in `lines`.
public func recordingLogger(_ lines: Recorder<String>) -> Logger {
    Logger(label: "tictactoe.privacy") { _ in RecordingLogHandler(lines: lines) }
}

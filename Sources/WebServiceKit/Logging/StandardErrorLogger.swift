import Foundation

/// The default logger: writes each message's text to the standard error stream, followed by a
/// line break.
///
/// Messages of concurrent calls are written whole, one after the other, never mixed line by line.
public struct StandardErrorLogger: WebServiceLogger {
    /// One writer at a time, so that the lines of two messages never interleave.
    private static let output = Locked(())

    /// Creates the logger.
    public init() {}

    public func log(_ message: LogMessage) {
        let data = Data((message.text + "\n").utf8)
        Self.output.withLock { _ in FileHandle.standardError.write(data) }
    }
}

/// A logger that drops every message.
///
/// `client.logLevel = .none` (the default) already logs nothing without building any message;
/// this logger is for turning output off while leaving levels as they are.
public struct DisabledLogger: WebServiceLogger {
    /// Creates the logger.
    public init() {}

    public func log(_ message: LogMessage) {}
}

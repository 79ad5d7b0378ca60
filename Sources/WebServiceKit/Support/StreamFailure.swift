import Foundation

extension InputStream {
    /// The stream's error, asked for only when its status says there is one: Foundation on Linux
    /// traps in `streamError` on a stream that has none (a plain `InputStream(data:)`, say).
    var reportedError: (any Error)? { streamStatus == .error ? streamError : nil }
}

/// A progress handler argument: the fraction done and the expected length in bytes
/// (`-1` while unknown). The descriptor's `progressParameter` names the argument that holds it.
///
/// It follows one direction: the upload for calls that send a body, the download otherwise.
/// See ``TransferProgressHandler`` for a handler that sees both, with byte counts.
public typealias ProgressHandler = @Sendable (_ fraction: Double, _ expectedLength: Int64) -> Void

/// A progress handler that sees every transfer of a call, with its direction and byte counts.
///
/// Pass it as the `progressParameter` argument, or as the `progress:` parameter of
/// ``WebServiceClient/perform(_:_:prepare:progress:completion:)`` and the other `perform` forms.
public typealias TransferProgressHandler = @Sendable (TransferProgress) -> Void

/// Which way the bytes of a ``TransferProgress`` go.
public enum TransferDirection: String, Sendable, Hashable, CaseIterable {
    /// The request body, going out.
    case upload
    /// The response body, coming in.
    case download
}

/// How far one direction of a call's transfer has come.
///
/// ```swift
/// let progress: TransferProgressHandler = { progress in
///     print(progress.direction, progress.completedBytes, progress.expectedBytes ?? -1, progress.fraction)
/// }
/// let file = try await client.perform(.download, arguments: [destination], progress: progress)
/// ```
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Whether the bytes go out (the request body) or come in (the response body).
    public var direction: TransferDirection
    /// The bytes sent or received so far, in this direction.
    public var completedBytes: Int64
    /// The bytes expected in this direction (`Content-Length`), or `nil` while unknown (a chunked
    /// body, or the call's start).
    public var expectedBytes: Int64?
    /// `completedBytes / expectedBytes`, below 1 until the call has succeeded; 0 while the
    /// expected length is unknown. Exactly one event of a successful call has the fraction 1.
    public var fraction: Double

    /// Creates a progress value.
    public init(direction: TransferDirection, completedBytes: Int64, expectedBytes: Int64?, fraction: Double) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
        self.fraction = fraction
    }

    /// Whether this is the one event that says the call succeeded.
    public var isFinished: Bool { fraction >= 1 }

    public var description: String {
        let expected = expectedBytes.map(String.init) ?? "?"
        return "\(direction) \(completedBytes)/\(expected) bytes (\(Int((fraction * 100).rounded(.down))) %)"
    }
}

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a call's timeout stopped it, its limit, and the setting that raises it: a timeout's
/// typed details (``WebServiceError/timeout``), beside its text.
///
/// ```swift
/// } catch {
///     if let timeout = error.timeout { print(timeout.phase, timeout.limit ?? 0, timeout.setting) }
/// }
/// ```
public struct TimeoutFailure: Sendable, Hashable, CustomStringConvertible {
    /// The part of the exchange the time ran out in.
    public enum Phase: String, Sendable, Hashable, CaseIterable {
        /// Waiting for a connection from the pool, every one allowed busy.
        case waitingForConnection = "waiting for a connection from the pool"
        /// Connecting (TCP, a proxy's tunnel, the TLS handshake): nothing of the request was sent.
        case connecting = "connecting"
        /// Writing the request.
        case sending = "sending the request"
        /// Waiting for the response's head, the request sent.
        case waitingForResponse = "waiting for the response"
        /// Reading the response's body.
        case receiving = "receiving the response"
        /// Waiting for the next piece of a streamed body (``ResponseStream``).
        case betweenStreamedPieces = "waiting for the next piece of the streamed body"
    }

    /// The part of the exchange the time ran out in.
    public let phase: Phase
    /// The limit in seconds; `nil` where the transport that timed out does not say (URLSession).
    public let limit: TimeInterval?
    /// The setting that raises the limit, as code names it.
    public let setting: String

    /// The call's own timeout, the setting of most phases.
    public static let callTimeout = "the call's timeout (the descriptor's timeout or WebServiceRequest.timeoutInterval)"

    /// A timeout in `phase` with `limit`, raised by `setting`.
    public init(phase: Phase, limit: TimeInterval?, setting: String = TimeoutFailure.callTimeout) {
        self.phase = phase
        self.limit = limit
        self.setting = setting
    }

    /// `the call's timeout of 10 s passed while waiting for the response. Raise the call's timeout (…)`.
    public var description: String {
        "the call's timeout\(Self.amount(limit)) passed while \(phase.rawValue). Raise \(setting)"
    }

    /// The key of the failure in the `userInfo` of the `URLError` a timeout is.
    static let userInfoKey = "WebServiceKitTimeoutFailure"

    /// ` of 10 s`, ` of 2.5 s`: a limit for a message; empty for none (`nil`, 0 or less).
    static func amount(_ limit: TimeInterval?) -> String {
        guard let limit, limit > 0, limit.isFinite else { return "" }
        let seconds = limit == limit.rounded() && limit < 1e9 ? "\(Int(limit))" : "\(limit)"
        return " of \(seconds) s"
    }
}

extension URLError {
    /// The `URLError(.timedOut)` of `failure`, which carries it: described by it, with `detail`
    /// after it (what the phase saw: how many connections were open, that nothing was sent).
    static func timedOut(_ failure: TimeoutFailure, detail: String? = nil) -> URLError {
        let text = detail.map { "\(failure.description). \($0)" } ?? failure.description
        return URLError(
            .timedOut, userInfo: [NSLocalizedDescriptionKey: text, TimeoutFailure.userInfoKey: failure])
    }
}

extension WebServiceError {
    /// Where the call's timeout stopped it, the limit and the setting that raises it, when the call
    /// timed out (``isTimeout``) on a transport that says so (the library's own).
    public var timeout: TimeoutFailure? {
        urlError?.userInfo[TimeoutFailure.userInfoKey] as? TimeoutFailure
    }
}

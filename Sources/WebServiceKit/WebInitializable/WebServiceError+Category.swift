extension WebServiceError {
    /// What kind of failure an error is: WebStruct's five cases (`network`, `http`, `ignoreData`,
    /// `parse`, `application`), and the ones it had no case for.
    public enum Category: Sendable, Hashable, CaseIterable {
        /// The call could not be sent: a bad descriptor or argument, a refused header, a body
        /// that did not serialize, an interceptor's refusal.
        case invalidRequest
        /// No HTTP response: connection, DNS, TLS, timeout (``WebServiceError/transport(_:)``).
        case network
        /// A response whose status the call does not accept, and no application error in it
        /// (``WebServiceError/unacceptableStatus(code:headers:body:)``), or one whose
        /// `Retry-After` asked for a longer wait than the retry policy allows
        /// (``WebServiceError/retryAfterTooLong(_:)``).
        case http
        /// A body that is not what the serializer reads at all: empty where a value was
        /// expected, malformed at its top level (not JSON, not XML), larger than
        /// ``WebServiceClient/maximumResponseBodySize`` (not read past the limit), or a streamed
        /// body past one of its limits (``WebServiceError/responseStream(_:)``).
        case ignoreData
        /// A well-formed body that does not fit the type: a missing key, a wrong type.
        case parse
        /// The service's own error, from the call's error handler
        /// (``WebServiceError/application(_:statusCode:)``).
        case application
        /// Credentials were refused or could not be made.
        case authentication
        /// The call was cancelled.
        case cancelled
        /// A download to a file failed on the file's side.
        case download
    }

    /// The error's ``Category``.
    public var category: Category {
        switch reason {
        case .invalidCall, .invalidArguments, .invalidHeader, .requestSerialization, .intercepted:
            return .invalidRequest
        case .transport: return .network
        case .unacceptableStatus, .retryAfterTooLong: return .http
        case .emptyBody, .responseTooLarge, .responseStream: return .ignoreData
        case .decoding(let failure): return failure.isMalformedBody ? .ignoreData : .parse
        case .application: return .application
        case .authentication: return .authentication
        case .cancelled: return .cancelled
        case .download: return .download
        }
    }
}

extension WebServiceError.DecodingFailure {
    /// Whether the body could not be read at all, as opposed to read but not matching the type:
    /// the serializer reported corrupted data at the top level.
    public var isMalformedBody: Bool {
        guard case DecodingError.dataCorrupted(let context) = underlying else { return false }
        return context.codingPath.isEmpty
    }
}

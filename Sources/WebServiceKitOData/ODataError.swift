import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// An error reported by an OData service, decoded by ``ODataErrorHandler``. The call fails with
/// ``WebServiceError/application(_:statusCode:)`` holding it.
///
/// Holds the fields of the v4 error object (OData 4.01 JSON Format §21.1: `code`, `message`,
/// `target`, `details`, `innererror`) and of the v2/v3 forms, where `message` is an object
/// `{"lang": "en-US", "value": "…"}`. A body that is not an OData error (HTML from a proxy,
/// plain text) still gives an error, with that text as the message and no code.
public struct ODataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One entry of `details`.
    public struct Detail: Sendable, Hashable {
        /// The service's code.
        public let code: String?
        /// The message.
        public let message: String
        /// What the detail is about (a property, a parameter).
        public let target: String?

        /// Creates a detail.
        public init(code: String?, message: String, target: String?) {
            self.code = code
            self.message = message
            self.target = target
        }
    }

    /// The HTTP status of the response.
    public let statusCode: Int
    /// The service-defined error code.
    public let code: String?
    /// The human-readable message.
    public let message: String
    /// The language of the message (v2/v3 `lang`).
    public let language: String?
    /// What the error is about (a property, a parameter).
    public let target: String?
    /// Further errors.
    public let details: [Detail]
    /// The service's `innererror` object as JSON text (debugging information, service-defined).
    public let innerError: String?

    /// Creates an error, for stubs and tests.
    public init(
        statusCode: Int, code: String?, message: String, language: String? = nil, target: String? = nil,
        details: [Detail] = [], innerError: String? = nil
    ) {
        self.statusCode = statusCode
        self.code = code
        self.message = message
        self.language = language
        self.target = target
        self.details = details
        self.innerError = innerError
    }

    public var description: String {
        var text = "OData error (status \(statusCode))"
        if let code { text += " \(code)" }
        text += ": \(message)"
        if let target { text += " [target: \(target)]" }
        return text
    }
}

/// Turns OData error responses into ``ODataError``: the v4 JSON `{"error": {…}}`, the v3 JSON
/// `{"odata.error": {…}}`, the v2 verbose JSON, and the Atom/XML `<error>` document. Set it as a
/// call's `errorHandler` (or the client's).
///
/// A response whose status is not accepted always fails with an ``ODataError``, even when its
/// body is empty or not an OData error (ROAD let those through as success). A response whose
/// status is accepted but whose body is only an error object (some services answer 200 with
/// `{"error": …}`) fails too.
///
/// A JSON body whose arrays and objects nest more than 64 levels deep is not read as an OData
/// error (reading it would recurse past a small stack): like any other body that is not one, its
/// first ``messageLimit`` bytes become the message. An XML body is read at any depth.
public struct ODataErrorHandler: ResponseErrorHandler {
    /// The longest part of a non-OData body kept as the message.
    public static let messageLimit = 1_000

    /// Creates the handler.
    public init() {}

    public func error(for response: ResponseContext, body: Data, statusAccepted: Bool) -> (any Error)? {
        if statusAccepted {
            guard Self.startsWithErrorObject(body) else { return nil }
        }
        if let error = ODataErrorParsing.json(body, statusCode: response.statusCode) { return error }
        if let error = ODataErrorParsing.xml(body, statusCode: response.statusCode) { return error }
        guard !statusAccepted else { return nil }
        let text = String(decoding: body.prefix(Self.messageLimit), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return ODataError(
            statusCode: response.statusCode, code: nil,
            message: text.isEmpty ? "HTTP status \(response.statusCode) without a body" : text,
            language: nil, target: nil, details: [], innerError: nil)
    }

    /// Whether a JSON body opens with an `error` member, checked on its first bytes so that
    /// successful bodies are not parsed twice.
    static func startsWithErrorObject(_ body: Data) -> Bool {
        let head = body.prefix(64).filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return head.starts(with: Array(#"{"error""#.utf8)) || head.starts(with: Array(#"{"odata.error""#.utf8))
    }
}

import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a chaos call asks of the server (`Tests/Servers/chaos_server.py`): the query's `kind`.
public enum ChaosKind: String, CaseIterable, Sendable, Codable {
    case get
    case head
    /// A POST the client must never send twice.
    case post
    /// A POST marked ``CallFields/isIdempotent``: sent again like a GET.
    case postIdempotent = "post-idem"
    /// A GET read as a stream of Server-Sent Events.
    case sse

    /// Whether the client may send it again (RFC 9110 §9.2.2, or the descriptor's word).
    public var isIdempotent: Bool { self != .post }
}

/// How a call failed, as far as the soak tells failures apart.
public enum ChaosFailure: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Whether two failures are of one kind (a lost connection is one, whatever its text).
    func isKind(of other: ChaosFailure) -> Bool {
        switch (self, other) {
        case (.connectionLost, .connectionLost): true
        default: self == other
        }
    }

    /// `.transport(URLError(.networkConnectionLost))`: the connection closed or reset; the error's
    /// text.
    case connectionLost(String)
    /// `.transport(URLError(.timedOut))`.
    case timedOut
    /// `.unacceptableStatus`: the server's answer, with its code.
    case status(Int)
    /// The soak's watchdog cancelled a call that did not end.
    case hung
    /// Anything else, with the error's text.
    case other(String)

    init(_ error: WebServiceError) {
        switch error.reason {
        case .transport(let failure) where failure.code == .networkConnectionLost:
            self = .connectionLost(error.description)
        case .transport(let failure) where failure.code == .timedOut: self = .timedOut
        case .unacceptableStatus(let code, _, _): self = .status(code)
        default: self = .other(error.description)
        }
    }

    public var description: String {
        switch self {
        case .connectionLost(let text): "connection lost: \(text)"
        case .timedOut: "timed out"
        case .status(let code): "status \(code)"
        case .hung: "hung (cancelled by the watchdog)"
        case .other(let text): text
        }
    }
}

/// The nonce and connection number an answer carries (`X-Nonce`, `X-Conn`).
public struct ChaosEcho: Sendable, Codable, Equatable {
    public var nonce: String
    public var connection: Int?

    public init(nonce: String, connection: Int?) {
        self.nonce = nonce
        self.connection = connection
    }
}

/// One call of the soak and how it ended.
public struct ChaosOutcome: Sendable, Codable {
    public enum Result: Sendable, Codable {
        /// A success: the nonce and the connection number the answer carries.
        case answered(nonce: String, connection: Int?)
        /// A stream that started: the nonce and connection its head carries, the events' data as
        /// they came, and how it ended (`nil`: cleanly).
        case stream(nonce: String, connection: Int?, events: [String], end: ChaosFailure?)
        /// A failure; for an error status, the nonce and connection that answer carries.
        case failed(ChaosFailure, echo: ChaosEcho?)
    }

    public let nonce: String
    public let kind: ChaosKind
    public let result: Result

    public init(nonce: String, kind: ChaosKind, result: Result) {
        self.nonce = nonce
        self.kind = kind
        self.result = result
    }
}

/// The soak's descriptors, one per ``ChaosKind``, made once per soak: every request carries its
/// nonce in the query and in `X-Nonce`, and each answer echoes it.
struct ChaosCalls: Sendable {
    /// An answer's JSON body: the nonce and connection it says it answers.
    struct Answer: Decodable, Sendable {
        let nonce: String
        let conn: Int
    }

    struct Body: Encodable, Sendable {
        let nonce: String
        let pad: String
    }

    let get: TypedCall<ArgumentList<String>, NoBody, Data>
    let head: TypedCall<ArgumentList<String>, NoBody, Data>
    let post: TypedCall<ArgumentList<String>, Body, Data>
    let postIdempotent: TypedCall<ArgumentList<String>, Body, Data>
    let sse: WebServiceCall<ResponseStream<ServerSentEvent>>

    /// The descriptors with `timeout`; `breaking` adds `break=` to every query (the server's modes
    /// that break the soak on purpose).
    init(timeout: TimeInterval, breaking: String? = nil) {
        let suffix = breaking.map { "&break=\($0)" } ?? ""
        func fields(_ method: HTTPMethod, _ kind: ChaosKind) -> CallFields {
            var fields = CallFields(method: method, relativePath: "chaos?kind=\(kind.rawValue)&nonce=%%0%%\(suffix)")
            fields.headers = ["X-Nonce": "%%0%%"]
            fields.timeout = timeout
            fields.isIdempotent = kind == .postIdempotent
            return fields
        }
        get = .init(.init(fields(.get, .get)))
        head = .init(.init(fields(.head, .head)))
        post = .init(.init(fields(.post, .post)))
        postIdempotent = .init(.init(fields(.post, .postIdempotent)))
        sse = WebServiceCall(fields(.get, .sse), stream: .serverSentEvents)
    }

    /// Performs one call of `kind` with `nonce`.
    func perform(_ kind: ChaosKind, nonce: String, pad: Int, on client: WebServiceClient) async -> ChaosOutcome.Result {
        do {
            switch kind {
            case .get, .head:
                return Self.answered(try await client.response(for: kind == .head ? head : get, nonce))
            case .post, .postIdempotent:
                let body = Body(nonce: nonce, pad: String(repeating: "p", count: pad))
                return Self.answered(
                    try await client.response(for: kind == .post ? post : postIdempotent, nonce, body: body))
            case .sse:
                return await stream(nonce: nonce, on: client)
            }
        } catch {
            return Self.failed(error)
        }
    }

    /// The nonce an answer carries: its `X-Nonce`, or its JSON body's when the two differ (an
    /// answer whose head and body are of two requests).
    private static func answered(_ response: WebServiceResponse<Data>) -> ChaosOutcome.Result {
        let (nonce, connection) = echo(response.headers)
        if !response.body.isEmpty, let answer = try? JSONDecoder().decode(Answer.self, from: response.body),
            answer.nonce != nonce
        {
            return .answered(nonce: answer.nonce, connection: answer.conn)
        }
        return .answered(nonce: nonce, connection: connection)
    }

    /// A failure; one with an answer of another request (a status the call did not expect) is
    /// that answer.
    private static func failed(_ error: WebServiceError) -> ChaosOutcome.Result {
        if case .unacceptableStatus(_, let headers, _) = error.reason {
            let (nonce, connection) = echo(headers)
            return .failed(ChaosFailure(error), echo: ChaosEcho(nonce: nonce, connection: connection))
        }
        return .failed(ChaosFailure(error), echo: nil)
    }

    private static func echo(_ headers: HTTPHeaders) -> (nonce: String, connection: Int?) {
        (headers["X-Nonce"] ?? "", headers["X-Conn"].flatMap { Int($0) })
    }

    private func stream(nonce: String, on client: WebServiceClient) async -> ChaosOutcome.Result {
        let events: ResponseStream<ServerSentEvent>
        do {
            events = try await client.stream(sse, nonce)
        } catch {
            return Self.failed(error)
        }
        let (echoed, connection) = Self.echo(events.headers)
        var received: [String] = []
        do {
            for try await event in events { received.append(event.data) }
            return .stream(nonce: echoed, connection: connection, events: received, end: nil)
        } catch {
            return .stream(nonce: echoed, connection: connection, events: received, end: ChaosFailure(error))
        }
    }
}

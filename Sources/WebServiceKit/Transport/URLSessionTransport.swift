import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: a `URLSession` whose own cache is off (the library caches by RFC 9111
/// itself) and whose cookies follow the configuration you pass.
///
/// The request's `timeoutInterval` is a deadline for the whole exchange, enforced here: Foundation
/// on Linux does not apply it, and elsewhere it only bounds the time between two packets.
public final class URLSessionTransport: WebServiceTransport {
    /// The session requests run on.
    public let session: URLSession

    /// Creates a transport over a new session made from `configuration`, with Foundation's
    /// `urlCache` removed.
    public init(configuration: URLSessionConfiguration = .default) {
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    /// Creates a transport over an existing session.
    public init(session: URLSession) { self.session = session }

    deinit { session.finishTasksAndInvalidate() }

    public func send(_ request: URLRequest, context: TransportContext) async throws -> TransportResponse {
        let state = Locked(TaskState())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<TransportResponse, any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    let timedOut = state.withLock { state in
                        state.deadline?.cancel()
                        return state.timedOut
                    }
                    if timedOut {
                        continuation.resume(throwing: URLError(.timedOut))
                    } else if let error {
                        continuation.resume(throwing: error)
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: TransportResponse(response, body: data ?? Data()))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                let deadline = DispatchWorkItem {
                    state.withLock { $0.timedOut = true }
                    task.cancel()
                }
                let cancelledAlready = state.withLock { state in
                    state.task = task
                    state.deadline = deadline
                    return state.isCancelled
                }
                task.resume()
                if cancelledAlready { task.cancel() }
                if request.timeoutInterval > 0 {
                    DispatchQueue.global().asyncAfter(deadline: .now() + request.timeoutInterval, execute: deadline)
                }
            }
        } onCancel: {
            let task = state.withLock { state in
                state.isCancelled = true
                return state.task
            }
            task?.cancel()
        }
    }

    private struct TaskState {
        var task: URLSessionDataTask?
        var deadline: DispatchWorkItem?
        var isCancelled = false
        var timedOut = false
    }
}

extension TransportResponse {
    init(_ response: HTTPURLResponse, body: Data) {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(response.allHeaderFields.count)
        for (name, value) in response.allHeaderFields {
            if let name = name as? String { fields.append(HTTPHeaders.Field(name: name, value: "\(value)")) }
        }
        self.init(statusCode: response.statusCode, headers: HTTPHeaders(fields), body: body, url: response.url)
    }
}

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: hands each task's callbacks to its exchange, and refuses redirects so
/// that the client follows them itself.
final class TaskRouter: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, @unchecked Sendable {
    // `exchanges` is guarded by `lock`.
    private let lock = NSLock()
    private var exchanges: [Int: (exchange: TaskExchange, context: TransportContext)] = [:]
    /// The trust the transport was made with; ``ServerTrustPolicy/system`` leaves server-trust
    /// challenges to the system.
    private let serverTrust: ServerTrustPolicy

    init(serverTrust: ServerTrustPolicy) { self.serverTrust = serverTrust }

    func register(_ exchange: TaskExchange, for task: URLSessionTask, context: TransportContext) {
        lock.withLock { exchanges[task.taskIdentifier] = (exchange, context) }
    }

    /// Forgets a task that ended in its completion handler.
    func unregister(_ task: URLSessionTask) {
        lock.withLock { _ = exchanges.removeValue(forKey: task.taskIdentifier) }
    }

    private func exchange(for task: URLSessionTask) -> TaskExchange? {
        lock.withLock { exchanges[task.taskIdentifier]?.exchange }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        let context = lock.withLock { exchanges[task.taskIdentifier]?.context }
        context?.reportUploadProgress(sent: totalBytesSent, expected: totalBytesExpectedToSend)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// HTTP authentication is the client's job (its ``AuthenticationProvider``), never the
    /// session's: reject those challenges so the 401 comes back. Server trust follows the
    /// transport's ``ServerTrustPolicy`` (the system's default handling for `.system`; Linux never
    /// asks); client certificates keep the system's default handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(Security)
            if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust,
                !serverTrust.isSystem
            {
                var failure = URLError(
                    .serverCertificateUntrusted, reason: "the challenge carried no trust to evaluate")
                if let trust = challenge.protectionSpace.serverTrust {
                    guard let refused = serverTrust.failure(evaluating: trust, host: challenge.protectionSpace.host)
                    else {
                        completionHandler(.useCredential, URLCredential(trust: trust))
                        return
                    }
                    failure = refused
                }
                exchange(for: task)?.noteServerTrustFailure(failure)
                completionHandler(.cancelAuthenticationChallenge, nil)
                return
            }
        #endif
        let httpAuthentication = [
            NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        ]
        guard httpAuthentication.contains(challenge.protectionSpace.authenticationMethod) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        exchange(for: task)?.noteRejectedChallenge()
        completionHandler(.rejectProtectionSpace, nil)
    }

    /// A body over the limit is refused here, before it is read: the task is cancelled, and the
    /// disposition says so too (Foundation on Linux waits for it, and a `.allow` given after the
    /// cancellation would let the transfer go on).
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let refused = exchange(for: dataTask)?.received(response) ?? false
        completionHandler(refused ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.append(data)
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        exchange(for: downloadTask)?.wrote(total: totalBytesWritten, expected: totalBytesExpectedToWrite)
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL
    ) {
        exchange(for: downloadTask)?.finishDownload(at: location, response: downloadTask.response)
    }

    /// The session's metrics of the task, kept for its report (Apple platforms deliver them
    /// before the task completes; Foundation on Linux does not call this).
    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        exchange(for: task)?.noteTaskMetrics(metrics)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = lock.withLock { exchanges.removeValue(forKey: task.taskIdentifier)?.exchange }
        exchange?.complete(response: task.response, error: error)
    }
}

extension TransportResponse {
    /// The session's answer to a request with `method` (`nil`: GET), its fields as the direct
    /// path gives them (``ResponseDecoding/sessionHeaders(_:method:statusCode:)``).
    init(_ response: HTTPURLResponse, method: String?) {
        // Read once: on Linux every read of `allHeaderFields` converts Foundation's
        // [String: String] to [AnyHashable: Any] anew.
        let all = response.allHeaderFields
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(all.count)
        for (name, value) in all {
            // Foundation keeps both as strings; the casts are the cheap path.
            guard let name = name.base as? String else { continue }
            fields.append(HTTPHeaders.Field(name: name, value: value as? String ?? "\(value)"))
        }
        let headers = ResponseDecoding.sessionHeaders(
            HTTPHeaders(fields), method: method ?? "GET", statusCode: response.statusCode)
        self.init(statusCode: response.statusCode, headers: headers, url: response.url)
    }
}

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client's logging settings other than the level: one immutable object that a setting's
/// change replaces.
final class LogSettings: Sendable {
    let logger: any WebServiceLogger
    let redaction: LogRedaction
    let bodyLimit: Int

    init(
        logger: any WebServiceLogger = StandardErrorLogger(), redaction: LogRedaction = LogRedaction(),
        bodyLimit: Int = 4096
    ) {
        self.logger = logger
        self.redaction = redaction
        self.bodyLimit = bodyLimit
    }

    func replacing(
        logger: (any WebServiceLogger)? = nil, redaction: LogRedaction? = nil, bodyLimit: Int? = nil
    ) -> LogSettings {
        LogSettings(
            logger: logger ?? self.logger, redaction: redaction ?? self.redaction,
            bodyLimit: bodyLimit ?? self.bodyLimit)
    }
}

/// Logs the exchanges of one call with the transport, at the call's level.
///
/// There is none when the level is `.none`: a call that logs nothing allocates nothing and builds
/// no string. A class, so that an exchange that does not log carries one empty reference.
final class ExchangeLog: Sendable {
    let level: LogLevel
    let logger: any WebServiceLogger
    let redaction: LogRedaction.Matcher
    let bodyLimit: Int
    let callName: String
    /// The values hidden so far in this call, searched for in its later exchanges too (a cookie
    /// set by a redirect's response and echoed by the next page).
    private let hidden = Locked(LogRedaction.Secrets())

    /// The log of a call of `descriptor` at the descriptor's level or the client's; `nil` at `.none`.
    static func make(for descriptor: CallDescriptor, settings: WebServiceClient.Settings) -> ExchangeLog? {
        let level = descriptor.logLevel ?? settings.logLevel
        guard level > .none else { return nil }
        return ExchangeLog(level: level, settings: settings.logging, callName: descriptor.name)
    }

    private init(level: LogLevel, settings: LogSettings, callName: String) {
        self.level = level
        logger = settings.logger
        redaction = LogRedaction.Matcher(settings.redaction)
        bodyLimit = settings.bodyLimit
        self.callName = callName
    }

    /// A request that was logged and is on its way.
    final class Sent: Sendable {
        let method: String
        /// The URL as logged, redacted.
        let url: String
        /// The URL as sent, to recognise it in a response or an error.
        let sentURL: String?
        let attempt: Int
        let secrets: LogRedaction.Secrets
        let started: ContinuousClock.Instant

        init(
            method: String, url: String, sentURL: String?, attempt: Int, secrets: LogRedaction.Secrets,
            started: ContinuousClock.Instant
        ) {
            self.method = method
            self.url = url
            self.sentURL = sentURL
            self.attempt = attempt
            self.secrets = secrets
            self.started = started
        }
    }

    /// Logs `request` as it goes to the transport; `streamedLength` is its streamed body's length.
    func sent(_ request: WebServiceRequest, attempt: Int, streamedLength: Int64?) -> Sent {
        var secrets = hidden.current
        let method = request.method
        let url = request.url.map { redaction.redact($0, secrets: &secrets) } ?? "(no URL)"
        // The request's fields read in two passes, the values (but Content-Type's) only in the
        // second: at many fields, a value not read recently is a trip to memory. The first takes
        // the names: each
        // lowercased once, not once per comparison or look-up, with whether it is redacted and
        // its place in the dictionary; these are sorted, and the second pass reads each field in
        // that order from the dictionary, once, for the secrets and the lines together.
        let all = request.allHTTPHeaderFields ?? [:]
        var order: [(key: String, redacted: Bool, index: Dictionary<String, String>.Index)] = []
        order.reserveCapacity(all.count)
        var redactedCount = 0
        // What `value(forHTTPHeaderField:)` answers (the first field of the name in any case, in
        // the dictionary's order), found in this pass rather than by another search of every field.
        var contentType: String?
        for index in all.indices {
            let key = all.keys[index].lowercased()
            if contentType == nil, key == "content-type" { contentType = all.values[index] }
            let redacted = redaction.redactsLowercasedHeader(key)
            if redacted { redactedCount += 1 }
            order.append((key, redacted, index))
        }
        order.sort { $0.key < $1.key }
        // The field lines as one text, joined below with the same "\n" as separate lines would be.
        let writesFields = level >= .headers
        var fieldLines = ""
        if redactedCount > 0 { secrets.reserveCapacity(redactedCount) }
        if writesFields || redactedCount > 0 {
            for field in order {
                let name = all.keys[field.index]
                if field.redacted {
                    redaction.collect(
                        field: name, lowercasedName: field.key, value: all.values[field.index], into: &secrets)
                }
                guard writesFields else { continue }
                if !fieldLines.isEmpty { fieldLines += "\n" }
                fieldLines += name
                fieldLines += ": "
                fieldLines += field.redacted ? LogRedaction.placeholder : all.values[field.index]
            }
        }
        let isStreamed = request.httpBodyStream != nil
        var size: String?
        if isStreamed {
            size = streamedLength.map { "\($0)-byte streamed body" } ?? "streamed body"
        } else if let body = request.httpBody {
            size = "\(body.count)-byte body"
        }
        var lines = ["--> \(method) \(url)" + (size.map { " (\($0))" } ?? "")]
        if level >= .headers {
            if !fieldLines.isEmpty { lines.append(fieldLines) }
            if level >= .body {
                // A stream is never read here: it is the transport's, and may be read only once.
                let body =
                    isStreamed
                    ? [LogBody.streamedSummary(length: streamedLength)]
                    : request.httpBody.map {
                        LogBody.lines(of: $0, contentType: contentType, limit: bodyLimit, secrets: secrets)
                    } ?? []
                if !body.isEmpty { lines += [""] + body }
            }
            lines.append("--> END \(method)")
        }
        emit(
            .request, lines, secrets: secrets,
            metadata: [
                LogMessage.MetadataKey.call: callName, LogMessage.MetadataKey.attempt: String(attempt),
                LogMessage.MetadataKey.method: method, LogMessage.MetadataKey.url: url,
            ])
        return Sent(
            method: method, url: url, sentURL: request.url?.absoluteString, attempt: attempt, secrets: secrets,
            started: .now)
    }

    /// Logs the transport's response to the request that `sent` logged. With `transaction`, the
    /// request's record in the call's metrics, the time shown is its duration, and whether its
    /// connection was reused is shown when the transport said.
    func received(_ response: TransportResponse, for sent: Sent, transaction: CallMetrics.Transaction? = nil) {
        let milliseconds =
            transaction.map { CallMetrics.milliseconds($0.duration) } ?? Self.milliseconds(since: sent.started)
        var secrets = sent.secrets
        for field in response.headers where redaction.redactsHeader(field.name) {
            redaction.collect(field: field.name, value: field.value, into: &secrets)
        }
        hidden.withLock { $0.formUnion(secrets) }
        var url = sent.url
        if let responseURL = response.url, responseURL.absoluteString != sent.sentURL {
            url = redaction.redact(responseURL, secrets: &secrets)
        }
        // A download's body went to the call's file: the log never reads it back.
        let fileLength = response.bodyFileLength
        // A streamed body is still arriving: the log shows its head (the time is the head's).
        let bodySummary =
            response.live != nil
            ? "streamed body" : fileLength.map { "\($0)-byte body to a file" } ?? "\(response.body.count)-byte body"
        var details = ["\(milliseconds) ms", bodySummary]
        // The reuse flag, when the transport said (Docs/Metrics.md).
        if let reused = transaction?.connectionReused {
            details.append(reused ? "reused connection" : "new connection")
        }
        switch response.source {
        case .network: break
        case .cache: details.append("from cache")
        case .revalidatedCache: details.append("from cache, revalidated")
        case .staleCache: details.append("from stale cache")
        }
        var lines = ["<-- \(response.statusCode) \(url) (\(details.joined(separator: ", ")))"]
        if level >= .headers {
            lines += headerLines(response.headers.fields.map { (name: $0.name, value: $0.value) })
            if level >= .body {
                let body =
                    fileLength.map { [LogBody.fileSummary(length: $0)] }
                    ?? LogBody.lines(
                        of: response.body, contentType: response.headers["Content-Type"], limit: bodyLimit,
                        secrets: secrets)
                if !body.isEmpty { lines += [""] + body }
            }
            lines.append("<-- END HTTP")
        }
        var metadata = [
            LogMessage.MetadataKey.call: callName, LogMessage.MetadataKey.attempt: String(sent.attempt),
            LogMessage.MetadataKey.method: sent.method, LogMessage.MetadataKey.url: url,
            LogMessage.MetadataKey.status: String(response.statusCode),
            LogMessage.MetadataKey.durationMilliseconds: String(milliseconds),
            LogMessage.MetadataKey.source: Self.name(of: response.source),
        ]
        if let reused = transaction?.connectionReused {
            metadata[LogMessage.MetadataKey.connectionReused] = String(reused)
        }
        if let route = transaction?.route { metadata[LogMessage.MetadataKey.route] = "\(route)" }
        emit(.response, lines, secrets: secrets, metadata: metadata)
    }

    /// Logs that the request that `sent` logged got no response; the time is `transaction`'s
    /// duration when the request reached the transport.
    func failed(_ error: WebServiceError, for sent: Sent, transaction: CallMetrics.Transaction? = nil) {
        let milliseconds =
            transaction.map { CallMetrics.milliseconds($0.duration) } ?? Self.milliseconds(since: sent.started)
        var reason = "\(error)"
        if let sentURL = sent.sentURL { reason = reason.replacingOccurrences(of: sentURL, with: sent.url) }
        var metadata = [
            LogMessage.MetadataKey.call: callName, LogMessage.MetadataKey.attempt: String(sent.attempt),
            LogMessage.MetadataKey.method: sent.method, LogMessage.MetadataKey.url: sent.url,
            LogMessage.MetadataKey.durationMilliseconds: String(milliseconds),
            LogMessage.MetadataKey.error: reason,
        ]
        if let route = transaction?.route { metadata[LogMessage.MetadataKey.route] = "\(route)" }
        emit(
            .failure, ["<-- HTTP FAILED: \(sent.method) \(sent.url) (\(milliseconds) ms): \(reason)"],
            secrets: sent.secrets, metadata: metadata)
    }

    /// Logs that the call will be sent again, attempt `attempt` of `maximum`, after `wait`
    /// seconds, because of `reason` (a status, or a failure named by its code): one line. Its
    /// `attempt` metadata is `nextSend`, the number the next request's messages will carry
    /// (which counts redirects and answered challenges too).
    func retrying(
        _ request: WebServiceRequest, attempt: Int, of maximum: Int, nextSend: Int, after reason: String,
        wait: TimeInterval
    ) {
        var secrets = hidden.current
        let method = request.method
        let url = request.url.map { redaction.redact($0, secrets: &secrets) } ?? "(no URL)"
        let milliseconds = wait.isFinite ? Int64(min(max(wait, 0), 86_400) * 1000) : 0
        let line =
            "--> RETRY \(method) \(url) (attempt \(attempt) of \(maximum) in \(milliseconds) ms, after \(reason))"
        emit(
            .retry, [line], secrets: secrets,
            metadata: [
                LogMessage.MetadataKey.call: callName, LogMessage.MetadataKey.attempt: String(nextSend),
                LogMessage.MetadataKey.method: method, LogMessage.MetadataKey.url: url,
                LogMessage.MetadataKey.retryDelayMilliseconds: String(milliseconds),
                LogMessage.MetadataKey.error: reason,
            ])
    }

    private func headerLines(_ fields: [(name: String, value: String)]) -> [String] {
        fields.map { field in
            "\(field.name): \(redaction.redactsHeader(field.name) ? LogRedaction.placeholder : field.value)"
        }
    }

    /// Hands the message to the logger, with every hidden value replaced wherever it still appears.
    private func emit(
        _ kind: LogMessage.Kind, _ lines: [String], secrets: LogRedaction.Secrets, metadata: [String: String]
    ) {
        logger.log(
            LogMessage(
                kind: kind, level: level, text: secrets.scrub(lines.joined(separator: "\n")),
                metadata: metadata.mapValues { secrets.scrub($0) }))
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = start.duration(to: .now).components
        return elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
    }

    private static func name(of source: ResponseSource) -> String {
        switch source {
        case .network: "network"
        case .cache: "cache"
        case .revalidatedCache: "revalidatedCache"
        case .staleCache: "staleCache"
        }
    }
}

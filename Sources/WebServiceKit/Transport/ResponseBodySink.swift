import Foundation

/// Where the body of each response of one call goes: into memory, within the client's size
/// limit, or into the call's file when the call downloads to one (``DownloadedFile``).
///
/// Every transport writes the responses it receives into the sink of its call
/// (``TransportContext/responseBody``), one after the other:
///
/// ```swift
/// try context.responseBody.begin(statusCode: 200, expectedLength: contentLength)
/// for try await chunk in bytes { try context.responseBody.append(chunk) }
/// return try context.responseBody.finish(TransportResponse(statusCode: 200, headers: headers, url: url))
/// ```
///
/// The sink makes, in one place, the decisions every transport used to make on its own:
///
/// - **Memory or file**: decided once per response, by ``begin(statusCode:expectedLength:)``. The
///   body of a call that downloads goes to its file, except the body of a redirect (3xx) or an
///   authentication challenge (401, 407), which the client follows or answers with another
///   request: those stay in memory. Each file-bound response empties the file first.
/// - **The size limit** (``WebServiceClient/maximumResponseBodySize``) applies to every body kept
///   in memory: a `Content-Length` over it fails at once, any other body as soon as it passes it,
///   with ``WebServiceError/responseTooLarge(limit:statusCode:)``. A transport stops reading when
///   the sink throws.
/// - **Download progress** counts the bytes of the response that answers the call (not those of
///   a redirect or a challenge), against its expected length.
/// - **The first bytes** of a file-bound body (up to 64 KiB) stay in memory with the response,
///   for the call's error handler and its error: the file is not read back (but for a
///   `URLSession` download task's file, which Foundation writes itself).
///
/// A transport that does not use the sink and returns its body in memory still works: the client
/// pours that body into the sink as the response comes back, with the same rules (limit, file,
/// progress). A transport that writes into the sink need not report download progress itself.
///
/// The sink is safe to use from any thread; the responses of a call go through it one at a time.
public final class ResponseBodySink: Sendable {
    /// The most bytes a body kept in memory may have; `nil` for no limit.
    public let maximumSize: Int?
    /// The call's download, when it downloads to a file.
    let download: FileDownload?
    /// For a streamed call (``WebServiceClient/stream(_:_:)``): its buffer and size limit. Each
    /// response's body then goes live to the consumer as it arrives (``LiveBody``), the limit of
    /// memory bodies is the stream's, and transports that can stop reading ask
    /// ``isBackedUp`` after each read.
    let stream: StreamLimits?
    private let progress: ProgressReporter?
    /// What the sink holds; its extensions for streamed calls (Streaming/) and files a
    /// transport wrote (Download/) read it too.
    let state = Locked(State())

    /// The bounds of a streamed call's bodies (``CallFields/streamBufferSize``,
    /// ``CallFields/maximumStreamedBodySize``).
    struct StreamLimits: Sendable {
        var bufferSize: Int
        var maximumBodySize: Int?
    }

    /// The bytes of a file-bound body kept in memory for error handlers and errors.
    static let keptPrefix = 64 * 1024

    enum Destination {
        /// No response begun yet, or the last one finished.
        case none
        case memory(Data)
        /// The call's file, open, and the first bytes of the body.
        case file(DownloadSink, prefix: Data)
        /// The call's file, which a transport wrote itself (``adopt(fileAt:)``): its length and
        /// first bytes.
        case adopted(length: Int64, prefix: Data)
        /// A streamed call's consumer, as the body arrives.
        case live(LiveBody)
    }

    struct State {
        var destination = Destination.none
        var statusCode = 0
        /// The body's expected length, for progress; `nil` when unknown.
        var expected: Int64?
        /// The body bytes received so far.
        var received: Int64 = 0
        /// Whether the body counts as the call's download, for progress.
        var counts = false
        /// Whether progress counts the bytes appended (`false`: the transport counts other bytes,
        /// those of a coded body on the wire, with ``advance(to:expected:)``).
        var countsAppendedBytes = true
        /// The last count given by ``advance(to:expected:)``.
        var advanced: Int64 = 0
        /// Set once a body passed the limit: every later byte of that response is refused too.
        var failure: WebServiceError?
        /// How many response heads began a body here, for the retry policy (a timeout after a
        /// head is not retried).
        var begun = 0
        /// A streamed call's next live body, waiting for its head (``expectLive(_:onHead:)``).
        var pendingLive: (body: LiveBody, onHead: @Sendable (TransportResponse) -> Void)?
        /// A streamed call's last live body that got its head.
        var currentLive: LiveBody?
    }

    /// A sink for one call. `download` is the call's file, if it downloads to one; `progress` the
    /// call's progress reporter, if anyone listens.
    init(maximumSize: Int?, download: FileDownload?, progress: ProgressReporter?, stream: StreamLimits? = nil) {
        self.maximumSize = maximumSize
        self.download = download
        self.progress = progress
        self.stream = stream
    }

    /// The limit of a body kept in memory: the client's, or a streamed call's own.
    var memoryLimit: Int? { stream == nil ? maximumSize : stream?.maximumBodySize }

    /// How many response heads arrived so far: each body begun here, and each head a transport
    /// noted without a body (``noteHeadArrived()``). The retry policy retries a timeout only
    /// when none arrived during the attempt.
    var responsesBegun: Int { state.withLock { $0.begun } }

    /// Notes a response head that arrived without beginning its body here (a transport that
    /// timed out before it handed the body over).
    func noteHeadArrived() { state.withLock { $0.begun += 1 } }

    /// Whether the call downloads its response body to a file.
    public var downloadsToFile: Bool { download != nil }

    /// Whether the body of a response with `statusCode` is the call's download (progress, and the
    /// file of a call that downloads to one): every status but redirects (3xx) and authentication
    /// challenges (401, 407), which the client follows or answers with another request.
    public static func countsAsDownload(statusCode: Int) -> Bool {
        !(300..<400).contains(statusCode) && statusCode != 401 && statusCode != 407
    }

    /// Whether the body of a response with `statusCode` goes to the call's file.
    public func writesToFile(statusCode: Int) -> Bool {
        download != nil && Self.countsAsDownload(statusCode: statusCode)
    }

    /// The size limit of the body of a response with `statusCode`: ``maximumSize`` for a body
    /// kept in memory, `nil` (none) for one that goes to the call's file.
    public func limit(statusCode: Int) -> Int? {
        writesToFile(statusCode: statusCode) ? nil : memoryLimit
    }

    /// Starts the body of a response with `statusCode` (its final head arrived): it goes to the
    /// call's file or to memory (``writesToFile(statusCode:)``); a previous response's body is
    /// dropped.
    ///
    /// - Parameter expectedLength: The length of the body as it will be appended (`Content-Length`
    ///   for a body kept as it came); `nil` when unknown (chunked, or decoded as it arrives).
    /// - Throws: ``WebServiceError/responseTooLarge(limit:statusCode:)`` when a body kept in
    ///   memory announces more than ``maximumSize``, before any byte is read;
    ///   ``WebServiceError/download(_:)`` when the call's file cannot be opened.
    public func begin(statusCode: Int, expectedLength: Int64?) throws(WebServiceError) {
        try begin(statusCode: statusCode, expectedLength: expectedLength, countsAppendedBytes: true)
    }

    /// Starts a body whose progress the transport counts itself (``advance(to:expected:)``) when
    /// `countsAppendedBytes` is `false`: a body decoded as it arrives, whose progress is that of
    /// its bytes on the wire against its `Content-Length`.
    ///
    /// `head` is the response's status, fields and URL: a streamed call's body goes live with it
    /// (the head reaches the stage that waits for it at once). A head-less begin keeps a streamed
    /// call's body in memory until it is complete.
    func begin(
        statusCode: Int, expectedLength: Int64?, countsAppendedBytes: Bool, head: @autoclosure () -> TransportResponse?
    ) throws(WebServiceError) {
        try begin(statusCode: statusCode, expectedLength: expectedLength, countsAppendedBytes: countsAppendedBytes)
        guard stream != nil, let head = head() else { return }
        let published = state.withLock { state -> (@Sendable (TransportResponse) -> Void)? in
            guard let pending = state.pendingLive else { return nil }
            state.pendingLive = nil
            state.currentLive = pending.body
            state.destination = .live(pending.body)
            return pending.onHead
        }
        published?(head)
    }

    func begin(statusCode: Int, expectedLength: Int64?, countsAppendedBytes: Bool) throws(WebServiceError) {
        let expected = expectedLength.flatMap { $0 >= 0 ? $0 : nil }
        let file = try writesToFile(statusCode: statusCode) ? download?.openBody() : nil
        let limit = memoryLimit
        try state.withLockResult { (state: inout State) throws(WebServiceError) in
            state.statusCode = statusCode
            state.expected = expected
            state.received = 0
            state.counts = Self.countsAsDownload(statusCode: statusCode)
            state.countsAppendedBytes = countsAppendedBytes
            state.advanced = 0
            state.failure = nil
            state.begun += 1
            if case .file(let previous, _) = state.destination { previous.close() }
            if let file {
                state.destination = .file(file, prefix: Data())
                return
            }
            state.destination = .memory(Data())
            if let expected { try Self.admit(expected, into: &state, limit: limit) }
        }.get()
    }

    /// Appends the next bytes of the body begun last: to memory (within ``maximumSize``) or to the
    /// call's file, counting them as download progress.
    ///
    /// - Throws: ``WebServiceError/responseTooLarge(limit:statusCode:)`` once a body kept in memory
    ///   passes ``maximumSize`` (nothing more of it is kept; stop reading);
    ///   ``WebServiceError/download(_:)`` when the file cannot be written;
    ///   ``WebServiceError/invalidCall(_:)`` when no body was begun.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(WebServiceError) {
        try store(count: bytes.count) { (destination: inout Destination) throws(WebServiceError) in
            switch destination {
            case .none, .adopted: throw Self.notBegun
            case .live(let body): try body.push(Data(bytes))
            case .memory(var data):
                destination = .none
                Self.append(bytes, to: &data)
                destination = .memory(data)
            case .file(let file, var prefix):
                try file.write(bytes)
                if prefix.count < Self.keptPrefix {
                    destination = .none
                    Self.append(
                        UnsafeRawBufferPointer(rebasing: bytes.prefix(Self.keptPrefix - prefix.count)), to: &prefix)
                    destination = .file(file, prefix: prefix)
                }
            }
        }
    }

    /// Appends the next bytes of the body begun last; see ``append(_:)-(UnsafeRawBufferPointer)``.
    /// A whole body appended at once to memory is kept without a copy.
    public func append(_ data: Data) throws(WebServiceError) {
        try store(count: data.count) { (destination: inout Destination) throws(WebServiceError) in
            switch destination {
            case .none, .adopted: throw Self.notBegun
            case .live(let body): try body.push(data)
            case .memory(var kept):
                destination = .none
                if kept.isEmpty { kept = data } else { kept.append(data) }
                destination = .memory(kept)
            case .file(let file, var prefix):
                try file.write(data)
                if prefix.count < Self.keptPrefix {
                    destination = .none
                    prefix.append(data.prefix(Self.keptPrefix - prefix.count))
                    destination = .file(file, prefix: prefix)
                }
            }
        }
    }

    /// Ends the body begun last and returns `response` with it: the body in memory as
    /// ``TransportResponse/body``, or, for a file-bound body, an empty ``TransportResponse/body``
    /// and the file's length as ``TransportResponse/bodyFileLength`` (the sink keeps the first
    /// 64 KiB with the response for the error handler). `response`'s own body is replaced.
    ///
    /// - Throws: ``WebServiceError/invalidCall(_:)`` when no body was begun; the error that ended
    ///   the body, if one did.
    public func finish(_ response: TransportResponse) throws(WebServiceError) -> TransportResponse {
        var response = response
        try state.withLockResult { (state: inout State) throws(WebServiceError) in
            defer { state.destination = .none }
            if let failure = state.failure { throw failure }
            switch state.destination {
            case .none: throw Self.notBegun
            case .live:
                // The consumer has the body; the transport stage ends it when the transport returns.
                response.body = Data()
                response.bodyFileLength = nil
            case .memory(let data):
                response.body = data
                response.bodyFileLength = nil
            case .file(let file, let prefix):
                file.close()
                response.body = Data()
                response.filePrefix = prefix
                response.bodyFileLength = file.byteCount
            case .adopted(let length, let prefix):
                response.body = Data()
                response.filePrefix = prefix
                response.bodyFileLength = length
            }
        }.get()
        response.passedSink = true
        return response
    }

    /// Counts `received` bytes of the body begun last that the transport counts itself (a file it
    /// wrote itself, a coded body's bytes on the wire), as download progress. Before any body is
    /// begun (Foundation may report bytes before it tells the status), they are reported as they
    /// are.
    func advance(to received: Int64, expected: Int64?) {
        let expected = expected.flatMap { $0 > 0 ? $0 : nil }
        let report = state.withLock { (state: inout State) -> (Int64, Int64?)? in
            if case .none = state.destination { return (received, expected) }
            guard state.failure == nil, state.counts, received > state.advanced else { return nil }
            state.advanced = received
            return (received, expected ?? state.expected)
        }
        if let report { deliver(report) }
    }

    /// Pours the body of a response that a transport (a stub, a custom one) or an interceptor
    /// returned in memory into the sink, with every rule of a body written into it: the size
    /// limit, the call's file, progress. A response that already passed the sink is returned as
    /// it is. This is the only place such bodies enter the sink.
    func receive(_ response: TransportResponse) throws(WebServiceError) -> TransportResponse {
        guard !response.passedSink else { return response }
        try begin(statusCode: response.statusCode, expectedLength: Int64(response.body.count))
        try append(response.body)
        return try finish(response)
    }

    /// Counts progress the transport reports itself (``TransportContext/reportDownloadProgress(received:expected:)``).
    func reportProgress(received: Int64, expected: Int64?) {
        deliver((received, expected.flatMap { $0 > 0 ? $0 : nil }))
    }

    /// Runs `write` on the destination under the lock, after the limit check of `count` more
    /// bytes; reports progress after it.
    private func store(
        count: Int, _ write: (inout Destination) throws(WebServiceError) -> Void
    ) throws(WebServiceError) {
        let report = try state.withLockResult { (state: inout State) throws(WebServiceError) -> (Int64, Int64?)? in
            if let failure = state.failure { throw failure }
            let (total, overflow) = state.received.addingReportingOverflow(Int64(count))
            switch state.destination {
            case .memory, .live:
                try Self.admit(overflow ? Int64.max : total, into: &state, limit: memoryLimit)
            default: break
            }
            try write(&state.destination)
            state.received = overflow ? Int64.max : total
            return state.counts && state.countsAppendedBytes ? (state.received, state.expected) : nil
        }.get()
        if let report { deliver(report) }
    }

    /// Hands a download count to the call's progress reporter (outside the lock): every count of
    /// the response body goes through here.
    private func deliver(_ count: (received: Int64, expected: Int64?)) {
        progress?.report(.download, completed: count.received, expected: count.expected)
    }

    /// Throws (and remembers) ``WebServiceError/responseTooLarge(limit:statusCode:)`` when
    /// `byteCount` is over `limit`; the only place the limit is compared.
    static func admit(_ byteCount: Int64, into state: inout State, limit: Int?) throws(WebServiceError) {
        guard let failure = refusal(byteCount, limit: limit, statusCode: state.statusCode) else { return }
        state.failure = failure
        state.destination = .memory(Data())
        throw failure
    }

    /// The error for a body of `byteCount` bytes kept in memory, when that is over `limit`: the
    /// one comparison with the size limit.
    static func refusal(_ byteCount: Int64, limit: Int?, statusCode: Int) -> WebServiceError? {
        guard let limit, byteCount > Int64(limit) else { return nil }
        return .responseTooLarge(limit: limit, statusCode: statusCode)
    }

    private static func append(_ bytes: UnsafeRawBufferPointer, to data: inout Data) {
        guard let base = bytes.baseAddress else { return }
        data.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    }

    static let notBegun = WebServiceError.invalidCall(
        "a transport appended to or finished a response body it had not begun (ResponseBodySink.begin)")
}

extension Locked {
    /// Runs `body`, which throws a typed error, with exclusive access to the value.
    func withLockResult<T>(
        _ body: (inout Value) throws(WebServiceError) -> T
    ) -> Result<T, WebServiceError> {
        withLock { (value: inout Value) -> Result<T, WebServiceError> in
            Result { () throws(WebServiceError) in try body(&value) }
        }
    }
}

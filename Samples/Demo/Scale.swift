import Dispatch
import Foundation
import WebServiceKit
import WebServiceKitOData

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport in the process itself, for the size demo: it answers each request with what
/// `answer` makes of it, and reads a streamed body to its end first.
private struct InProcessTransport: WebServiceTransport {
    let answer: @Sendable (WebServiceRequest, Int) -> TransportResponse

    func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
        var length = request.httpBody?.count ?? 0
        if let stream = request.httpBodyStream {
            stream.open()
            defer { stream.close() }
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while case let count = stream.read(&buffer, maxLength: buffer.count), count > 0 { length += count }
        }
        return answer(request, length)
    }
}

/// Counts the log's messages and notes whether any shows `secret`.
private final class CheckingLogger: WebServiceLogger, @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private let secret: String
    private var count = 0
    private var leaked = false

    init(secret: String) { self.secret = secret }

    func log(_ message: LogMessage) {
        let shows = message.text.contains(secret)
        lock.withLock {
            count += 1
            leaked = leaked || shows
        }
    }

    var summary: (messages: Int, leaked: Bool) { lock.withLock { (count, leaked) } }
}

/// A count shared with a transport.
private final class FetchCounter: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

private struct PageItem: Decodable, Sendable {
    let id: Int
}

/// How long `work` takes, in milliseconds.
private func milliseconds<T>(_ work: () async throws -> T) async rethrows -> (T, Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    let value = try await work()
    return (value, Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000))
}

/// Work that grows in step with its input (no server needed): a run-time `$select` list, 100,000
/// form fields, a 100,000-term filter, 10,000 redacted headers logged at `.body`, and next links
/// that go round in a loop.
func demonstrateScale() async {
    let root = URL(string: "http://127.0.0.1/")!

    // A list known only at run time goes in whole.
    let columns = ["Name", "Price"]
    if let url = try? ODataQuery("Products").select(columns).orderBy([("Price", .descending)]).relativeURL() {
        print("select from a run-time list: \(url)")
    }

    // 100,000 chained select calls: each costs the same however many came before.
    let (selected, selectTime) = await milliseconds {
        var query = ODataQuery("Products")
        for index in 0..<100_000 { query = query.select("P\(index)") }
        return (try? query.relativeURL())?.count ?? 0
    }
    print("100,000 chained select calls: a \(selected / 1024) KiB URL in \(selectTime) ms")

    // A 100,000-term $filter, written without recursion.
    let (filtered, filterTime) = await milliseconds {
        var filter = ODataExpression.property("ID") == 0
        for index in 1..<100_000 { filter = filter || ODataExpression.property("ID") == index }
        return (try? ODataQuery("Products").filter(filter).relativeURL())?.count ?? 0
    }
    print("a $filter of 100,000 or-ed terms: a \(filtered / 1024) KiB URL in \(filterTime) ms")

    // 100,000 multipart text fields: each run of in-memory parts is copied once.
    let upload = WebServiceClient(
        serviceRoot: root,
        transport: InProcessTransport { _, length in
            TransportResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data("\(length)".utf8))
        })
    let fields = (0..<100_000).map { FormData(name: "field\($0)", value: "value \($0)") }
    let (received, uploadTime) = await milliseconds {
        try? await upload.perform(WebServiceCall<String>(method: .post, relativePath: "upload"), fields)
    }
    print("a multipart body of 100,000 fields: \((Int(received ?? "") ?? 0) / 1024) KiB sent in \(uploadTime) ms")

    // 10,000 redacted header fields logged at .body: each message is scrubbed in one pass.
    let secret = "secret-value-"
    var headers: [String: String] = [:]
    for index in 0..<10_000 { headers["X-Key-\(index)"] = "\(secret)\(index)" }
    let logged = WebServiceClient(
        serviceRoot: root,
        transport: InProcessTransport { request, _ in
            // The server echoes a few of the secrets in its body; the log must not show them.
            let echo = (0..<100).compactMap { request.value(forHTTPHeaderField: "X-Key-\($0)") }.joined(separator: ",")
            return TransportResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data(echo.utf8))
        })
    let logger = CheckingLogger(secret: secret)
    logged.logger = logger
    logged.logLevel = .body
    logged.logRedaction = LogRedaction(headers: Set(headers.keys))
    let (_, logTime) = await milliseconds {
        try? await logged.perform(WebServiceCall<Data>(relativePath: "items", headers: headers))
    }
    let summary = logger.summary
    print(
        "10,000 redacted headers logged at .body: \(summary.messages) messages in \(logTime) ms, "
            + (summary.leaked ? "A SECRET LEAKED" : "no secret shown"))

    // Next links that lead back after 1,000 pages: found in constant memory.
    let fetched = FetchCounter()
    let looping = WebServiceClient(
        serviceRoot: root,
        transport: InProcessTransport { request, _ in
            fetched.increment()
            let page =
                request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }?
                .first { $0.name == "page" }?.value.flatMap { Int($0) } ?? 0
            let body = #"{"value":[{"id":\#(page)}],"@odata.nextLink":"Items?page=\#((page + 1) % 1_000)"}"#
            return TransportResponse(
                statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        })
    do {
        let call = WebServiceCall<ODataCollection<PageItem>>(relativePath: "", urlBuilder: ODataURLBuilder())
        for try await _ in looping.pages(call, ODataQuery("Items")) {}
        print("paging: the loop was not found")
    } catch {
        print("paging: a loop of 1,000 pages refused after \(fetched.value) fetches: \(error)")
    }
}

import Dispatch
import Foundation
import WebServiceKit

// webservice-demo: declares a small endpoint table (Endpoints.swift) and calls it against an
// httpbin-compatible server, with callbacks, async/await and the blocking variant.
// Scripts/demo starts a local httpbin and passes its URL; --service-root targets any server.

func serviceRoot() -> URL {
    let arguments = CommandLine.arguments
    if let flag = arguments.firstIndex(of: "--service-root"), flag + 1 < arguments.count,
        let url = URL(string: arguments[flag + 1])
    {
        return url
    }
    if let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_HTTPBIN_URL"], let url = URL(string: text) {
        return url
    }
    print("usage: webservice-demo --service-root http://127.0.0.1:PORT/   (Scripts/demo does this for you)")
    exit(2)
}

func section(_ title: String) { print("\n== \(title)") }

let client = WebServiceClient(serviceRoot: serviceRoot())
client.sharedHeaders = ["User-Agent": "webservice-demo/1.0"]
print("service root: \(client.serviceRoot)")

// 1. Callbacks, ROAD style: the task can be cancelled; exactly one callback runs.
section("callbacks: GET anything/books?q=swift & co")
await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    client.perform(
        .search, "books", "swift & co/2", "trace-1",
        success: { echo in
            print("server saw \(echo.method) \(echo.url)")
            print("q = \(echo.args["q"] ?? "-"), X-Trace = \(echo.headers["X-Trace"] ?? "-")")
            done.resume()
        },
        failure: { error in
            print("failed: \(error)")
            done.resume()
        })
}

// 2. async/await with a JSON body.
section("async: POST a note as JSON (a typed body)")
do {
    let echo = try await client.perform(.createNote, body: Note(title: "Привет", body: "from WebServiceKit"))
    print("server decoded: \(echo.json.map { "\($0.title) / \($0.body)" } ?? "nothing")")
    print("Content-Type sent: \(echo.headers["Content-Type"] ?? "-")")
} catch {
    print("failed: \(error)")
}

// 2b. Typed calls: the compiler checks each call's arguments and body; the declaration is
// checked against its template once (validate() in a test, or the first call).
section("typed calls: the endpoint table checked against its declared types")
do {
    try TypedCall.search.validate(serviceRoot: client.serviceRoot)
    try TypedCall.createNote.validate(serviceRoot: client.serviceRoot)
    print("search and createNote: their templates use exactly the arguments they declare")
    let misdeclared = TypedCall<ArgumentList<String, Int>, NoBody, Data>(.init(relativePath: "users/%%0%%"))
    try misdeclared.validate()
} catch {
    print("a declaration that does not fit its template: \(error)")
}

// 2c. Query items from a value: the members of an Encodable (nil dropped, lists repeated).
section("query items from a value: SearchFilter(language: \"c++\", page: nil, topics: [http, ios])")
do {
    let echo = try await client.perform(
        .filteredSearch, "kit", SearchFilter(language: "c++", page: nil, topics: ["http", "ios"]))
    print("server saw \(echo.url)")
} catch {
    print("failed: \(error)")
}

// 3. serializationRoot: decode one value out of a larger document.
section("serializationRoot: slideshow.title of /json")
do {
    print("title: \(try await client.perform(.slideshowTitle))")
    print("author (a call made from CallFields): \(try await client.perform(.slideshowAuthor))")
} catch {
    print("failed: \(error)")
}

// 4. The whole response: status and headers without hacks.
section("full response: response-headers?X-Demo=hello world")
do {
    let response = try await client.response(for: .echoHeader, "hello world")
    print("status \(response.statusCode), X-Demo: \(response.headers["X-Demo"] ?? "-")")
} catch {
    print("failed: \(error)")
}

// 5. Success codes and typed errors.
section("success codes: 418 accepted by the call, 503 refused")
for code in [418, 503] {
    do {
        _ = try await client.perform(.status, code)
        print("\(code): accepted")
    } catch {
        print("\(code): \(error)")
    }
}

// 6. Cancellation: a cancelled call says so.
section("cancel: delay/3 cancelled after 0.2 s")
let started = Date()
await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    let task = client.perform(
        .slow, 3, success: { _ in done.resume() },
        failure: { error in
            print("\(error) after \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
            done.resume()
        })
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { task.cancel(reason: "the user went away") }
}

// 7. Blocking variant for scripts (never on the callback queue or inside a task).
section("blocking: performSynchronously on a plain thread")
await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    DispatchQueue.global().async {
        do {
            let response = try client.performSynchronously(.search, "sync", "blocking", "trace-2")
            print("status \(response.statusCode), \(response.body.count) bytes, q = \(response.value.args["q"] ?? "-")")
        } catch {
            print("failed: \(error)")
        }
        done.resume()
    }
}
// 7b. One line from a web API to a struct (WebInitializable, WebStruct style).
section("one-line struct: EchoedNote(\"7\", note)")
await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    DispatchQueue.global().async {
        do throws(WebServiceError) {
            let echoed = try EchoedNote("7", Note(title: "one line", body: "no boilerplate"))
            print("\(echoed.json.title) / \(echoed.json.body) via \(echoed.url)")
        } catch {
            print("failed (\(error.category)): \(error)")
        }
        done.resume()
    }
}
// 8. Authentication: the first call answers the challenge, later ones send credentials at once.
section("basic authentication (RFC 7617)")
let basic = BasicAuthenticationProvider(user: "user", password: "passwd")
print("session open before the first call: \(basic.isSessionOpen)")
await demonstrate(.basicProtected, with: basic, root: client.serviceRoot)
print("session open: \(basic.isSessionOpen), for paths \(basic.session?.paths ?? [])")
basic.endSession()
print("after endSession(): \(basic.isSessionOpen)")
section("digest authentication (RFC 7616, SHA-256), computed by the library on every platform")
let digest = DigestAuthenticationProvider(user: "user", password: "passwd")
await demonstrate(.digestProtected, with: digest, root: client.serviceRoot)
print("session open: \(digest.isSessionOpen), algorithm \(digest.session?.algorithm.map { "\($0)" } ?? "none")")

// 9. Multipart upload streamed from a file, with a progress bar (RFC 7578).
section("multipart upload with progress: a 4 MiB file and a text field")
await demonstrateUpload(client: client)

// 10. A download streamed to a file, with a progress bar; a failed one leaves no file.
section("download to a file with progress: 20,000 bytes dripping in over 2 s")
await demonstrateDownload(client: client)

// 11. The RFC 9111 cache: a fresh response is served without a request, a stale one is
// revalidated with a conditional request (304).
section("HTTP cache: the second call of each pair comes from the cache")
await demonstrateCache(root: client.serviceRoot)

// 12. Logging: one call logged with its header fields; the Basic credential is redacted.
section("logging: one call at .headers, the credential redacted")
await demonstrateLogging(root: client.serviceRoot)
section("logging what goes on the wire: a revalidation with its If-None-Match and the server's 304")
await demonstrateWireLogging(root: client.serviceRoot)
section("the bridge: the session's fields added above the log, on both routes; only the connection's below")
await demonstrateBridge(root: client.serviceRoot)

// 13. OData: a typed query with a filter, nested expand and count; paging; a typed error.
section("limits: a body over maximumResponseBodySize, a header value with CR/LF from an argument or prepare")
await demonstrateLimits(root: client.serviceRoot)

section("size: a run-time $select list, 100,000 fields, a 100,000-term filter, 10,000 secrets, a paging loop")
await demonstrateScale()

// A server that misbehaves on purpose (the fault server): typed errors, never a crash.
if let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_FAULT_URL"], let faultRoot = URL(string: text) {
    section(
        "hostile server: a negative chunk size, CR in a field, an unknown framing, a trailer, gzip, a smuggled method")
    await demonstrateHostileServer(root: faultRoot)
    section("retries: 503 twice then 200 with backoff; a Retry-After of an hour refused")
    await demonstrateRetries(root: faultRoot)
    section("one connection, every kind of request: GET, JSON, a stream, 3 MiB, a download; a dropped POST")
    await demonstrateConnections(root: faultRoot)
    section("metrics: route, connection reuse, times and bytes per request; the client's monitor")
    await demonstrateMetrics(root: faultRoot)
    section("many calls, few threads: 1,000 concurrent GETs on one client")
    await demonstrateManyCalls(root: faultRoot)
}

// Server trust, against the TLS nginx Scripts/demo starts (when nginx is there).
if let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_STREAM_URL"], let streamRoot = URL(string: text) {
    section("streaming: Server-Sent Events as they arrive, JSON lines, a reconnecting feed, a slow consumer")
    await demonstrateStreaming(root: streamRoot)
}

section("server trust: certificate failures by name, a private CA and pins enforced over TLS, resumed sessions")
await demonstrateTrust(
    selfSigned: ProcessInfo.processInfo.environment["WEBSERVICEKIT_TLS_SELF_SIGNED_URL"].flatMap(URL.init(string:)),
    unknownCA: ProcessInfo.processInfo.environment["WEBSERVICEKIT_TLS_URL"].flatMap(URL.init(string:)),
    certificates: ProcessInfo.processInfo.environment["WEBSERVICEKIT_TLS_DIR"].map { URL(fileURLWithPath: $0) },
    leafPin: ProcessInfo.processInfo.environment["WEBSERVICEKIT_TLS_LEAF_SPKI_SHA256"],
    mutual: ProcessInfo.processInfo.environment["WEBSERVICEKIT_TLS_MUTUAL_URL"].flatMap(URL.init(string:)))

// Proxies, through the tinyproxy Scripts/demo starts (when it is there).
if let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_PROXY_URL"], let proxy = URL(string: text) {
    section("proxies: http in absolute form and https through a CONNECT tunnel, on the library's own connections")
    await demonstrateProxies(
        proxy: proxy, httpRoot: client.serviceRoot,
        tlsRoot: ProcessInfo.processInfo.environment["WEBSERVICEKIT_TLS_URL"].flatMap(URL.init(string:)),
        certificates: ProcessInfo.processInfo.environment["WEBSERVICEKIT_TLS_DIR"].map { URL(fileURLWithPath: $0) })
}

if let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_ODATA_URL"], let odataRoot = URL(string: text) {
    section("OData: typed query, server-driven paging, typed error")
    await demonstrateOData(root: odataRoot)
}

// 14. JSON-RPC 2.0: a call, a batch with a result and an error per request, a notification.
if let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_JSONRPC_URL"], let rpcRoot = URL(string: text) {
    section("JSON-RPC 2.0: a call, a batch matched by id, a notification")
    await demonstrateJSONRPC(root: rpcRoot)
}

// 15. OpenAPI: a client generated from a document, against a server that validates each request.
if let text = ProcessInfo.processInfo.environment["WEBSERVICEKIT_OPENAPI_URL"],
    let openAPIRoot = URL(string: text + "petstore/")
{
    section("OpenAPI: webservice-gen's Petstore client, validated by openapi-core")
    await demonstrateOpenAPI(root: openAPIRoot)
}

print("\ndone")

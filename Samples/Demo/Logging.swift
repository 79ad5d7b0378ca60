import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension WebServiceCall where Response == Authenticated {
    /// httpbin's Basic-protected resource, logged with header fields whatever the client's level.
    static let loggedBasic = WebServiceCall(
        name: "loggedBasic", relativePath: "basic-auth/user/passwd", logLevel: .headers)
}

/// Prints each message to standard output, so that it appears in order with the demo's own lines
/// (the default ``StandardErrorLogger`` writes to standard error).
struct PrintLogger: WebServiceLogger {
    func log(_ message: LogMessage) { print(message.text) }
}

/// One call logged at `.headers`: the Basic credential the provider adds shows as `[redacted]`.
func demonstrateLogging(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.logger = PrintLogger()
    client.authenticationProvider = BasicAuthenticationProvider(
        user: "user", password: "passwd", sendsPreemptively: true)
    do {
        let result = try await client.perform(.loggedBasic)
        print("authenticated=\(result.authenticated) as \(result.user)")
    } catch {
        print("failed: \(error)")
    }
}

/// Prints the first line of each message and the conditional fields, nothing else.
struct WireSummaryLogger: WebServiceLogger {
    func log(_ message: LogMessage) {
        let lines = message.text.split(separator: "\n")
        let shown = lines.prefix(1) + lines.dropFirst().filter { $0.hasPrefix("If-") }
        print(shown.joined(separator: "\n   "))
    }
}

/// The log is a stage below the cache: a revalidation is logged as it goes on the wire, with the
/// validators the cache added and the server's 304, while the caller gets the stored body.
func demonstrateWireLogging(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    client.cache = HTTPCache(memoryLimit: 1 << 20)
    client.logger = WireSummaryLogger()
    client.logLevel = .headers
    for attempt in 1...2 {
        do {
            let response = try await client.response(for: .validated)
            print("call \(attempt): \(response.statusCode) from \(response.source), \(response.body.count) bytes")
        } catch {
            print("failed: \(error)")
        }
    }
}

extension WebServiceCall where Response == EchoedHeaders {
    /// httpbin's echo of the request's header fields.
    static let echoedHeaders = WebServiceCall(name: "echoedHeaders", relativePath: "headers")
}

/// What httpbin's `/headers` answers.
struct EchoedHeaders: Decodable, Sendable {
    let headers: [String: String]
}

/// Keeps the header fields of the last request the network interceptors saw.
final class SeenFields: WebServiceInterceptor, @unchecked Sendable {
    private let lock = NSLock()
    private var fields: [String: String] = [:]
    var last: [String: String] { lock.withLock { fields } }

    func intercept(_ request: WebServiceRequest, for call: CallDescriptor) async throws -> RequestInterception {
        lock.withLock { fields = request.allHTTPHeaderFields ?? [:] }
        return .proceed(request)
    }
}

/// The bridge stage: what the session adds (`Accept`, `User-Agent`, `Accept-Encoding`, the
/// configuration's fields) is added above the cache, so the network interceptors and the log see
/// what the server gets, on both routes; only the connection's own fields are added below.
func demonstrateBridge(root: URL) async {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpAdditionalHeaders = ["X-App": "demo"]
    let routes: [(String, any WebServiceTransport)] = [
        ("HTTP/1.1 transport", HTTP1Transport(configuration: configuration)),
        ("URLSession", URLSessionTransport(sessionConfiguration: configuration)),
    ]
    for (name, transport) in routes {
        let client = WebServiceClient(serviceRoot: root, transport: transport)
        let seen = SeenFields()
        client.networkInterceptors = [seen]
        do {
            let echoed = try await client.perform(.echoedHeaders).headers
            let seenNames = Set(seen.last.keys.map { $0.lowercased() })
            let below = echoed.keys.filter { !seenNames.contains($0.lowercased()) }.sorted()
            print("\(name): the stages saw \(seen.last.keys.sorted().joined(separator: ", "))")
            print("   the server also got: \(below.joined(separator: ", "))")
        } catch {
            print("failed: \(error)")
        }
    }
}

import Foundation
import WebServiceKit
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The Swift examples of Docs/Logging.md, compiled and run against StubTransport. Declarations
// are written here exactly as the page shows them. When you change an example, change the page too.

// MARK: - A stand-in for swift-log's `Logger`
//
// WebServiceKit does not depend on swift-log. This type has the names and shapes of the parts of
// swift-log's `Logger` that the page's adapter uses (`Logger(label:)`, `Logger.Level`,
// `Logger.Message`, `Logger.MetadataValue`, `log(level:_:metadata:source:file:function:line:)`),
// so that the adapter below compiles as the page shows it, and records what it is given.

struct Logger: Sendable {
    enum Level: String, Sendable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical
    }

    struct Message: ExpressibleByStringInterpolation, CustomStringConvertible, Sendable, Equatable {
        var description: String
        init(stringLiteral value: String) { description = value }
    }

    indirect enum MetadataValue: Sendable, Equatable {
        case string(String)
        case stringConvertible(String)
        case dictionary(Metadata)
        case array([MetadataValue])
    }

    typealias Metadata = [String: MetadataValue]

    /// What one `log` call received.
    struct Record: Sendable, Equatable {
        let label: String
        let level: Level
        let message: String
        let metadata: Metadata?
        let source: String?
    }

    let label: String

    init(label: String) { self.label = label }

    func log(
        level: Level, _ message: @autoclosure () -> Message, metadata: @autoclosure () -> Metadata? = nil,
        source: @autoclosure () -> String? = nil, file: String = #fileID, function: String = #function,
        line: UInt = #line
    ) {
        let record = Record(
            label: label, level: level, message: message().description, metadata: metadata(), source: source())
        Self.recorded.lock.withLock { Self.recorded.records.append(record) }
    }

    private final class Recorded: @unchecked Sendable {  // `records` is guarded by `lock`
        let lock = NSLock()
        var records: [Record] = []
    }

    private static let recorded = Recorded()

    /// Everything logged through loggers labelled `label`.
    static func records(labelled label: String) -> [Record] {
        recorded.lock.withLock { recorded.records.filter { $0.label == label } }
    }
}

// MARK: - Docs/Logging.md declarations

struct Profile: Decodable, Sendable {
    let name: String
}

extension WebServiceCall where Response == Profile {
    /// Logged with bodies whatever the client's level.
    static let debugProfile = WebServiceCall(name: "debugProfile", relativePath: "me", logLevel: .body)
    /// Never logged: polled every second.
    static let heartbeat = WebServiceCall(name: "heartbeat", relativePath: "me", logLevel: LogLevel.none)
}

/// Keeps the last 100 messages in memory, for a debug screen.
final class RecentMessages: WebServiceLogger, @unchecked Sendable {  // `messages` is guarded by `lock`
    private let lock = NSLock()
    private var messages: [LogMessage] = []

    func log(_ message: LogMessage) {
        lock.withLock { messages = Array((messages + [message]).suffix(100)) }
    }

    var recent: [LogMessage] { lock.withLock { messages } }
}

/// Sends WebServiceKit's messages to a swift-log `Logger`.
struct SwiftLogForwarder: WebServiceLogger {
    let logger: Logger

    func log(_ message: LogMessage) {
        let level: Logger.Level = message.kind == .failure ? .warning : .info
        var metadata = message.metadata.mapValues { Logger.MetadataValue.string($0) }
        metadata["kind"] = .string(message.kind.rawValue)
        logger.log(level: level, "\(message.text)", metadata: metadata, source: "WebServiceKit")
    }
}

// MARK: - The page's statements, with assertions

final class LoggingGuideExamplesTests: XCTestCase {
    private func stubbedClient() -> (WebServiceClient, StubTransport) {
        let stubs = StubTransport(fallback: .json(["name": "Ann"]))
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, transport: stubs)
        return (client, stubs)
    }

    func testLevelsPerClientAndPerCall() async throws {
        let (client, _) = stubbedClient()
        let recent = RecentMessages()
        client.logger = recent

        _ = try await client.perform(.heartbeat)
        XCTAssertEqual(recent.recent.count, 0, "nothing is logged until a level is chosen")

        client.logLevel = .basic  // .none (the default) logs nothing
        _ = try await client.perform(.heartbeat)
        XCTAssertEqual(recent.recent.count, 0, "the call's LogLevel.none wins")

        _ = try await client.perform(.debugProfile)
        XCTAssertEqual(recent.recent.map(\.level), [.body, .body])
        XCTAssertEqual(recent.recent.last?.text.hasSuffix(#"{"name":"Ann"}"# + "\n<-- END HTTP"), true)
    }

    func testRedactionSettings() async throws {
        let (client, stubs) = stubbedClient()
        let recent = RecentMessages()
        client.logger = recent
        client.logLevel = .headers
        client.logRedaction = LogRedaction(headers: ["X-Api-Key"], queryParameters: ["api_key"])
        client.logRedaction.headers.insert("X-Session")
        client.sharedHeaders = ["X-Api-Key": "k-123456", "X-Session": "s-123456"]

        let items = WebServiceCall<Data>(relativePath: "items?page=%%0%%&api_key=%%1%%")
        _ = try await client.perform(items, 2, "q-123456")

        XCTAssertEqual(stubs.requests.first?.request.url?.query, "page=2&api_key=q-123456")
        XCTAssertEqual(
            recent.recent.first?.text,
            """
            --> GET https://api.example.com/items?page=2&api_key=[redacted]
            X-Api-Key: [redacted]
            X-Session: [redacted]
            --> END GET
            """)
    }

    func testForwardingToSwiftLog() async throws {
        let (client, stubs) = stubbedClient()

        client.logger = SwiftLogForwarder(logger: Logger(label: "com.example.api"))
        client.logLevel = .headers

        _ = try await client.perform(.debugProfile)
        stubs.stub(where: { $0.url?.path == "/slow" }, with: .failure(.timedOut))
        _ = try? await client.perform(WebServiceCall<Profile>(name: "timeout", relativePath: "slow"))

        let records = Logger.records(labelled: "com.example.api")
        XCTAssertEqual(records.map(\.level), [.info, .info, .info, .warning])
        XCTAssertEqual(Set(records.compactMap(\.source)), ["WebServiceKit"])
        XCTAssertEqual(records[0].message, "--> GET https://api.example.com/me\n--> END GET")
        XCTAssertEqual(records[0].metadata?["call"], .string("debugProfile"))
        XCTAssertEqual(records[0].metadata?["kind"], .string("request"))
        XCTAssertEqual(records[1].metadata?["status"], .string("200"))
        XCTAssertEqual(records[1].metadata?["kind"], .string("response"))
        XCTAssertEqual(records[3].metadata?["kind"], .string("failure"))
        XCTAssertTrue(records[3].message.hasPrefix("<-- HTTP FAILED: GET https://api.example.com/slow"))
    }
}

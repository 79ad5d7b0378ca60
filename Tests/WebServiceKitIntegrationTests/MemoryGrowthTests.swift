import Dispatch
import Foundation
import WebServiceKit
import WebServiceKitChaos
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A long run of calls leaves the process no bigger than a small bound: nothing a call allocates
/// outlives it.
///
/// The mix: successes, decoding failures, cancellations (async and callbacks), cache hits and
/// evictions through a canned transport, and one call in 20 over the loopback to httpbin. The
/// resident size is sampled after a warm-up and after each quarter of the run, each time after
/// malloc gave its free pages back. The bound, 8 MiB over 40,000 calls, is on bytes, never on
/// time: a leak of 200 bytes a call (less than one retained closure context or `URLRequest`)
/// exceeds it, while what does remain stays far below it (about 1 MiB: FoundationNetworking on
/// Linux loses some 55 bytes of libcurl URL handle per real request; see `Scripts/leaks`).
///
/// `WEBSERVICEKIT_MEMORY_CALLS` sets the number of measured calls (40,000 by default).
final class MemoryGrowthTests: XCTestCase {
    private struct Item: Codable, Sendable, Equatable {
        let n: Int
        let text: String
    }

    private static let item = WebServiceCall<Item>(relativePath: "items/%%0%%")
    private static let broken = WebServiceCall<Item>(relativePath: "broken/%%0%%")
    private static let slow = WebServiceCall<Item>(relativePath: "slow/%%0%%")
    private static let cached = WebServiceCall<Item>(relativePath: "cached/%%0%%")
    private static let loopback = WebServiceCall<ConcurrencyStressTests.Arguments>(relativePath: "get?n=%%0%%")

    /// The growth allowed between the sample after the warm-up and the last one.
    private static let allowedGrowth = 8 << 20

    func testALongRunOfCallsDoesNotGrowTheProcess() async throws {
        let root = try HTTPBin.url()
        guard residentBytes() != nil else { throw XCTSkip("no /proc/self/statm to read the resident size from") }
        let measured = ProcessInfo.processInfo.environment["WEBSERVICEKIT_MEMORY_CALLS"].flatMap { Int($0) } ?? 40_000

        // Not StubTransport: it records every request, which a long run must not count.
        let canned = CannedTransport()
        let stubbed = WebServiceClient(serviceRoot: URL(string: "http://stub.invalid/")!, transport: canned)
        // A bounded cache: a full one evicts, so its size is not growth.
        stubbed.cache = HTTPCache(memoryLimit: 64 << 10)
        let real = WebServiceClient(serviceRoot: root)

        // Warm-up: caches of the runtime, Foundation and libcurl, the connection pool, the
        // malloc arenas of the threads.
        try await run(max(1_000, measured / 8), stubbed: stubbed, real: real)
        let before = try XCTUnwrap(residentBytes())
        var samples = [before]
        let rounds = 4
        for _ in 0..<rounds {
            try await run(measured / rounds, stubbed: stubbed, real: real)
            samples.append(try XCTUnwrap(residentBytes()))
        }
        let after = try XCTUnwrap(samples.last)
        let growth = after - before
        print(
            "MemoryGrowthTests: \(measured) calls, resident \(before >> 10) KiB after the warm-up, "
                + "samples \(samples.map { $0 >> 10 }) KiB, growth \(growth >> 10) KiB "
                + "(bound \(Self.allowedGrowth >> 10) KiB)")
        // Under valgrind (the leak check) the resident size also holds memcheck's queue of freed
        // blocks, 20 MB by default, which fills at the pace the calls free memory: it grows
        // during the measured calls however little a call leaves behind. There the calls run
        // for valgrind to find leaks in, and the bound is the plain run's.
        guard ProcessInfo.processInfo.environment["WEBSERVICEKIT_UNDER_VALGRIND"] == nil else { return }
        XCTAssertLessThan(growth, Self.allowedGrowth, "the process grew by \(growth) bytes over \(measured) calls")
    }

    /// `count` calls from 8 tasks: successes, decoding failures, cancellations, cache hits, the
    /// callback form, and one in 20 over the loopback to httpbin.
    private func run(_ count: Int, stubbed: WebServiceClient, real: WebServiceClient) async throws {
        let lanes = 8
        let failures = Failures()
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    for index in stride(from: lane, to: count, by: lanes) {
                        if let problem = await Self.call(index, stubbed: stubbed, real: real) {
                            failures.add(problem)
                        }
                    }
                }
            }
        }
        let problems = failures.all
        XCTAssertTrue(problems.isEmpty, "\(problems.count) calls went wrong, first: \(problems.prefix(3))")
    }

    /// One call of the mix; a description of what went wrong, or `nil`.
    private static func call(_ index: Int, stubbed: WebServiceClient, real: WebServiceClient) async -> String? {
        switch index % 20 {
        case 0:
            do {
                let echo = try await real.perform(loopback, ["\(index)"])
                return echo.args["n"] == .one("\(index)") ? nil : "loopback \(index) got \(echo.args)"
            } catch { return "loopback \(index): \(error)" }
        case 1, 2:
            do {
                _ = try await stubbed.perform(broken, ["\(index)"])
                return "broken \(index) decoded"
            } catch {
                guard case .decoding = error.reason else { return "broken \(index): \(error)" }
                return nil
            }
        case 3:
            // Cancelled while the stub waits.
            let work = Task { () async -> WebServiceError? in
                do throws(WebServiceError) {
                    _ = try await stubbed.perform(slow, ["\(index)"])
                    return nil
                } catch { return error }
            }
            work.cancel()
            let error = await work.value
            return error?.isCancelled == true ? nil : "slow \(index) ended with \(String(describing: error))"
        case 4:
            // The callback form, cancelled while the stub waits.
            let error = await withCheckedContinuation { continuation in
                let task = stubbed.perform(
                    slow, ["\(index)"], success: { _ in continuation.resume(returning: nil as WebServiceError?) },
                    failure: { continuation.resume(returning: $0) })
                task.cancel(reason: "memory")
            }
            return error?.isCancelled == true ? nil : "slow callback \(index) ended with \(String(describing: error))"
        case 5, 6:
            do {
                let cached = try await stubbed.perform(cached, ["\(index % 64)"])
                return cached.n == 1 ? nil : "cached \(index) got \(cached)"
            } catch { return "cached \(index): \(error)" }
        case 7, 8, 9:
            // The callback form, to the end.
            let result = await withCheckedContinuation { continuation in
                stubbed.perform(item, ["\(index)"]) { continuation.resume(returning: $0) }
            }
            switch result {
            case .success(let response): return response.value.n == 0 ? nil : "item \(index) got \(response.value)"
            case .failure(let error): return "item callback \(index): \(error)"
            }
        default:
            do {
                let item = try await stubbed.perform(item, ["\(index)"])
                return item.n == 0 ? nil : "item \(index) got \(item)"
            } catch { return "item \(index): \(error)" }
        }
    }

    private func residentBytes() -> Int? { ProcessFootprint.residentBytes() }

    /// Canned answers by path, recording nothing: `/broken/` answers a body that does not decode,
    /// `/slow/` answers after a second (the calls to it are cancelled long before; not longer,
    /// since a cancelled `Task.sleep` keeps its timer, some 600 bytes, until its deadline),
    /// `/cached/` a response fresh for 10 minutes, anything else an item.
    private final class CannedTransport: WebServiceTransport {
        private let item = try! JSONEncoder().encode(Item(n: 0, text: String(repeating: "x", count: 200)))
        private let cached = try! JSONEncoder().encode(Item(n: 1, text: "cached"))
        private let broken = Data("{\"n\": \"not a number\"}".utf8)

        func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
            let path = request.url?.path ?? ""
            var headers: HTTPHeaders = ["Content-Type": "application/json"]
            let body: Data
            if path.hasPrefix("/broken/") {
                body = broken
            } else if path.hasPrefix("/slow/") {
                try await Task.sleep(nanoseconds: 1_000_000_000)
                body = item
            } else if path.hasPrefix("/cached/") {
                headers["Cache-Control"] = "max-age=600"
                body = cached
            } else {
                body = item
            }
            return TransportResponse(statusCode: 200, headers: headers, body: body, url: request.url)
        }
    }

    private final class Failures: @unchecked Sendable {  // `problems` is guarded by `lock`
        private let lock = NSLock()
        private var problems: [String] = []

        func add(_ problem: String) {
            lock.lock()
            defer { lock.unlock() }
            problems.append(problem)
        }

        var all: [String] {
            lock.lock()
            defer { lock.unlock() }
            return problems
        }
    }
}

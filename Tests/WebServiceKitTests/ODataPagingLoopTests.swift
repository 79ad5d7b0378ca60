import Foundation
import WebServiceKit
import WebServiceKitOData
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Paging loop protection in constant memory (issue 25, item 6): chains of next links that loop
/// back end with the typed error after a bounded number of fetches; long chains that never loop
/// complete.
final class ODataPagingLoopTests: XCTestCase {
    typealias Item = ODataResponseTests.Item

    static let items = WebServiceCall<ODataCollection<Item>>(relativePath: "", urlBuilder: ODataURLBuilder())

    /// Serves page `n` of a chain whose page `last` links back to page `loopStart` (or ends there
    /// when `loopStart` is `nil`). Page 0 is the query's own URL, `Items`; page n is
    /// `Items?$skiptoken=n`. Counts the fetches.
    final class ChainTransport: WebServiceTransport, @unchecked Sendable {  // `fetches` is guarded by `lock`
        let last: Int
        let loopStart: Int?
        private let lock = NSLock()
        private var fetches = 0

        init(last: Int, loopStart: Int?) {
            self.last = last
            self.loopStart = loopStart
        }

        var fetchCount: Int { lock.withLock { fetches } }

        static func link(_ page: Int) -> String { page == 0 ? "Items" : "Items?$skiptoken=\(page)" }

        func send(_ request: WebServiceRequest, context: TransportContext) async throws -> TransportResponse {
            lock.withLock { fetches += 1 }
            let url = request.url?.absoluteString ?? ""
            var page = 0
            if let marker = url.range(of: "$skiptoken=") {
                guard let number = Int(url[marker.upperBound...]) else { throw URLError(.badURL) }
                page = number
            }
            var body = #"{"value":[{"ID":\#(page)}]"#
            if page < last {
                body += #","@odata.nextLink":"\#(Self.link(page + 1))""#
            } else if let loopStart {
                body += #","@odata.nextLink":"\#(Self.link(loopStart))""#
            }
            body += "}"
            return TransportResponse(
                statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8), url: request.url)
        }
    }

    private func client(_ transport: ChainTransport) -> WebServiceClient {
        WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!, transport: transport)
    }

    /// A chain of `tail` pages, then a loop of `length` pages; returns how many pages were fetched
    /// before the error. Every fetched page but the last, whose next link is refused, is delivered
    /// in chain order.
    private func fetchesUntilRefused(tail: Int, length: Int, file: StaticString = #filePath, line: UInt = #line)
        async throws -> Int
    {
        let transport = ChainTransport(last: tail + length - 1, loopStart: tail)
        var seen: [Int] = []
        do {
            for try await page in client(transport).pages(Self.items, ODataQuery("Items")) {
                seen += page.values.map(\.id)
            }
            XCTFail("a loop of \(length) after \(tail) pages was not refused", file: file, line: line)
        } catch {
            guard case .application(let underlying, let status) = error.reason,
                let query = underlying as? ODataQueryError,
                case .invalidValue(let reason) = query
            else {
                XCTFail("expected the loop error, got \(error)", file: file, line: line)
                return transport.fetchCount
            }
            XCTAssertEqual(status, 200, file: file, line: line)
            XCTAssertTrue(reason.contains("is not a new page"), reason, file: file, line: line)
        }
        let fetches = transport.fetchCount
        let chainOrder = (0..<max(fetches - 1, 0)).map { $0 < tail + length ? $0 : tail + ($0 - tail) % length }
        XCTAssertEqual(seen, chainOrder, "loop of \(length) after \(tail)", file: file, line: line)
        return fetches
    }

    func testShortLoopsAreRefusedBeforeAnyPageIsFetchedTwice() async throws {
        for length in [1, 2, 7, 16] {
            for tail in [0, 3] {
                let fetches = try await fetchesUntilRefused(tail: tail, length: length)
                XCTAssertEqual(fetches, tail + length, "loop of \(length) after \(tail)")
            }
        }
    }

    func testLongLoopsAreRefusedWithinTheDocumentedBound() async throws {
        for (tail, length) in [(0, 17), (0, 1_000), (5, 40), (700, 3)] {
            let fetches = try await fetchesUntilRefused(tail: tail, length: length)
            // The guard's promise: at most 2·max(T + 2, L) + L fetches.
            XCTAssertGreaterThanOrEqual(fetches, tail + length, "loop of \(length) after \(tail)")
            XCTAssertLessThanOrEqual(
                fetches, 2 * max(tail + 2, length) + length, "loop of \(length) after \(tail)")
        }
    }

    func testTenThousandPagesThatNeverLoopComplete() async throws {
        let transport = ChainTransport(last: 9_999, loopStart: nil)
        let values = try await client(transport).pages(Self.items, ODataQuery("Items")).allValues()
        XCTAssertEqual(values.map(\.id), Array(0..<10_000))
        XCTAssertEqual(transport.fetchCount, 10_000)
    }
}

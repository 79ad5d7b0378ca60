import Foundation

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The pages of an OData collection, fetched one after another by following each page's
/// `@odata.nextLink` (server-driven paging, OData 4.01 Part 1 §11.2.6.7).
///
/// ```swift
/// for try await page in client.pages(.products, ODataQuery("Products").filter(.property("InStock") == true)) {
///     show(page.values)
/// }
/// let everything = try await client.pages(.products, ODataQuery("Products")).allValues()
/// ```
///
/// Every page goes through the call's full pipeline (headers, authentication, cache, error
/// handler). A next link on another origin is refused (credentials never follow it).
///
/// Next links that go round in a loop end the sequence with an error rather than looping
/// forever, in constant memory however many pages there are: a link back to one of the last 16
/// pages is refused before it is fetched, and a longer loop of L pages, entered after T pages,
/// is refused after at most 2·max(T + 2, L) + L pages in all (Brent's cycle detection).
public struct ODataPages<Entity: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = ODataCollection<Entity>
    public typealias Failure = WebServiceError

    let client: WebServiceClient
    let call: WebServiceCall<ODataCollection<Entity>>
    let arguments: [any Sendable]

    public func makeAsyncIterator() -> Iterator { Iterator(pages: self) }

    /// Every entity of every page, in order.
    public func allValues() async throws(WebServiceError) -> [Entity] {
        var iterator = makeAsyncIterator()
        var values: [Entity] = []
        while let page = try await iterator.next() { values += page.values }
        return values
    }

    /// Fetches the pages in order.
    public struct Iterator: AsyncIteratorProtocol {
        let pages: ODataPages
        private var nextLink: URL?
        private var loopGuard = NextLinkLoopGuard()
        private var started = false
        private var finished = false

        init(pages: ODataPages) { self.pages = pages }

        public mutating func next() async throws(WebServiceError) -> ODataCollection<Entity>? {
            guard !finished else { return nil }
            guard pages.call.descriptor.urlBuilder is ODataURLBuilder else {
                finished = true
                throw .invalidCall("paging needs a call whose urlBuilder is an ODataURLBuilder")
            }
            var arguments = pages.arguments
            if started {
                guard let link = nextLink else {
                    finished = true
                    return nil
                }
                if let index = arguments.firstIndex(where: { $0 is ODataQuery }) {
                    arguments[index] = ODataNextLink(link)
                } else {
                    arguments.append(ODataNextLink(link))
                }
            }
            started = true
            let response: WebServiceResponse<ODataCollection<Entity>>
            do {
                response = try await pages.client.response(for: pages.call, arguments)
            } catch {
                finished = true
                throw error
            }
            if let url = response.request.url { loopGuard.fetched(url) }
            nextLink = nil
            if let link = response.value.nextLink {
                let base = response.request.url
                guard let url = URL(string: link, relativeTo: base)?.absoluteURL, !loopGuard.wasFetched(url) else {
                    finished = true
                    throw .application(
                        ODataQueryError.invalidValue("the next link \(link) is not a new page"),
                        statusCode: response.statusCode)
                }
                nextLink = url
            }
            return response.value
        }
    }
}

/// Finds a loop in a chain of next links in constant memory, however long the chain: not every
/// page is remembered (that cost about 0.4 KB per page), only the last ``recentCount`` and one
/// checkpoint.
///
/// A link to one of the recent pages is refused at once, so a loop of up to 16 pages fetches no
/// page twice, as a set of every page would. A longer loop is found by Brent's cycle detection
/// (R. P. Brent, "An improved Monte Carlo factorization algorithm", BIT 20, 1980): the checkpoint
/// is the first page, then moves to the page just fetched after 2, 4, 8 … more pages (pages 2,
/// 6, 14 … 2^k − 2), and a link equal to it is refused. Once the checkpoint is a page of the loop
/// and stays put for at least the loop's length L, the link back to it is refused. For a loop
/// entered after T pages, the chain is refused after at most 2·max(T + 2, L) + L fetched pages,
/// where a set of every page fetches T + L: a loop of 1,000 pages back to the first page is
/// refused after 2,022 fetches, 1,022 more. A chain that never repeats is never refused.
struct NextLinkLoopGuard: Sendable {
    /// How many of the last fetched pages are compared with each link.
    static let recentCount = 16

    /// The last fetched pages, oldest first once full: a ring of at most ``recentCount``.
    private var recent: [URL] = []
    /// Where the next fetched page goes in `recent` once it is full.
    private var oldest = 0
    /// Brent's checkpoint: a page fetched earlier, compared with each link.
    private var checkpoint: URL?
    /// Pages fetched since the checkpoint moved, and how many it stays for.
    private var sinceCheckpoint = 0
    private var checkpointSpan = 1

    /// Records a fetched page.
    mutating func fetched(_ url: URL) {
        if recent.count < Self.recentCount {
            recent.append(url)
        } else {
            recent[oldest] = url
            oldest = (oldest + 1) % Self.recentCount
        }
        sinceCheckpoint += 1
        if checkpoint == nil || sinceCheckpoint >= checkpointSpan {
            checkpoint = url
            sinceCheckpoint = 0
            // 2^62 pages are never reached; the cap only keeps the doubling from overflowing.
            checkpointSpan = checkpointSpan < 1 << 62 ? checkpointSpan * 2 : checkpointSpan
        }
    }

    /// Whether a next link goes back to a page the guard remembers: the chain loops.
    func wasFetched(_ url: URL) -> Bool { url == checkpoint || recent.contains(url) }
}

extension WebServiceClient {
    /// The pages of an OData collection call, following `@odata.nextLink` until the last page.
    /// The call needs an ``ODataURLBuilder``.
    public func pages<Entity>(_ call: WebServiceCall<ODataCollection<Entity>>, _ arguments: any Sendable...)
        -> ODataPages<Entity>
    {
        ODataPages(client: self, call: call, arguments: arguments)
    }

    /// The pages of an OData collection call, with an argument array.
    public func pages<Entity>(_ call: WebServiceCall<ODataCollection<Entity>>, arguments: [any Sendable])
        -> ODataPages<Entity>
    {
        ODataPages(client: self, call: call, arguments: arguments)
    }
}

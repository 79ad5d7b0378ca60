import Foundation

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
/// handler). A next link on another origin is refused (credentials never follow it), and a link
/// back to a page already fetched ends the sequence with an error rather than looping.
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
        private var visited: Set<URL> = []
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
            if let url = response.request.url { visited.insert(url) }
            nextLink = nil
            if let link = response.value.nextLink {
                let base = response.request.url
                guard let url = URL(string: link, relativeTo: base)?.absoluteURL, !visited.contains(url) else {
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

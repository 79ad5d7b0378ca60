import Foundation
import WebServiceKit

/// What httpbin echoes back about the request it received.
struct Echo: Decodable, Sendable {
    let method: String
    let args: [String: String]
    let headers: [String: String]
    let url: String
}

struct Note: Codable, Sendable {
    let title: String
    let body: String
}

struct PostEcho: Decodable, Sendable {
    let json: Note?
    let headers: [String: String]
}

// The demo's endpoint table: static descriptors, no macros, no generated code. Typed calls
// (TypedCall) carry their argument and body types, so the compiler checks every call of them:
// `client.perform(.search, "books", "swift")` (a missing trace) does not compile.
extension TypedCall where Arguments == ArgumentList<String, String, String>, Body == NoBody, Response == Echo {
    /// GET anything/{section}?q={query}, with a trace header from the third argument.
    static let search = TypedCall(
        .init(
            name: "search", relativePath: "anything/%%0%%?q=%%1%%",
            headers: ["Accept": "application/json", "X-Trace": "%%2%%"]))
}

/// The filters of a search, sent as query items: one member, one item.
struct SearchFilter: Encodable, Sendable {
    let language: String
    let page: Int?
    let topics: [String]
}

/// Only the URL httpbin received.
struct URLEcho: Decodable, Sendable {
    let url: String
}

extension TypedCall where Arguments == ArgumentList<String, SearchFilter>, Body == NoBody, Response == URLEcho {
    /// GET anything/filtered?q={query}&{the filter's members}: a lone wildcard takes a set of items.
    static let filteredSearch = TypedCall(
        .init(name: "filteredSearch", relativePath: "anything/filtered?q=%%0%%&%%1%%"))
}

extension TypedCall where Arguments == ArgumentList<>, Body == Note, Response == PostEcho {
    /// POST a note as JSON: the body is typed, passed as `body:`.
    static let createNote = TypedCall(.init(name: "createNote", method: .post, relativePath: "post"))
}

extension WebServiceCall where Response == String {
    /// The same kind of call declared from a `CallFields` value, the one list of a descriptor's
    /// fields: the slideshow's author, `slideshow.author` of /json.
    static let slideshowAuthor: WebServiceCall = {
        var fields = CallFields(relativePath: "json")
        fields.name = "slideshowAuthor"
        fields.serializationRoot = "slideshow.author"
        return WebServiceCall(fields, serializer: JSONResponseSerializer<String>())
    }()

    /// Only the slideshow's title out of httpbin's /json document.
    static let slideshowTitle = WebServiceCall(
        name: "slideshowTitle", relativePath: "json", serializer: JSONResponseSerializer<String>(),
        serializationRoot: "slideshow.title")
}

extension TypedCall where Arguments == ArgumentList<Int>, Body == NoBody, Response == Data {
    /// Any status code; 418 is accepted in addition to the client's 2xx.
    static let status = TypedCall(.init(name: "status", relativePath: "status/%%0%%", successCodes: [418]))
    /// A response that takes N seconds.
    static let slow = TypedCall(.init(name: "slow", relativePath: "delay/%%0%%", timeout: 10))
}

extension TypedCall where Arguments == ArgumentList<String>, Body == NoBody, Response == EmptyResponse {
    /// A response header chosen by the caller comes back.
    static let echoHeader = TypedCall(.init(name: "echoHeader", relativePath: "response-headers?X-Demo=%%0%%"))
}

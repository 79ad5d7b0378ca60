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

// The demo's endpoint table: static descriptors, no macros, no generated code.
extension WebServiceCall where Response == Echo {
    /// GET anything/{section}?q={query}, with a trace header from the third argument.
    static let search = WebServiceCall(
        name: "search",
        relativePath: "anything/%%0%%?q=%%1%%",
        headers: ["Accept": "application/json", "X-Trace": "%%2%%"])
}

extension WebServiceCall where Response == PostEcho {
    /// POST a note as JSON (the first argument not used by a wildcard is the body).
    static let createNote = WebServiceCall(name: "createNote", method: .post, relativePath: "post")
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

extension WebServiceCall where Response == Data {
    /// Any status code; 418 is accepted in addition to the client's 2xx.
    static let status = WebServiceCall(name: "status", relativePath: "status/%%0%%", successCodes: [418])
    /// A response that takes N seconds.
    static let slow = WebServiceCall(name: "slow", relativePath: "delay/%%0%%", timeout: 10)
}

extension WebServiceCall where Response == EmptyResponse {
    /// A response header chosen by the caller comes back.
    static let echoHeader = WebServiceCall(name: "echoHeader", relativePath: "response-headers?X-Demo=%%0%%")
}

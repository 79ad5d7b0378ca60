import Foundation
import WebServiceKit

/// A struct a web API initialises in one line (WebStruct style): httpbin's echo of a posted note.
struct EchoedNote: Decodable, Sendable, WebInitializable {
    let json: Note
    let url: String

    static let webServiceClient = WebServiceClient(serviceRoot: serviceRoot())
    static let webServiceCall = WebServiceCall<EchoedNote>(method: .post, relativePath: "anything/notes/%%0%%")
}

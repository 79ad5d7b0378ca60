import Foundation
import WebServiceKit

/// What the fault server's `/raw` route answers: `text`, byte for byte (base64url in the query).
private func rawArgument(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

/// A server that lies, and a request an interceptor tried to smuggle: each ends in a typed error,
/// or in the right bytes, never in a crash or a desynchronised connection.
func demonstrateHostileServer(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    let raw = WebServiceCall<Data>(relativePath: "raw?b64=%%0%%")
    let answers = [
        ("a chunk size of -5", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n"),
        ("a CR inside a field value", "HTTP/1.1 200 OK\r\nX-Note: a\rb\r\nContent-Length: 2\r\n\r\nok"),
        ("an unknown transfer coding", "HTTP/1.1 200 OK\r\nTransfer-Encoding: compress, chunked\r\n\r\n0\r\n\r\n"),
    ]
    for (label, answer) in answers {
        do {
            let body = try await client.perform(raw, rawArgument(answer))
            print("\(label): \(body.count) bytes (should not happen)")
        } catch {
            print("\(label): \(error.category): \(error)")
        }
    }
    // A legal answer that ends the process through URLSession on Linux: a POST's chunked answer
    // with a trailer field. Every plain-http call goes over the library's own HTTP/1.1 transport,
    // which reads the trailer and drops it.
    let post = WebServiceCall<Data>(method: .post, relativePath: "raw?b64=%%0%%")
    let trailer =
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        + "5\r\nhello\r\n0\r\nX-Checksum: 5d41402a\r\n\r\n"
    if let body = try? await client.perform(post, rawArgument(trailer), ["note": "kept"]) {
        print("a POST answered with a trailer field: \(String(decoding: body, as: UTF8.self).debugDescription)")
    }
    // A compressed answer nobody asked for is decoded once, on whichever route the call takes.
    struct Sample: Decodable { let items: [Int] }
    let encoded = WebServiceCall<Sample>(relativePath: "encoded?coding=gzip")
    if let sample = try? await client.perform(encoded) {
        print("a gzip answer: \(sample.items.count) items decoded")
    }
    // A method an interceptor wrote with CR/LF would be a second request on the wire: refused
    // after the last interceptor, before any transport.
    let smuggler = WebServiceClient(serviceRoot: root)
    smuggler.interceptors = [
        RequestProcessor { request, _ in request.httpMethod = "GET /admin HTTP/1.1\r\nX-Injected: 1\r\n\r\nGET" }
    ]
    do {
        _ = try await smuggler.perform(WebServiceCall<Data>(relativePath: "headers"))
    } catch {
        print("a smuggled method: \(error.category): \(error)")
    }
}

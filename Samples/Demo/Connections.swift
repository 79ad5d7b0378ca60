import Foundation
import WebServiceKit

/// What the fault server's `keep-alive/peer` tells of the connection that carried a request.
struct ConnectionPeer: Decodable, Sendable {
    let port: Int
    let served: Int
}

/// Every kind of request on one kept-alive connection, each decided by the HTTP/1.1 connection
/// machine (Docs/Architecture.md): a GET, a POST with JSON, a streamed upload, 3 MiB in memory
/// (in pieces, asking `Expect: 100-continue`), a download to a file. Then a POST on a connection
/// the server drops as the request arrives: never sent twice unless marked idempotent.
func demonstrateConnections(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    let get = WebServiceCall<ConnectionPeer>(relativePath: "keep-alive/peer")
    let post = WebServiceCall<ConnectionPeer>(method: .post, relativePath: "keep-alive/peer")
    func show(_ label: String, _ response: WebServiceResponse<ConnectionPeer>) {
        let reused = response.metrics.transactions.first?.connectionReused.map { $0 ? "reused" : "new" } ?? "?"
        print("\(label): connection :\(response.value.port), its request #\(response.value.served + 1), \(reused)")
    }
    do {
        show("GET              ", try await client.response(for: get, arguments: []))
        show("POST JSON        ", try await client.response(for: post, arguments: [["title": "a note"]]))
        let stream = RequestBody.stream(length: 200_000, isReplayable: false) {
            InputStream(data: Data(repeating: UInt8(ascii: "s"), count: 200_000))
        }
        show("POST a stream    ", try await client.response(for: post, arguments: [stream]))
        let large = RequestBody.data(Data(repeating: UInt8(ascii: "m"), count: 3 * 1024 * 1024))
        show("POST 3 MiB       ", try await client.response(for: post, arguments: [large]))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("webservice-demo-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let download = WebServiceCall<DownloadedFile>(relativePath: "keep-alive/peer")
        let saved = try await client.perform(download, [DownloadDestination(file)])
        let peer = try JSONDecoder().decode(ConnectionPeer.self, from: Data(contentsOf: saved.url))
        print("download to file : connection :\(peer.port), its request #\(peer.served + 1)")
    } catch {
        print("failed: \(error)")
    }
    // The server reads the next request on this connection and closes it without an answer.
    let dropNext = WebServiceCall<ConnectionPeer>(relativePath: "keep-alive/drop-next")
    let dropped = WebServiceClient(serviceRoot: root)
    do {
        _ = try await dropped.perform(dropNext)
        _ = try await dropped.perform(post, ["title": "once"])
        print("POST on a dropped connection: answered (unexpected)")
    } catch {
        print("POST on a dropped connection: \(error)")
    }
}

import Dispatch
import Foundation
import WebServiceKit

/// What the fault server's `/keep-alive/peer` tells of the connection that carried a request: the
/// client's port, one per connection.
private struct Peer: Decodable, Sendable {
    let port: Int
}

/// The threads of this process: the entries of `/proc/self/task` (Linux); `nil` elsewhere.
private func threadCount() -> Int? {
    #if os(Linux)
        return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count
    #else
        return nil
    #endif
}

/// The highest thread count seen once every call started and by each call as it ended.
private final class PeakThreads: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var peak: Int?

    func sample() {
        guard let count = threadCount() else { return }
        lock.withLock { peak = max(peak ?? count, count) }
    }

    var value: Int? { lock.withLock { peak } }
}

/// Many calls, few threads: 1,000 GETs started at once through a default client, which on Linux
/// takes the HTTP/1.1 transport on its event loop (a fixed set of loop threads, not a thread per
/// call). The fault server's `/keep-alive/peer` answers each at once on a kept-alive connection and
/// names the client port it came from, so the connections used are counted from the answers.
func demonstrateManyCalls(root: URL) async {
    let client = WebServiceClient(serviceRoot: root)
    let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer")
    let calls = 1_000
    let before = threadCount()
    let peak = PeakThreads()
    let started = DispatchTime.now().uptimeNanoseconds
    let ports = await withTaskGroup(of: Int?.self) { group in
        for _ in 0..<calls {
            group.addTask {
                let port = try? await client.perform(peer).port
                peak.sample()
                return port
            }
        }
        // Every call started: most are in flight now, waiting for a connection or an answer.
        peak.sample()
        var ports: [Int?] = []
        for await port in group { ports.append(port) }
        return ports
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let answered = ports.compactMap { $0 }
    print("\(calls) concurrent GETs: \(answered.count) done, \(calls - answered.count) failed")
    if let before, let highest = peak.value {
        print("threads: \(before) before, \(max(before, highest)) at the peak (/proc/self/task)")
    } else {
        print("threads: not measured (no /proc/self/task on this system)")
    }
    print("connections used: \(Set(answered).count) (client ports the server saw)")
    print("time: \(String(format: "%.2f", elapsed)) s")
}

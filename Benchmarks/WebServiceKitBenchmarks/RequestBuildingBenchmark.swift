import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Measure 3 of the performance suite: descriptor + arguments → URLRequest (5 headers,
/// 2 wildcards) against the same URLRequest built by hand. Goal: ≤ 4 µs and ≤ 1.2×.
enum RequestBuildingBenchmark {
    static let call = WebServiceCall<Data>(
        relativePath: "users/%%0%%/repos?sort=%%1%%&per_page=50",
        headers: [
            "Accept": "application/json", "X-Client": "bench", "X-Version": "2", "Cache-Control": "no-cache",
            "User-Agent": "WebServiceKit-bench/1.0",
        ])

    static func comparison(iterations: Int = 20_000, rounds: Int = 9) -> Comparison {
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!)
        let arguments: [any Sendable] = ["octo cat", "updated"]
        return Comparison(
            name: "3. descriptor + args -> URLRequest (5 headers, 2 wildcards)", unit: "ns/op", maximumRatio: 1.2,
            maximumValue: 4000, rounds: rounds, iterations: iterations,
            library: {
                blackHole(try? client.request(for: call, arguments: arguments))
            },
            baseline: {
                blackHole(handBuilt(user: "octo cat", sort: "updated"))
            })
    }

    /// The flag that makes this executable build the request N times (or, with `bare` after N,
    /// build it by hand N times) and exit, for `valgrind --tool=callgrind`.
    static let profileFlag = "--profile-request-building"

    /// When `arguments` ask for the profiling loop, runs it and returns the exit code.
    static func childExitCode(for arguments: [String]) -> Int32? {
        guard (3...4).contains(arguments.count), arguments[1] == profileFlag, let count = Int(arguments[2]) else {
            return nil
        }
        let client = WebServiceClient(serviceRoot: URL(string: "https://api.example.com/v1/")!)
        let bare = arguments.count == 4 && arguments[3] == "bare"
        let values: [any Sendable] = ["octo cat", "updated"]
        for _ in 0..<count {
            if bare {
                blackHole(handBuilt(user: "octo cat", sort: "updated"))
            } else {
                blackHole(try? client.request(for: call, arguments: values))
            }
        }
        return 0
    }

    /// What a careful programmer writes by hand for the same request: encoded path and query,
    /// the headers assigned as one dictionary.
    static func handBuilt(user: String, sort: String) -> URLRequest? {
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        guard let userText = user.addingPercentEncoding(withAllowedCharacters: unreserved),
            let sortText = sort.addingPercentEncoding(withAllowedCharacters: unreserved),
            let url = URL(string: "https://api.example.com/v1/users/\(userText)/repos?sort=\(sortText)&per_page=50")
        else { return nil }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 60)
        request.httpMethod = "GET"
        request.allHTTPHeaderFields = [
            "Accept": "application/json", "X-Client": "bench", "X-Version": "2", "Cache-Control": "no-cache",
            "User-Agent": "WebServiceKit-bench/1.0",
        ]
        return request
    }
}

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The answer of a proxy to `CONNECT` (``ProxyTunnel``), as it arrives: in pieces cut anywhere.
///
/// Input: the first byte picks the piece size (1 to 256 bytes), the rest is what the proxy sent.
///
/// Beyond not crashing:
/// - the verdict does not depend on where the bytes were cut: fed at once or in pieces, the
///   same answer (incomplete, established, or refused with the same code);
/// - a refusal's description never contains the proxy's credentials;
/// - an answer that starts `HTTP/1.1 407 ` is never read as an open tunnel.
enum ProxyTunnelTarget {
    static let proxy = ProxyRoute(host: "127.0.0.1", port: 3128, authorization: "Basic c2VjcmV0LXVzZXI6c2VjcmV0")

    static func run(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let piece = Int(first) + 1
        let answer = Array(bytes.dropFirst())
        let whole = verdict(answer, piece: max(answer.count, 1))
        let cut = verdict(answer, piece: piece)
        fuzzCheck(
            whole.text == cut.text, "\(answer.count) bytes: at once \(whole.text), in pieces of \(piece) \(cut.text)")
        if let error = cut.error {
            fuzzCheck(!error.localizedDescription.contains("c2VjcmV0"), "the credentials leaked: \(error)")
        }
        if answer.starts(with: Array("HTTP/1.1 407 ".utf8)), answer.count > 13 {
            fuzzCheck(
                whole.text == "incomplete" || whole.text.hasPrefix("refused"), "a 407 answer read as \(whole.text)")
        }
    }

    /// What the tunnel makes of `answer` fed `piece` bytes at a time: the first verdict that is not
    /// `incomplete` (the exchange stops there), else `incomplete`; and a refusal's error.
    static func verdict(_ answer: [UInt8], piece: Int) -> (text: String, error: URLError?) {
        var tunnel = ProxyTunnel(to: "api.example", port: 443, through: proxy)
        var offset = 0
        while offset < answer.count {
            let end = min(answer.count, offset + piece)
            let result = answer[offset..<end].withUnsafeBytes { tunnel.receive($0) }
            offset = end
            switch result {
            case .incomplete: continue
            case .established: return ("established", nil)
            case .refused(let error): return ("refused \(error.code.rawValue)", error)
            }
        }
        return ("incomplete", nil)
    }
}

import Foundation

/// The HTTP/1.1 response parser (RFC 9112: status line, fields, body framing, chunked coding and
/// trailers), fed the same bytes whole, in pieces the input chooses, and a byte at a time.
///
/// Input: a mode byte (bit 0: the request was HEAD; bit 1: chunked focus, where the rest is a
/// chunked body after a fixed `Transfer-Encoding: chunked` head), a count byte (0–7 piece sizes
/// follow, one byte each, cycled), then the response bytes.
///
/// Invariants, beyond never trapping:
/// - the verdict is the same however the bytes are split: the same error, or the same events,
///   head, body, trailers, completeness and reusability (the body drained piece by piece in the
///   split run, as a download does);
/// - a complete body framed by `Content-Length` has exactly that many bytes;
/// - a reusable connection follows a complete response.
enum HTTP1ResponseTarget {
    /// What the parser made of a whole input.
    struct Verdict: Equatable {
        var error: HTTP1ParseError?
        var events: [HTTP1ResponseParser.Event] = []
        var head: HTTP1ResponseHead?
        var body: [UInt8] = []
        var trailers = HTTPHeaders()
        var isComplete = false
        var isReusable = false
        var bodyLength: Int?
    }

    static let chunkedHead = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let method = mode & 1 == 1 ? "HEAD" : "GET"
        let sizes = (0..<Int(input.byte() % 8)).map { _ in max(1, Int(input.byte())) }
        let response = (mode & 2 == 2 ? chunkedHead : []) + input.rest()

        let whole = verdict(of: response, method: method, sizes: [response.count + 1])
        let split = verdict(of: response, method: method, sizes: sizes.isEmpty ? [3] : sizes, drains: true)
        let bytewise = verdict(of: response, method: method, sizes: [1])
        for other in [split, bytewise] {
            if let error = whole.error {
                fuzzCheck(other.error == error, "whole: \(error); split: \(String(describing: other.error))")
            } else {
                fuzzCheck(other == whole, "whole: \(whole)\nsplit: \(other)")
            }
        }
        if whole.isComplete, let length = whole.bodyLength {
            fuzzCheck(whole.body.count == length, "a body of \(whole.body.count) bytes for Content-Length \(length)")
        }
        fuzzCheck(!whole.isReusable || whole.isComplete, "reusable before the response is complete")
        if whole.error == nil, method == "HEAD" || [204, 304].contains(whole.head?.statusCode) {
            fuzzCheck(whole.body.isEmpty, "a body where none may be")
        }
    }

    /// Feeds `bytes` in pieces of the sizes given (cycled), then the end of the connection unless
    /// the response is already complete.
    static func verdict(of bytes: [UInt8], method: String, sizes: [Int], drains: Bool = false) -> Verdict {
        var parser = HTTP1ResponseParser(requestMethod: method)
        var result = Verdict()
        var start = 0
        var turn = 0
        do throws(HTTP1ParseError) {
            while start < bytes.count {
                let end = min(bytes.count, start + sizes[turn % sizes.count])
                result.events += try parser.feed(bytes[start..<end])
                if drains { parser.drainBody { result.body += $0 } }
                start = end
                turn += 1
            }
            if !parser.isComplete { try parser.finish() }
        } catch {
            return Verdict(error: error)
        }
        if drains {
            parser.drainBody { result.body += $0 }
        } else {
            result.body = parser.body
        }
        result.head = parser.head
        result.trailers = parser.trailers
        result.isComplete = parser.isComplete
        result.isReusable = parser.leavesConnectionReusable
        result.bodyLength = parser.bodyLength
        return result
    }
}

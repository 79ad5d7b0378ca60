import Foundation

/// ``ResponseIntake``, the push half of reading a response that the event loop (and the blocking
/// path) feeds with the bytes of a socket in whatever pieces the kernel hands over: the parser,
/// the content decoding (gzip, deflate) and the call's ``ResponseBodySink`` with its size limit.
///
/// Input: a mode byte (bit 0: the request was HEAD; bits 1–2: the body size limit, none, 16,
/// 256 or 4,096 bytes), a count byte (0–7 piece sizes follow, one byte each, cycled), then the
/// response bytes.
///
/// Each run drives the intake as ``HTTP1Exchange`` does: a piece at a time until the
/// parser is complete, then, if the bytes ran out first, the end of the connection (a stream with
/// no byte at all is a lost connection, not a response). The bytes go in whole, in the input's
/// pieces, and (for inputs up to 4 KiB) a byte at a time.
///
/// Invariants, beyond never trapping:
/// - the outcome is the same however the bytes are split: the same error (its kind and text), or
///   the same status, fields, body, "complete before the close" and "connection reusable" (a
///   response followed by more bytes, fed or not, leaves the connection unusable either way: the
///   loop closes an idle connection the server speaks on). One allowance: a coded body refused
///   both ways may be refused for different faults (``refusesTheSameCodedBody(_:_:)``);
/// - a reusable connection follows a response complete before the close;
/// - a final status is 200–599, and a HEAD, 204 or 304 response has no body;
/// - a body kept in memory is within the limit.
enum ResponseIntakeTarget {
    /// What one run of the intake made of a response.
    struct Outcome: Equatable, CustomStringConvertible {
        /// The error that ended the call, as its kind and text; `nil` for a response.
        var error: String?
        var statusCode = 0
        var headers = HTTPHeaders()
        var body = Data()
        /// Whether the parser had the whole response before the bytes ran out.
        var isCompleteBeforeClose = false
        /// Whether the connection could carry the next request.
        var isReusable = false

        var description: String {
            if let error { return "error \(error)" }
            return
                "\(statusCode) \(headers) body \(body.count) bytes \(Array(body.prefix(64))) complete \(isCompleteBeforeClose) reusable \(isReusable)"
        }
    }

    static let limits: [Int?] = [nil, 16, 256, 4096]
    static let url = URL(string: "http://127.0.0.1/fuzz")!

    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let method = mode & 1 == 1 ? "HEAD" : "GET"
        let limit = limits[Int(mode >> 1 & 3)]
        let sizes = (0..<Int(input.byte() % 8)).map { _ in max(1, Int(input.byte())) }
        let response = input.rest()

        let whole = outcome(of: response, method: method, limit: limit, sizes: [max(1, response.count)])
        var others = [outcome(of: response, method: method, limit: limit, sizes: sizes.isEmpty ? [3] : sizes)]
        if response.count <= 4096 { others.append(outcome(of: response, method: method, limit: limit, sizes: [1])) }
        for other in others {
            fuzzCheck(
                other == whole || refusesTheSameCodedBody(whole, other),
                "\(method), limit \(String(describing: limit)), pieces \(sizes)\nwhole: \(whole)\nsplit: \(other)")
        }
        guard whole.error == nil else { return }
        fuzzCheck(!whole.isReusable || whole.isCompleteBeforeClose, "reusable before the response is complete")
        fuzzCheck((200...599).contains(whole.statusCode), "final status \(whole.statusCode)")
        if method == "HEAD" || whole.statusCode == 204 || whole.statusCode == 304 {
            fuzzCheck(whole.body.isEmpty, "a body of \(whole.body.count) bytes where none may be")
        }
        if let limit {
            fuzzCheck(whole.body.count <= limit, "a body of \(whole.body.count) bytes over the limit \(limit)")
        }
    }

    /// Whether two outcomes both refuse a coded body, whatever each says. ``ContentDecoder`` hands
    /// out what it inflated when its buffer fills or a piece ends, so the pieces decide which fault
    /// is met first: a piece that ends before a fault in the coded data can pass the limit first,
    /// or (with chained codings) let the next coding fail on the partial output, while one piece
    /// reaches the first coding's fault before anything is handed on (the `inflate` target allows
    /// the same). Only a coded body can be undecodable, so a plain body is always compared exactly.
    static func refusesTheSameCodedBody(_ one: Outcome, _ other: Outcome) -> Bool {
        guard let first = one.error, let second = other.error else { return false }
        let undecodable = "URLError \(URLError.Code.cannotDecodeContentData.rawValue):"
        let tooLarge = "WebServiceError.responseTooLarge"
        let refusals = [first, second].filter { $0.hasPrefix(undecodable) || $0.hasPrefix(tooLarge) }
        return refusals.count == 2 && refusals.contains { $0.hasPrefix(undecodable) }
    }

    /// Feeds `bytes` to a fresh intake in pieces of `sizes` (cycled) until its parser is complete,
    /// then ends the response as the loop does when the bytes run out.
    static func outcome(of bytes: [UInt8], method: String, limit: Int?, sizes: [Int]) -> Outcome {
        let context = TransportContext(
            call: CallDescriptor(CallFields(relativePath: "fuzz"), supportsSerializationRoot: false), uploadLength: nil,
            progress: nil, responseBody: ResponseBodySink(maximumSize: limit, download: nil, progress: nil))
        var intake = ResponseIntake(method: method, context: context)
        var offset = 0
        var turn = 0
        do {
            while offset < bytes.count, !intake.parser.isComplete {
                let end = min(bytes.count, offset + sizes[turn % sizes.count])
                // As a socket read hands them over: a raw buffer, valid only for the call.
                try bytes[offset..<end].withUnsafeBytes { try intake.take($0) }
                offset = end
                turn += 1
            }
            let complete = intake.parser.isComplete
            // The loop's end of stream: no byte at all is a lost connection (retried when reused).
            guard intake.parser.hasReceivedBytes else { return Outcome(error: "no response") }
            let response = try intake.finish(url: url)
            return Outcome(
                statusCode: response.statusCode, headers: response.headers, body: response.body,
                isCompleteBeforeClose: complete,
                isReusable: intake.parser.leavesConnectionReusable && offset == bytes.count)
        } catch {
            return Outcome(error: describe(error))
        }
    }

    /// An error's kind and text, to compare.
    static func describe(_ error: any Error) -> String {
        if let error = error as? URLError {
            return "URLError \(error.code.rawValue): \(error.localizedDescription)"
        }
        if case .responseTooLarge(let limit, let statusCode)? = (error as? WebServiceError)?.reason {
            return "WebServiceError.responseTooLarge(limit: \(limit), statusCode: \(statusCode))"
        }
        if let error = error as? WebServiceError { return "WebServiceError \(error)" }
        return "\(type(of: error)) \(error)"
    }
}

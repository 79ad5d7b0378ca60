import Foundation

/// The `Range` field (RFC 9110 §14.1.2, §14.2) and the 206 the cache cuts from a stored 200
/// (``RangeServing``), against hostile values: huge numbers, signs, whitespace, any bytes.
///
/// Input: the first 8 bytes give a representation length (0 to `Int64.max`), which the ranges
/// are resolved in, and the stored body's length, that length modulo 4,096; the rest is split at
/// 0xFF (``fuzzFields(_:)``) into the `Range` value, an `If-Range` value and the stored `ETag`.
///
/// Beyond not crashing:
/// - every parsed int-range has `first <= last`, every position and suffix length is at least 0;
/// - written back in canonical form (`bytes=a-b,c-,-d`), a field whose numbers are below the
///   saturation point parses to the same ranges;
/// - a resolved range lies inside the representation (`0 <= first <= last < length`);
/// - the cache's answer is the stored 200 unchanged or a 206 whose body is the stored bytes
///   `first...last`, whose `Content-Length` is its body's length and whose `Content-Range` reads
///   `bytes first-last/length`; it is a 206 exactly when the request has one satisfiable byte
///   range and `If-Range`, if any, matches.
enum ByteRangeTarget {
    static func run(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let representationLength = Int64(input.integer(UInt64.self) >> 1)
        let length = Int(representationLength % 4096)
        let fields = fuzzFields(input.rest())
        let rangeValue = fields.first ?? ""
        let parsed = RangeRequest(fieldValue: rangeValue)

        if case .bytes(let specs) = parsed {
            fuzzCheck(!specs.isEmpty, "\(rangeValue.debugDescription): an empty range set parsed")
            var canonical: [String] = []
            var saturated = false
            for spec in specs {
                switch spec {
                case .from(let first, let last):
                    fuzzCheck(
                        first >= 0 && (last.map { $0 >= first } ?? true), "\(rangeValue.debugDescription): \(spec)")
                    saturated = saturated || first == .max || last == .max
                    canonical.append("\(first)-\(last.map(String.init) ?? "")")
                case .suffix(let suffixLength):
                    fuzzCheck(suffixLength >= 0, "\(rangeValue.debugDescription): \(spec)")
                    saturated = saturated || suffixLength == .max
                    canonical.append("-\(suffixLength)")
                }
                for total in [representationLength, Int64(length)] {
                    guard let range = spec.resolved(length: total) else { continue }
                    fuzzCheck(
                        range.lowerBound >= 0 && range.upperBound < total, "\(spec) resolved to \(range) of \(total)")
                }
            }
            if !saturated {
                let back = RangeRequest(fieldValue: "bytes=" + canonical.joined(separator: ","))
                fuzzCheck(back == parsed, "\(rangeValue.debugDescription) → \(canonical) → \(back)")
            }
        }

        var stored: HTTPHeaders = ["Content-Length": String(length)]
        if fields.count > 2 { stored["ETag"] = fields[2] }
        var request: HTTPHeaders = ["Range": rangeValue]
        if fields.count > 1 { request["If-Range"] = fields[1] }
        let body = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let response = TransportResponse(statusCode: 200, headers: stored, body: body, source: .cache)
        let answer = RangeServing.answer(response, to: request)
        let expected = parsed.singleByteRange?.resolved(length: Int64(length))
        let matches = RangeServing.ifRangeMatches(request.values(for: "If-Range"), stored)
        guard let expected, matches else {
            fuzzCheck(
                answer.statusCode == 200 && answer.body == body && answer.headers["Content-Range"] == nil,
                "\(rangeValue.debugDescription) of \(length): \(answer.statusCode), not the whole response")
            return
        }
        let lower = Int(expected.lowerBound)
        let upper = Int(expected.upperBound)
        fuzzCheck(answer.statusCode == 206, "\(rangeValue.debugDescription) of \(length): \(answer.statusCode)")
        fuzzCheck(answer.body == body[lower...upper], "\(rangeValue.debugDescription): the wrong bytes")
        fuzzCheck(answer.headers["Content-Length"] == String(upper - lower + 1), "Content-Length of \(expected)")
        fuzzCheck(
            answer.headers["Content-Range"] == "bytes \(lower)-\(upper)/\(length)",
            "\(rangeValue.debugDescription): Content-Range \(answer.headers["Content-Range"] ?? "none")")
    }
}

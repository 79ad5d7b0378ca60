import Foundation

/// `multipart/form-data` bodies (RFC 7578 over RFC 2046 §5.1.1) built from arbitrary names, file
/// names, content types and contents.
///
/// Input: fields separated by 0xFF: the boundary (empty, or not a valid one: a random boundary),
/// then four fields per part: name, file name, content type (`<none>` for none) and content.
///
/// Beyond not crashing, the body is read back with the small RFC 2046 reader below, which must
/// find exactly one part per `FormData`, in order, and in each:
/// - a `Content-Disposition` line holding the name and file name as quoted strings that are
///   their RFC 7578 §4.2 escapes (no raw `"`, CR or LF: the header stays one line);
/// - the `Content-Type` given, if any, and exactly the content given.
/// The delimiter (`CRLF--boundary`) occurs nowhere else, and the body ends with the close
/// delimiter. Building fails only with a typed error, and only for a content type that is not a
/// valid field value or content that holds `--boundary` at the start of a line.
enum MultipartTarget {
    static func run(_ bytes: [UInt8]) {
        let fields = fuzzFields(bytes)
        var parts: [FormData] = []
        var index = 1
        while index < fields.count {
            let field: (Int) -> String? = { offset in
                let value = index + offset < fields.count ? fields[index + offset] : "<none>"
                return value == "<none>" ? nil : value
            }
            parts.append(
                FormData(
                    name: field(0) ?? "", content: .data(Data((field(3) ?? "").utf8)), fileName: field(1),
                    contentType: field(2)))
            index += 4
        }
        // The library never builds a form without parts (RFC 2046 §5.1.1 requires one).
        guard !parts.isEmpty else { return }
        let requested = fields[0]
        let boundary =
            !requested.isEmpty && MultipartBoundary.problem(in: requested) == nil
            ? requested : MultipartBoundary.random(avoiding: parts)
        fuzzCheck(MultipartBoundary.problem(in: boundary) == nil, "boundary \(boundary.debugDescription)")

        let form = MultipartForm(parts: parts, boundary: boundary)
        let body: Data
        do {
            guard case .data(let data) = try form.makeBody(inMemoryLimit: Int.max).storage else {
                return fuzzCheck(false, "an in-memory form became a stream")
            }
            body = data
        } catch {
            let badType = parts.contains { $0.contentType.map { HeaderValidation.problem(in: $0) != nil } ?? false }
            // The delimiter at the start of a line, a bare LF counting as a line break.
            let delimiter = Data("\n--\(boundary)".utf8)
            let collides = parts.contains { part in
                guard case .data(let data) = part.content else { return false }
                return (Data("\n".utf8) + data).range(of: delimiter) != nil
            }
            fuzzCheck(badType || collides, "refused a valid form: \(error)")
            return
        }
        checkBody(body, boundary: boundary, parts: parts)
    }

    private static func checkBody(_ body: Data, boundary: String, parts: [FormData]) {
        let bytes = [UInt8](body)
        let opening = Array("--\(boundary)".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        fuzzCheck(bytes.starts(with: opening + Array("\r\n".utf8)), "the body does not open with the boundary")
        fuzzCheck(bytes.ends(with: delimiter + Array("--\r\n".utf8)), "the body does not close with the boundary")
        // Every delimiter: at the start, or CRLF--boundary anywhere.
        var starts = [0]
        var position = 0
        while let found = find(delimiter, in: bytes, from: position) {
            starts.append(found + 2)
            position = found + 1
        }
        fuzzCheck(starts.count == parts.count + 1, "\(starts.count) delimiters for \(parts.count) parts")
        guard starts.count == parts.count + 1 else { return }
        for (number, part) in parts.enumerated() {
            let start = starts[number] + opening.count + 2
            let end = starts[number + 1] - 2
            fuzzCheck(start <= end, "part \(number) is cut short")
            guard start <= end else { return }
            checkPart(Array(bytes[start..<end]), part: part, number: number)
        }
    }

    private static func checkPart(_ bytes: [UInt8], part: FormData, number: Int) {
        guard let blank = find(Array("\r\n\r\n".utf8), in: bytes, from: 0) else {
            return fuzzCheck(false, "part \(number) has no end of header")
        }
        let lines = String(decoding: bytes[..<blank], as: UTF8.self).components(separatedBy: "\r\n")
        var expected = "Content-Disposition: form-data; name=\"\(MultipartForm.escape(part.name))\""
        if let fileName = part.fileName { expected += "; filename=\"\(MultipartForm.escape(fileName))\"" }
        fuzzCheck(lines.first == expected, "part \(number) has \(lines.first.debugDescription), not \(expected)")
        for name in [part.name] + (part.fileName.map { [$0] } ?? []) {
            let quoted = MultipartForm.escape(name)
            fuzzCheck(!quoted.contains("\"") && !quoted.contains("\r") && !quoted.contains("\n"), "raw \(quoted)")
            if !name.contains("%") {
                fuzzCheck(unescape(quoted) == name, "\(name.debugDescription) does not read back")
            }
        }
        let typeLines = part.contentType.map { ["Content-Type: \($0)"] } ?? []
        fuzzCheck(Array(lines.dropFirst()) == typeLines, "part \(number) header lines \(lines)")
        guard case .data(let content) = part.content else { return }
        fuzzCheck(bytes[(blank + 4)...].elementsEqual(content), "part \(number) content differs")
    }

    /// The reading side of RFC 7578 §4.2's escapes, on bytes (a combining mark after `%22` would
    /// hide it from a search by `Character`).
    private static func unescape(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count {
                let code = String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self)
                if let byte = ["22": UInt8(ascii: "\""), "0D": 0x0D, "0A": 0x0A][code] {
                    result.append(byte)
                    index += 3
                    continue
                }
            }
            result.append(bytes[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for index in start...(bytes.count - needle.count) where bytes[index] == needle[0] {
            if bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && self.suffix(suffix.count).elementsEqual(suffix)
    }
}

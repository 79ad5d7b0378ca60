import Foundation

/// A `multipart/form-data` body: RFC 7578 framing over RFC 2046 §5.1.1 delimiters.
///
/// `--B CRLF headers CRLF CRLF data CRLF` per part, then the close delimiter `--B--` CRLF (which
/// ROAD forgot). The length is computed up front when every part's length is known, so the
/// request carries `Content-Length` and streams without chunking.
struct MultipartForm {
    let parts: [FormData]
    let boundary: String
    /// How names and file names are written in `Content-Disposition`.
    var nameEscaping: MultipartNameEscaping = .percentEncoding

    /// The `Content-Type` of the body, the boundary quoted when it is not a token (RFC 9110 §5.6.6).
    var contentType: String {
        let isToken = boundary.utf8.allSatisfy(HTTPToken.isTokenCharacter)
        return "multipart/form-data; boundary=" + (isToken ? boundary : "\"\(boundary)\"")
    }

    /// The body: bytes when everything is small and in memory, else a stream read part by part.
    func makeBody(inMemoryLimit: Int = 1 << 20) throws(WebServiceError) -> RequestBody {
        let delimiters = Delimiters(boundary: boundary)
        let lineEnd = Data("\r\n".utf8)
        var segments: [MultipartSegment] = []
        segments.reserveCapacity(parts.count * 3 + 1)
        for part in parts {
            segments.append(.bytes(try header(for: part)))
            switch part.content {
            case .data(let data):
                if delimiters.occur(in: data) {
                    throw .invalidArguments(
                        index: nil,
                        reason:
                            "part \"\(part.name)\" contains the multipart boundary \"\(boundary)\" at the start of a line "
                            + "(RFC 2046 §5.1.1); choose another multipartBoundary, or none for a random one")
                }
                segments.append(.bytes(data))
            case .file(let url): segments.append(.file(url, length: try Self.fileLength(url, part: part.name)))
            case .stream(let length, let isReplayable, let open):
                guard length >= 0 else {
                    throw .invalidArguments(index: nil, reason: "part \"\(part.name)\" has a negative length")
                }
                segments.append(.stream(open, length: length, isReplayable: isReplayable))
            }
            segments.append(.bytes(lineEnd))
        }
        segments.append(.bytes(Data("--\(boundary)--\r\n".utf8)))
        let merged = MultipartSegment.merged(segments)
        let length = merged.reduce(Int64(0)) { $0 + $1.length }
        // Everything in memory has merged into one segment: it is the body, not copied again.
        if merged.count == 1, case .bytes(let data) = merged[0], length <= inMemoryLimit {
            return .data(data)
        }
        let isReplayable = merged.allSatisfy(\.isReplayable)
        return .stream(length: length, isReplayable: isReplayable) { MultipartInputStream(segments: merged) }
    }

    /// Whether `data` holds the delimiter `CRLF--B` (RFC 2046 §5.1.1), which would end the part
    /// early; the data follows a CRLF, so it may not start with `--B` either. A bare LF counts as
    /// a line break too, as lenient servers read it. A random boundary never occurs in in-memory
    /// data (``MultipartBoundary/random(avoiding:)``); a fixed one may.
    func holdsDelimiter(_ data: Data) -> Bool { Delimiters(boundary: boundary).occur(in: data) }

    /// The byte patterns ``holdsDelimiter(_:)`` looks for, made once per body rather than once per part.
    private struct Delimiters {
        let dashBoundary: Data
        let afterLineBreak: Data

        init(boundary: String) {
            dashBoundary = Data("--\(boundary)".utf8)
            afterLineBreak = Data("\n--\(boundary)".utf8)
        }

        func occur(in data: Data) -> Bool {
            data.starts(with: dashBoundary) || data.range(of: afterLineBreak) != nil
        }
    }

    /// `--B CRLF Content-Disposition… CRLF [Content-Type… CRLF] CRLF`.
    func header(for part: FormData) throws(WebServiceError) -> Data {
        var header = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(nameEscaping.escape(part.name))\""
        if let fileName = part.fileName { header += "; filename=\"\(nameEscaping.escape(fileName))\"" }
        header += "\r\n"
        if let contentType = part.contentType {
            if let problem = HeaderValidation.problem(in: contentType) {
                throw .invalidHeader(name: "Content-Type of part \"\(part.name)\"", reason: problem)
            }
            header += "Content-Type: \(contentType)\r\n"
        }
        header += "\r\n"
        return Data(header.utf8)
    }

    /// The HTML form-encoding rule that RFC 7578 §4.2 defers to (it forbids `filename*`):
    /// names and file names are UTF-8 with `"`, CR and LF written `%22`, `%0D`, `%0A`.
    static func escape(_ text: String) -> String { MultipartNameEscaping.percentEncoding.escape(text) }

    private static func fileLength(_ url: URL, part: String) throws(WebServiceError) -> Int64 {
        guard url.isFileURL else {
            throw .invalidArguments(index: nil, reason: "part \"\(part)\": \(url) is not a file URL")
        }
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .invalidArguments(index: nil, reason: "part \"\(part)\": no file at \(path)")
        }
        guard !isDirectory.boolValue else {
            throw .invalidArguments(index: nil, reason: "part \"\(part)\": \(path) is a directory")
        }
        guard FileManager.default.isReadableFile(atPath: path),
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber
        else {
            throw .invalidArguments(index: nil, reason: "part \"\(part)\": \(path) is not readable")
        }
        return size.int64Value
    }
}

/// Boundaries (RFC 2046 §5.1.1): 1–70 characters from `bchars`, not ending with a space.
enum MultipartBoundary {
    private static let bchars = URLEncoding.ByteSet(
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'()+_,-./:=? ")

    /// Why `boundary` cannot be used, or `nil` when it can.
    static func problem(in boundary: String) -> String? {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count) else { return "a boundary has 1 to 70 characters (RFC 2046 §5.1.1)" }
        guard bytes.allSatisfy(bchars.contains) else {
            return "a boundary uses only digits, letters and '()+_,-./:=? (RFC 2046 §5.1.1)"
        }
        guard bytes.last != UInt8(ascii: " ") else { return "a boundary cannot end with a space (RFC 2046 §5.1.1)" }
        return nil
    }

    /// A random boundary that occurs in none of the in-memory parts.
    static func random(avoiding parts: [FormData]) -> String {
        while true {
            var generator = SystemRandomNumberGenerator()
            let suffix = (0..<2).map { _ in String(generator.next() as UInt64, radix: 36) }.joined(separator: "-")
            let boundary = "WebServiceKit-" + suffix
            let marker = Data(boundary.utf8)
            let collides = parts.contains { part in
                if case .data(let data) = part.content { return data.range(of: marker) != nil }
                return false
            }
            if !collides { return boundary }
        }
    }
}

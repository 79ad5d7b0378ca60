import Foundation

/// How a body appears in a `.body` message: its text up to the size limit, or a summary.
enum LogBody {
    /// The lines that show `data`, whose media type is `contentType`; none for an empty body.
    static func lines(of data: Data, contentType: String?, limit: Int, secrets: LogRedaction.Secrets) -> [String] {
        guard !data.isEmpty else { return [] }
        guard let text = text(of: data, contentType: contentType, limit: limit) else {
            return [binarySummary(byteCount: data.count, contentType: contentType)]
        }
        if text.shownBytes == data.count { return [secrets.scrub(text.text)] }
        let marker = "[truncated: \(text.shownBytes) of \(data.count) bytes shown]"
        return text.text.isEmpty ? [marker] : [secrets.scrub(truncated: text.text), marker]
    }

    /// The summary of a body that is not text: `[binary 12345 bytes, application/octet-stream]`.
    static func binarySummary(byteCount: Int, contentType: String?) -> String {
        guard let contentType, !contentType.isEmpty else { return "[binary \(byteCount) bytes]" }
        return "[binary \(byteCount) bytes, \(contentType)]"
    }

    /// The summary of a body read from a stream, which the log never reads.
    static func streamedSummary(length: Int64?) -> String {
        length.map { "[streamed body, \($0) bytes]" } ?? "[streamed body, unknown length]"
    }

    /// The summary of a body that the transport wrote to a download's file, which the log never
    /// reads.
    static func fileSummary(length: Int64) -> String { "[body written to a file, \(length) bytes]" }

    /// The first `limit` bytes (or a little less, to end on a whole character) as text, or `nil`
    /// when the body is not text.
    private static func text(of data: Data, contentType: String?, limit: Int) -> (text: String, shownBytes: Int)? {
        let mediaType = contentType.map(Self.mediaType(of:))
        if let mediaType, isBinary(mediaType) { return nil }
        let charset = Charset.fromContentType(contentType) ?? .utf8
        let prefix = data.prefix(max(0, limit))
        // A cut in the middle of a multi-byte character: drop its first bytes.
        let maximumDropped = prefix.count < data.count ? min(3, prefix.count) : 0
        for dropped in 0...maximumDropped {
            let shown = prefix.dropLast(dropped)
            guard let text = String(data: Data(shown), encoding: charset.encoding) else { continue }
            if mediaType.map(isText) != true, !looksLikeText(text) { return nil }
            return (text, shown.count)
        }
        return nil
    }

    /// `type/subtype`, lowercased, without parameters.
    private static func mediaType(of contentType: String) -> String {
        let end = contentType.firstIndex(of: ";") ?? contentType.endIndex
        return contentType[..<end].trimmingCharacters(in: .whitespaces).lowercased()
    }

    private static func isText(_ mediaType: String) -> Bool {
        mediaType.hasPrefix("text/") || mediaType.hasSuffix("+json") || mediaType.hasSuffix("+xml")
            || [
                "application/json", "application/xml", "application/x-www-form-urlencoded", "application/javascript",
                "application/graphql", "application/x-ndjson",
            ].contains(mediaType)
    }

    private static func isBinary(_ mediaType: String) -> Bool {
        ["image/", "audio/", "video/", "font/"].contains { mediaType.hasPrefix($0) }
            || [
                "application/octet-stream", "application/pdf", "application/zip", "application/gzip",
                "application/x-protobuf", "application/protobuf", "application/vnd.apple.pkpass",
            ].contains(mediaType)
    }

    /// Text of an unknown or unnamed media type: no control characters but tab, CR and LF
    /// (OkHttp's `isProbablyUtf8` looks at the same thing).
    private static func looksLikeText(_ text: String) -> Bool {
        !text.unicodeScalars.prefix(256).contains { scalar in
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0x7F
                || scalar == "\u{FFFD}"
        }
    }
}

import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Reads the OData error formats into ``ODataError``.
enum ODataErrorParsing {
    /// The deepest nesting of arrays and objects read from a JSON error body: 64.
    ///
    /// `JSONSerialization` stops at 512 levels, but reading, checking and writing back an
    /// `innererror` that deep recurses past a 512 KiB stack (a Task's on Apple platforms) in a
    /// debug build. A deeper body is not read as an OData error: the handler keeps its first
    /// ``ODataErrorHandler/messageLimit`` bytes as the message.
    static let maximumJSONDepth = 64

    /// `{"error": {...}}` (v4, v2) or `{"odata.error": {...}}` (v3); `nil` for anything else,
    /// and for a body nested deeper than ``maximumJSONDepth``.
    static func json(_ body: Data, statusCode: Int) -> ODataError? {
        guard !nestsDeeper(than: maximumJSONDepth, body),
            let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let object = (root["error"] ?? root["odata.error"]) as? [String: Any]
        else { return nil }
        let (message, language) = messageAndLanguage(object["message"])
        let details = (object["details"] as? [[String: Any]] ?? []).map { detail in
            ODataError.Detail(
                code: string(detail["code"]), message: messageAndLanguage(detail["message"]).0,
                target: string(detail["target"]))
        }
        let inner = (object["innererror"] ?? object["innerError"]).flatMap { value -> String? in
            guard JSONSerialization.isValidJSONObject(value),
                let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
            else { return string(value) }
            return String(decoding: data, as: UTF8.self)
        }
        return ODataError(
            statusCode: statusCode, code: string(object["code"]), message: message, language: language,
            target: string(object["target"]), details: details, innerError: inner)
    }

    /// Whether the arrays and objects of the JSON text `body` nest deeper than `limit`: one pass
    /// over the bytes, skipping strings (RFC 8259 §7: `"` ends a string unless escaped).
    static func nestsDeeper(than limit: Int, _ body: Data) -> Bool {
        var depth = 0
        var strings = JSONStringSkipper()
        for byte in body {
            if strings.isInString {
                strings.feed(byte)
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): strings.enter()
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return false
    }

    /// The message is a string (v4) or `{"lang": …, "value": …}` (v2/v3).
    private static func messageAndLanguage(_ value: Any?) -> (String, String?) {
        if let object = value as? [String: Any] {
            return (string(object["value"]) ?? "", string(object["lang"]))
        }
        return (string(value) ?? "", nil)
    }

    private static func string(_ value: Any?) -> String? {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: nil
        }
    }

    /// `<m:error><m:code/><m:message xml:lang="en">…</m:message><m:innererror>…</m:innererror></m:error>`
    /// (the Atom/XML format of OData 2.0–4.0).
    static func xml(_ body: Data, statusCode: Int) -> ODataError? {
        guard body.prefix(256).contains(UInt8(ascii: "<")) else { return nil }
        let reader = ErrorDocumentReader()
        let parser = XMLParser(data: body)
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        guard parser.parse(), reader.isErrorDocument else { return nil }
        return ODataError(
            statusCode: statusCode, code: reader.fields["code"], message: reader.fields["message"] ?? "",
            language: reader.language, target: reader.fields["target"], details: [],
            innerError: reader.fields["innererror"])
    }

    private final class ErrorDocumentReader: NSObject, XMLParserDelegate {
        var isErrorDocument = false
        var fields: [String: String] = [:]
        var language: String?
        private var path: [String] = []
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            if path.isEmpty { isErrorDocument = elementName == "error" }
            path.append(elementName)
            text = ""
            if path.count == 2, elementName == "message" {
                language = attributes["xml:lang"] ?? attributes["lang"]
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            if path.count == 2, isErrorDocument {
                fields[elementName] = text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            path.removeLast()
            text = ""
        }
    }
}

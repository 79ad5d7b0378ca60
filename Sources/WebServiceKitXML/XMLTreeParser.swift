import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Parses XML data into an ``XMLTreeElement`` tree with `XMLParser`.
///
/// External entities are never loaded. Only the predefined entities (`&amp;` …) and character
/// references (`&#1055;`, `&#x1F600;`) are expanded; libxml2 rejects exponential entity
/// expansion on its own.
enum XMLTreeParser {
    /// Returns the root element of the document in `data`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the data is not well-formed XML (the
    ///   description names the line and column), has no root element, or nests deeper than
    ///   `maximumDepth` elements.
    static func parse(_ data: Data, maximumDepth: Int) throws -> XMLTreeElement {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder(maximumDepth: maximumDepth)
        parser.delegate = builder
        let succeeded = parser.parse()
        parser.delegate = nil
        // XMLParser sometimes reports an error and still returns true, so the builder's record counts first.
        if let failure = builder.failure { throw failure }
        if !succeeded {
            throw malformed(
                reason: describe(parser.parserError), line: parser.lineNumber, column: parser.columnNumber,
                underlyingError: parser.parserError)
        }
        guard let root = builder.root else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid XML: it contains no root element."))
        }
        return root
    }

    /// The error for data that is not well-formed XML.
    static func malformed(reason: String, line: Int, column: Int, underlyingError: (any Error)?) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: [],
                debugDescription: "The given data was not valid XML: \(reason) at line \(line), column \(column).",
                underlyingError: underlyingError))
    }

    /// A readable description of an `XMLParser` error, such as `end tag does not match start tag (code 76)`.
    ///
    /// `XMLParser` error codes are libxml2's `xmlParserErrors`; the common ones are spelled out here
    /// because `XMLParser.ErrorCode` names do not match the codes on every platform.
    static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "unknown parser error" }
        let code = (error as NSError).code
        return "\(reason(forCode: code)) (code \(code))"
    }

    private static func reason(forCode code: Int) -> String {
        switch code {
        case 3, 4: "no root element"
        case 5, 86: "extra content after the root element"
        case 6, 7, 8: "invalid character reference"
        case 9: "character not allowed in XML"
        case 23: "entity reference without ';'"
        case 26, 27: "undeclared entity"
        case 32, 81: "unsupported or invalid encoding"
        case 33, 34: "quoted string not started or not closed"
        case 38: "'<' in an attribute value"
        case 39, 40, 41: "malformed attribute value"
        case 42: "attribute given twice"
        case 65: "space required"
        case 68: "name expected"
        case 73: "'>' expected"
        case 74: "'</' expected"
        case 76: "end tag does not match start tag"
        case 77: "element not closed"
        case 85: "elements not well balanced"
        case 89: "entity loop or excessive entity expansion"
        default: "XMLParser error"
        }
    }
}

/// The `XMLParser` delegate that builds the tree; it lives for one `parse` call on one thread only.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// An element being read, and whether it has text other than whitespace (or any CDATA).
    private struct OpenElement {
        let element: XMLTreeElement
        var hasSignificantText = false
    }

    private let maximumDepth: Int
    private var stack: [OpenElement] = []
    private(set) var root: XMLTreeElement?
    private(set) var failure: DecodingError?

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        guard stack.count < maximumDepth else {
            fail(parser, reason: "elements nest deeper than the maximum depth of \(maximumDepth)")
            return
        }
        if stack.isEmpty && root != nil {
            fail(parser, reason: "a second root element <\(elementName)> follows the first")
            return
        }
        let attributes = attributeDict.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        stack.append(OpenElement(element: XMLTreeElement(name: elementName, attributes: attributes)))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard failure == nil, let open = stack.popLast() else { return }
        let element = open.element
        if !open.hasSignificantText && !element.children.isEmpty {
            element.text = ""  // indentation between child elements
        }
        if let parent = stack.last {
            parent.element.append(element)
        } else {
            root = element
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard failure == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].element.text += string
        if string.unicodeScalars.contains(where: { !XMLTreeBuilder.isWhitespace($0) }) {
            stack[stack.count - 1].hasSignificantText = true
        }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        guard failure == nil, !stack.isEmpty else { return }
        stack[stack.count - 1].element.text += String(decoding: block, as: UTF8.self)
        stack[stack.count - 1].hasSignificantText = true
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard failure == nil else { return }
        // libxml2's namespace warnings (codes 200-299, e.g. an undeclared prefix) do not make the document unreadable.
        let code = (parseError as NSError).code
        if (200..<300).contains(code) { return }
        failure = XMLTreeParser.malformed(
            reason: XMLTreeParser.describe(parseError), line: parser.lineNumber, column: parser.columnNumber,
            underlyingError: parseError)
        parser.abortParsing()
    }

    private func fail(_ parser: XMLParser, reason: String) {
        failure = XMLTreeParser.malformed(
            reason: reason, line: parser.lineNumber, column: parser.columnNumber, underlyingError: nil)
        parser.abortParsing()
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }
}

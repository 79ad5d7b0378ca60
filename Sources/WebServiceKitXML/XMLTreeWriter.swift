#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// Writes an ``XMLTreeElement`` tree as XML text.
///
/// Names and text were checked by the encoder (``XMLSyntax``), so writing cannot fail.
struct XMLTreeWriter {
    /// Whether to put each child element on its own line, indented by four spaces per level.
    ///
    /// Only elements without text of their own are indented, so no character content changes.
    var prettyPrinted = false

    /// Returns the XML text for `root`, preceded by `declaration` when it is not `nil`.
    func document(_ root: XMLTreeElement, declaration: String?) -> String {
        var output = ""
        if let declaration {
            output += declaration
            if prettyPrinted { output += "\n" }
        }
        write(root, depth: 0, to: &output)
        if prettyPrinted { output += "\n" }
        return output
    }

    private func write(_ element: XMLTreeElement, depth: Int, to output: inout String) {
        output += "<"
        output += element.name
        for attribute in element.attributes {
            output += " "
            output += attribute.name
            output += "=\""
            XMLTreeWriter.appendEscaped(attribute.value, inAttribute: true, to: &output)
            output += "\""
        }
        if element.children.isEmpty && element.text.isEmpty {
            output += "/>"
            return
        }
        output += ">"
        XMLTreeWriter.appendEscaped(element.text, inAttribute: false, to: &output)
        let indents = prettyPrinted && element.text.isEmpty
        for child in element.children {
            if indents { newline(depth: depth + 1, to: &output) }
            write(child, depth: depth + 1, to: &output)
        }
        if indents && !element.children.isEmpty { newline(depth: depth, to: &output) }
        output += "</"
        output += element.name
        output += ">"
    }

    private func newline(depth: Int, to output: inout String) {
        output += "\n"
        output += String(repeating: "    ", count: depth)
    }

    /// Appends `text` with the markup characters replaced by entities.
    ///
    /// `&`, `<` and `>` are always escaped, and `\r` as `&#13;` so that parsers do not turn it into
    /// `\n`. Inside attribute values `"` and `'` are escaped too, and so are tab and line feed,
    /// which a parser would otherwise normalize to spaces.
    static func appendEscaped(_ text: String, inAttribute: Bool, to output: inout String) {
        guard text.unicodeScalars.contains(where: { needsEscape($0, inAttribute: inAttribute) }) else {
            output += text
            return
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": scalars.append(contentsOf: "&amp;".unicodeScalars)
            case "<": scalars.append(contentsOf: "&lt;".unicodeScalars)
            case ">": scalars.append(contentsOf: "&gt;".unicodeScalars)
            case "\r": scalars.append(contentsOf: "&#13;".unicodeScalars)
            case "\"" where inAttribute: scalars.append(contentsOf: "&quot;".unicodeScalars)
            case "'" where inAttribute: scalars.append(contentsOf: "&apos;".unicodeScalars)
            case "\n" where inAttribute: scalars.append(contentsOf: "&#10;".unicodeScalars)
            case "\t" where inAttribute: scalars.append(contentsOf: "&#9;".unicodeScalars)
            default: scalars.append(scalar)
            }
        }
        output += String(scalars)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar, inAttribute: Bool) -> Bool {
        switch scalar {
        case "&", "<", ">", "\r": return true
        case "\"", "'", "\n", "\t": return inAttribute
        default: return false
        }
    }
}

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// One element of an XML document: the small tree both ``XMLValueEncoder`` and ``XMLValueDecoder`` work on.
///
/// The model keeps what `Codable` values need: the name, the attributes in order, the child
/// elements in order and the element's own character content (all its text and CDATA pieces
/// joined). Comments and processing instructions are not kept; when an element has both text and
/// child elements, the text is written before the children.
final class XMLTreeElement {
    /// The element's (qualified) name.
    let name: String
    /// The attributes, in document order when written; sorted by name when parsed.
    var attributes: [(name: String, value: String)]
    /// The child elements, in document order.
    private(set) var children: [XMLTreeElement]
    /// The element's character content; whitespace-only text between child elements is dropped by the parser.
    var text: String
    /// The children grouped by name, built on first lookup (the decoder only reads finished trees).
    private var childrenByName: [String: [XMLTreeElement]]?

    init(name: String, attributes: [(name: String, value: String)] = [], text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = []
        self.text = text
    }

    /// Appends `child` to the children.
    func append(_ child: XMLTreeElement) {
        children.append(child)
        childrenByName = nil
    }

    /// Appends a new, empty child element named `name` and returns it.
    func appendChild(named name: String) -> XMLTreeElement {
        let child = XMLTreeElement(name: name)
        append(child)
        return child
    }

    /// The child elements named `name`, in document order.
    func children(named name: String) -> [XMLTreeElement] {
        if let index = childrenByName { return index[name] ?? [] }
        let index = Dictionary(grouping: children, by: \.name)
        childrenByName = index
        return index[name] ?? []
    }

    /// The names of the child elements, each once, in the order they first appear.
    var childNames: [String] {
        var seen = Set<String>()
        return children.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    /// The value of the attribute named `name`, if present.
    func attribute(named name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// Whether the element carries `xsi:nil="true"`, the XML Schema way of writing a nil value.
    var isNil: Bool {
        guard let value = attribute(named: XMLTreeElement.nilAttribute) else { return false }
        return value == "true" || value == "1"
    }

    /// The attribute that marks a nil value: `xsi:nil`.
    static let nilAttribute = "xsi:nil"
    /// The declaration of the `xsi` prefix, written next to ``nilAttribute``.
    static let schemaInstanceNamespace = (name: "xmlns:xsi", value: "http://www.w3.org/2001/XMLSchema-instance")

    /// Marks the element as nil with a self-contained `xsi:nil="true"` (the prefix declared on the element itself).
    func markNil() {
        attributes.append(XMLTreeElement.schemaInstanceNamespace)
        attributes.append((XMLTreeElement.nilAttribute, "true"))
    }
}

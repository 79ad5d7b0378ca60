/// HTTP header fields in order, with case-insensitive lookup (RFC 9110 §5.1).
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One field.
    public struct Field: Sendable, Hashable {
        /// The name as it was written.
        public var name: String
        /// The value.
        public var value: String
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields in order.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Creates headers from a dictionary; fields are sorted by name so the order is reproducible.
    public init(_ dictionary: [String: String]) {
        // One array, sorted in place: not a sorted copy of the pairs and then the fields. The
        // names of a dictionary are distinct, so the order is the same whatever the sort.
        var fields: [Field] = []
        fields.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { fields.append(Field(name: name, value: value)) }
        fields.sort { $0.name < $1.name }
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The value of the first field named `name` (any case); setting replaces every field of that
    /// name, and `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            guard let first = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
                if let newValue { fields.append(Field(name: name, value: newValue)) }
                return
            }
            guard let newValue else {
                fields.removeAll { $0.name.caseInsensitiveEquals(name) }
                return
            }
            fields[first] = Field(name: name, value: newValue)
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if fields[index].name.caseInsensitiveEquals(name) { fields.remove(at: index) } else { index += 1 }
            }
        }
    }

    /// The values of every field named `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// The elements of the comma-separated lists in every field named `name` (RFC 9110 §5.6.1),
    /// in ASCII lowercase, empty ones left out: `Connection`, `Vary`, codings
    /// (``listElementBytes(_:)``).
    ///
    /// Read byte by byte: Foundation's `trimmingCharacters(in:)` bridged each element through
    /// `NSString`, some 19,000 instructions for the `Connection: keep-alive` of every response
    /// (callgrind, Docs/Performance.md), and trimmed Unicode spaces that are not `OWS`; Unicode
    /// lowercasing would read `chun` + KELVIN SIGN + `ed` as `chunked`. Only ASCII letters are
    /// lowered, as the tokens these lists hold are ASCII (§5.6.2).
    func listElements(for name: String) -> [String] {
        Self.listElementBytes(values(for: name)).map { element in
            String(decoding: element.lazy.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
    }

    /// The elements of the comma-separated lists in `values` (RFC 9110 §5.6.1), as bytes, without
    /// the optional whitespace around them (`OWS`: spaces and tabs, §5.6.3), empty ones left out.
    static func listElementBytes(_ values: [String]) -> [ArraySlice<UInt8>] {
        values.flatMap { value in
            Array(value.utf8).split(separator: UInt8(ascii: ",")).map(HTTPText.trimmingOWS).filter { !$0.isEmpty }
        }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool { fields.contains { $0.name.caseInsensitiveEquals(name) } }

    /// The fields as a dictionary, as `allHTTPHeaderFields` wants them.
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(fields.count)
        for field in fields { result[field.name] = field.value }
        return result
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The fields one a line, with the values of ``LogRedaction/alwaysRedactedHeaders``
    /// (`Authorization`, `Cookie`…, in any ASCII case) shown as ``LogRedaction/placeholder``, so
    /// that printing headers never prints a credential. Read a value with the subscript.
    public var description: String {
        fields.map { field in
            "\(field.name): \(Self.isAlwaysRedacted(field.name) ? LogRedaction.placeholder : field.value)"
        }.joined(separator: "\n")
    }

    /// Whether `name` is one of ``LogRedaction/alwaysRedactedHeaders`` in any ASCII case (RFC 9110
    /// §5.1); a look-alike with a non-ASCII letter is another name, and not a token at all.
    static func isAlwaysRedacted(_ name: String) -> Bool {
        LogRedaction.alwaysRedactedHeaders.contains { $0.caseInsensitiveEquals(name) }
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names need.
    func caseInsensitiveEquals(_ other: String) -> Bool {
        // Names are mostly written the same way: the byte comparison settles it at once.
        if self == other { return true }
        let lhs = utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 97 && (a | 0x20) <= 122)
        }
    }
}

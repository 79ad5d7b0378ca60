#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// A coding key made up by the XML coders: for array indices, dictionary-like lookups, `super`
/// and the steps of a decoding path.
struct XMLCodingKey: CodingKey, Sendable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }

    /// The key of the item at `index` of an array, shown as `Index 2` in coding paths.
    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    /// The key `superEncoder()` and `superDecoder()` use.
    static let `super` = XMLCodingKey(stringValue: "super")
}

#if canImport(WebServiceKit)
    import WebServiceKit
#endif

/// The lexical rules of XML 1.0 that the encoder checks before it writes a name or a text.
enum XMLSyntax {
    /// Whether `name` is an XML `Name` (XML 1.0 §2.3), so it can name an element or an attribute.
    ///
    /// Colons are accepted, so namespace prefixes such as `xsi:type` can be written.
    static func isValidName(_ name: String) -> Bool {
        var scalars = name.unicodeScalars.makeIterator()
        guard let first = scalars.next(), isNameStartCharacter(first) else { return false }
        while let scalar = scalars.next() {
            guard isNameCharacter(scalar) else { return false }
        }
        return true
    }

    /// The first character of `text` that XML 1.0 cannot carry, not even as a character reference
    /// (the control characters other than tab, line feed and carriage return, and U+FFFE, U+FFFF).
    static func firstInvalidCharacter(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { !isAllowedCharacter($0) }
    }

    private static func isAllowedCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    private static func isNameStartCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A, 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D,
            0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF,
            0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            return true
        default:
            return false
        }
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true
        default: return isNameStartCharacter(scalar)
        }
    }
}

import Foundation

/// The ASCII bytes and character classes the HTTP/1.1 grammar is written in (RFC 5234 B.1).
enum HTTP1Bytes {
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let comma = UInt8(ascii: ",")
    static let quote = UInt8(ascii: "\"")

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Whether `bytes` are the ASCII text `text`, letters compared without case.
    static func equalsIgnoringASCIICase(_ bytes: some Collection<UInt8>, _ text: String) -> Bool {
        func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
        return bytes.count == text.utf8.count && zip(bytes, text.utf8).allSatisfy { lower($0) == lower($1) }
    }

    /// SP or HTAB: OWS, RWS and BWS are made of these (RFC 9110 §5.6.3).
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// A CTL other than HTAB (NUL, CR, LF, DEL…): never in a field value or reason phrase.
    static func isControlOtherThanTab(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != tab) || byte == 0x7F }

    /// HEXDIG's value, `nil` for another byte.
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }

    /// 1*DIGIT as an `Int`; `nil` for anything else, an empty text, or a value past `Int.max`.
    static func decimal<C: Collection>(_ digits: C) -> Int? where C.Element == UInt8 {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard isDigit(byte) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(byte - 0x30)
            guard !overflow, shifted <= Int.max - digit else { return nil }
            value = shifted + digit
        }
        return value
    }

    /// The index after the quoted-string that opens at `start` (RFC 9110 §5.6.4), `nil` if it is
    /// not one: quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE.
    static func quotedStringEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == quote { return index + 1 }
            if byte == UInt8(ascii: "\\") {
                // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
                guard index + 1 < bytes.endIndex, !isControlOtherThanTab(bytes[index + 1]) else { return nil }
                index += 2
                continue
            }
            // qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
            guard !isControlOtherThanTab(byte) else { return nil }
            index += 1
        }
        return nil
    }
}

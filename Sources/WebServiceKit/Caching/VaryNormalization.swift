import Foundation

/// Normalising the request fields a `Vary` nominates before they are compared (RFC 9111 §4.1).
///
/// §4.1 lets two requests match when one's selecting fields "can be transformed" into the
/// other's by "adding or removing whitespace, where allowed in the header field's syntax",
/// "combining multiple header field lines with the same field name", and "normalizing both header
/// field values in a way that is known to have identical semantics, according to the header
/// field's specification (e.g., reordering field values when order is not significant;
/// case-normalization, where values are defined to be case-insensitive)". What each field allows:
///
/// - `Accept-Encoding` (RFC 9110 §12.5.3) and `Accept-Charset` (§12.5.2): content codings and
///   charset names are case-insensitive (§8.4.1, §8.3.2), the preference is the weight alone
///   (§12.4.2), and the definitions give the order of the members no meaning: members are
///   lowercased, their weight written canonically (`q=1`, `q=1.000` and no weight are the same,
///   §12.4.2), and sorted. `gzip, br` and `BR;q=1,gzip` match.
/// - `Accept` (§12.5.1): the type and subtype are case-insensitive (§8.3.1) and so are parameter
///   names (§5.6.6); a parameter value that is a token may be written quoted or not, with the same
///   meaning (§5.6.6). Precedence comes from specificity and weight, not order: members are
///   normalised so and sorted. Parameter values otherwise keep their case (their case-sensitivity
///   "depends on the semantics of the parameter name"), and parameters keep their order.
/// - `Accept-Language` (§12.5.4): language ranges are case-insensitive (RFC 4647 §2) and weights
///   are written canonically, but the **order of members with equal weights is kept**: §12.5.4
///   notes that "some recipients treat the order in which language tags are listed as an
///   indication of descending priority, particularly for tags that are assigned equal quality
///   values". An origin may then answer `en, de` in English and `de, en` in German, so these two
///   do not match. Members are only put in order of descending weight (a stable sort), which
///   changes nothing under either reading: `de;q=0.5, en` and `en, de;q=0.5` match.
/// - Any other field: its lines are combined and split into list members at commas outside
///   quoted strings, each member trimmed of whitespace (RFC 9110 §5.6.1, §5.3), and joined with
///   `", "`; case and order are kept, since the cache does not know their meaning.
///
/// A member of an `Accept…` field that does not parse by its field's grammar (an unknown
/// parameter where only a weight is defined, a weight out of range) leaves the whole field to
/// the generic rule: no reordering, no case change.
extension CacheRules {
    /// The value of field `name` made of its lines `values`, normalised as the field's definition
    /// allows (see above); `nil` when the field is absent.
    static func normalizedFieldValue(named name: String, _ values: [String]) -> String? {
        guard !values.isEmpty else { return nil }
        let members = values.flatMap(listElements)
        let normalized: [String]?
        switch name.lowercased() {
        case "accept-encoding", "accept-charset":
            normalized = weightedMembers(members).map { $0.map(\.text).sorted() }
        case "accept-language":
            normalized = weightedMembers(members).map { members in
                // Stable: equal weights keep the order they were listed in.
                members.enumerated().sorted { ($1.element.weight, $0.offset) < ($0.element.weight, $1.offset) }
                    .map(\.element.text)
            }
        case "accept":
            normalized = mediaRanges(members)?.sorted()
        default:
            normalized = nil
        }
        return (normalized ?? members).joined(separator: ", ")
    }

    /// A list member with a weight: its canonical text and its weight in thousandths.
    struct WeightedMember {
        var text: String
        var weight: Int
    }

    /// `members` as `value [weight]` (RFC 9110 §12.4.2), each value lowercased and the weight
    /// written canonically: omitted when it is 1, otherwise `q=0.5` (no trailing zeros), `q=0`.
    /// `nil` when a member has another parameter, an invalid weight, or no value.
    static func weightedMembers(_ members: [String]) -> [WeightedMember]? {
        var result: [WeightedMember] = []
        result.reserveCapacity(members.count)
        for member in members {
            let parts = member.split(separator: ";", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard let value = parts.first, !value.isEmpty, HTTPToken.isToken(value) || value == "*" else { return nil }
            var weight = 1000
            if parts.count == 2 {
                guard let parsed = qualityValue(parameter: parts[1]) else { return nil }
                weight = parsed
            } else if parts.count > 2 {
                return nil
            }
            let lowered = value.lowercased()
            result.append(WeightedMember(text: lowered + weightSuffix(weight), weight: weight))
        }
        return result
    }

    /// `members` as media ranges with parameters and an optional weight (RFC 9110 §12.5.1),
    /// normalised: type, subtype and parameter names lowercased, whitespace around `;` and `=`
    /// removed, a quoted value that is a token unquoted, the weight canonical. `nil` when one
    /// does not parse.
    static func mediaRanges(_ members: [String]) -> [String]? {
        var result: [String] = []
        result.reserveCapacity(members.count)
        for member in members {
            guard let parameters = parameterList(member), let range = parameters.first, range.value == nil else {
                return nil
            }
            let type = range.name.split(separator: "/", omittingEmptySubsequences: false)
            guard type.count == 2, HTTPToken.isToken(String(type[0])) || type[0] == "*",
                HTTPToken.isToken(String(type[1])) || type[1] == "*"
            else { return nil }
            var text = range.name.lowercased()
            var weight = 1000
            var sawWeight = false
            for parameter in parameters.dropFirst() {
                guard let value = parameter.value, !sawWeight else { return nil }
                let name = parameter.name.lowercased()
                if name == "q" {
                    // The weight ends the media type's parameters (§12.5.1: "q" separates them).
                    guard let parsed = qualityValue(value) else { return nil }
                    weight = parsed
                    sawWeight = true
                } else {
                    text += ";" + name + "=" + value
                }
            }
            result.append(text + weightSuffix(weight))
        }
        return result
    }

    /// `name=value` pairs of a `;`-separated member (quoted strings kept whole, a token inside
    /// quotes unquoted); the first is the member's value, with a `nil` value. `nil` when a part
    /// is malformed.
    private static func parameterList(_ member: String) -> [(name: String, value: String?)]? {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for character in member {
            if escaped {
                escaped = false
            } else if inQuotes, character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == ";", !inQuotes {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        guard !inQuotes else { return nil }
        parts.append(current)
        var result: [(name: String, value: String?)] = []
        for (index, part) in parts.enumerated() {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if index == 0 {
                result.append((trimmed, nil))
                continue
            }
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard HTTPToken.isToken(name), !value.isEmpty else { return nil }
            // §5.6.6: "The quoted and unquoted values are equivalent" when the value is a token.
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                let inner = String(value.dropFirst().dropLast())
                if HTTPToken.isToken(inner) { value = inner }
            } else if !HTTPToken.isToken(value) {
                return nil
            }
            result.append((name, value))
        }
        return result
    }

    /// The weight of a `q=…` parameter in thousandths (RFC 9110 §12.4.2; "q" in any case, as
    /// ABNF literals are, RFC 5234 §2.3), or `nil` when it is not one.
    private static func qualityValue(parameter: String) -> Int? {
        guard let equals = parameter.firstIndex(of: "="),
            parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "q"
        else { return nil }
        return qualityValue(parameter[parameter.index(after: equals)...].trimmingCharacters(in: .whitespaces))
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )` in thousandths, or `nil`.
    static func qualityValue(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        let whole = Int(first - UInt8(ascii: "0"))
        guard bytes.count > 1 else { return whole * 1000 }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var fraction = 0
        var scale = 100
        for digit in bytes[2...] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            fraction += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        guard whole == 0 || fraction == 0 else { return nil }
        return whole * 1000 + fraction
    }

    /// `""` for weight 1 (the default, §12.4.2), otherwise `;q=` and the weight without trailing
    /// zeros.
    private static func weightSuffix(_ weight: Int) -> String {
        guard weight != 1000 else { return "" }
        var digits = String(weight + 1000).dropFirst()  // three digits, leading zeros kept
        while digits.last == "0" { digits = digits.dropLast() }
        return digits.isEmpty ? ";q=0" : ";q=0." + digits
    }

}

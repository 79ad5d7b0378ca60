import Foundation

/// The directives of the `Cache-Control` fields of a request or a response (RFC 9111 §5.2).
///
/// ```
/// Cache-Control   = #cache-directive                               ; §5.2, a list (RFC 9110 §5.6.1)
/// cache-directive = token [ "=" ( token / quoted-string ) ]
/// ```
///
/// Parsing never fails: directive names are compared without regard to case, arguments may be
/// tokens or quoted strings whatever the directive ("recipients ought to accept both forms",
/// §5.2), whitespace around `=` is tolerated, and an element that is not a directive is skipped up
/// to the next comma. Unknown directives are kept in ``directives`` and otherwise ignored
/// (§5.2.3).
///
/// **Duplicates and junk resolve to the most restrictive reading.** §4.2.1 lets a cache use the
/// first of several values "or consider the response stale"; this type always takes the most
/// restrictive one, which is never less safe than either:
/// - durations keep their smallest value (`max-age`, `s-maxage`, `max-stale`, `stale-if-error`,
///   `stale-while-revalidate`), except `min-fresh`, which keeps its largest;
/// - an invalid duration (missing, negative, non-numeric, `max-age=1.5`) counts as 0, so a
///   response with an invalid `max-age` is stale (§4.2.1: caches are "encouraged to consider
///   responses that have invalid freshness information ... to be stale") and an invalid
///   `max-stale` accepts no staleness; an invalid `min-fresh` is ignored;
/// - durations above 2³¹ seconds are clamped to 2³¹ (§1.2.2);
/// - a plain `no-cache` (or `private`) wins over the field-list form; field lists are merged;
///   a malformed element such as `no-cache="Set-Cookie` (unterminated) counts as the plain form;
/// - flags are set by any occurrence.
struct CacheControl: Sendable, Hashable {
    /// One directive as written: a lowercased name and its argument, unquoted.
    struct Directive: Sendable, Hashable {
        /// The name, lowercased.
        var name: String
        /// The argument, with a quoted string unquoted; `nil` when there is no `=`.
        var argument: String?
        /// Whether the element was not `token [ "=" ( token / quoted-string ) ]` (trailing junk,
        /// an unterminated quoted string). Its argument is then unusable.
        var isMalformed = false
    }

    /// Every directive, in order, unknown ones included.
    private(set) var directives: [Directive] = []

    /// `max-age` (§5.2.1.1 request, §5.2.2.1 response), in seconds; 0 when invalid.
    private(set) var maxAge: TimeInterval?
    /// `s-maxage` (§5.2.2.10). Only shared caches use it; a private cache ignores it.
    private(set) var sharedMaxAge: TimeInterval?
    /// `max-stale` (§5.2.1.2): how stale a response the client accepts; `.infinity` without
    /// an argument, 0 when the argument is invalid.
    private(set) var maxStale: TimeInterval?
    /// `min-fresh` (§5.2.1.3): how long the response must still be fresh.
    private(set) var minFresh: TimeInterval?
    /// `stale-while-revalidate` (RFC 5861 §3). Parsed only: ``CacheRules`` has no "serve and
    /// revalidate in the background" decision yet.
    private(set) var staleWhileRevalidate: TimeInterval?
    /// `stale-if-error` (RFC 5861 §4), in a request or a response.
    private(set) var staleIfError: TimeInterval?
    /// Plain `no-cache` (§5.2.1.4, §5.2.2.4): use a stored response only after validating it.
    private(set) var noCache = false
    /// The lowercased field names of `no-cache="..."` (§5.2.2.4): these fields must not be sent
    /// from the cache without validation. Empty when ``noCache`` is set.
    private(set) var noCacheFieldNames: Set<String> = []
    /// `no-store` (§5.2.1.5, §5.2.2.5).
    private(set) var noStore = false
    /// `must-revalidate` (§5.2.2.2): never serve the response stale.
    private(set) var mustRevalidate = false
    /// `proxy-revalidate` (§5.2.2.8). Shared caches only.
    private(set) var proxyRevalidate = false
    /// `must-understand` (§5.2.2.3).
    private(set) var mustUnderstand = false
    /// Plain `private` (§5.2.2.7). A private cache may store the response.
    private(set) var isPrivate = false
    /// The lowercased field names of `private="..."`; empty when ``isPrivate`` is set.
    private(set) var privateFieldNames: Set<String> = []
    /// `public` (§5.2.2.9).
    private(set) var isPublic = false
    /// `no-transform` (§5.2.1.6, §5.2.2.6).
    private(set) var noTransform = false
    /// `only-if-cached` (§5.2.1.7): answer from the cache or with 504.
    private(set) var onlyIfCached = false
    /// `immutable` (RFC 8246): while the response is fresh, a reload (the request's `no-cache` or
    /// `max-age`) does not revalidate it (``CacheRules/isImmutableAndFresh(_:now:)``).
    private(set) var immutable = false

    /// The largest delta-seconds value a cache needs to represent (RFC 9111 §1.2.2).
    static let maximumDeltaSeconds: TimeInterval = 2_147_483_648

    /// The directives of every `Cache-Control` field in `headers`.
    init(_ headers: HTTPHeaders) { self.init(fieldValues: headers.values(for: "Cache-Control")) }

    /// The directives of the given `Cache-Control` field values, read as one list.
    init(fieldValues: [String]) {
        for value in fieldValues {
            for directive in CacheControlParser.directives(in: value) { apply(directive) }
        }
    }

    /// No directives.
    init() {}

    /// Directives whose names this type does not know, in order.
    var unknownDirectives: [Directive] { directives.filter { !Self.knownNames.contains($0.name) } }

    /// Whether `name` (any case) appears.
    func contains(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return directives.contains { $0.name == lowercased }
    }

    /// The directives this type interprets.
    private static let knownNames: Set<String> = [
        "max-age", "s-maxage", "max-stale", "min-fresh", "stale-while-revalidate", "stale-if-error", "no-cache",
        "no-store", "must-revalidate", "proxy-revalidate", "must-understand", "private", "public", "no-transform",
        "only-if-cached", "immutable",
    ]

    // MARK: - Interpretation

    /// Records `directive` and folds it into the typed properties, most restrictive first.
    private mutating func apply(_ directive: Directive) {
        directives.append(directive)
        switch directive.name {
        case "max-age": maxAge = Self.smaller(maxAge, Self.duration(directive))
        case "s-maxage": sharedMaxAge = Self.smaller(sharedMaxAge, Self.duration(directive))
        case "max-stale":
            let allowance = directive.argument == nil && !directive.isMalformed ? .infinity : Self.duration(directive)
            maxStale = Self.smaller(maxStale, allowance)
        case "min-fresh":
            if let seconds = Self.validDuration(directive) { minFresh = max(minFresh ?? 0, seconds) }
        case "stale-while-revalidate":
            staleWhileRevalidate = Self.smaller(staleWhileRevalidate, Self.duration(directive))
        case "stale-if-error": staleIfError = Self.smaller(staleIfError, Self.duration(directive))
        case "no-cache": Self.merge(directive, flag: &noCache, fieldNames: &noCacheFieldNames)
        case "private": Self.merge(directive, flag: &isPrivate, fieldNames: &privateFieldNames)
        case "no-store": noStore = true
        case "must-revalidate": mustRevalidate = true
        case "proxy-revalidate": proxyRevalidate = true
        case "must-understand": mustUnderstand = true
        case "public": isPublic = true
        case "no-transform": noTransform = true
        case "only-if-cached": onlyIfCached = true
        case "immutable": immutable = true
        default: break
        }
    }

    /// The smaller of a duration so far (`nil`: none yet) and a new one.
    private static func smaller(_ current: TimeInterval?, _ new: TimeInterval) -> TimeInterval {
        min(current ?? .infinity, new)
    }

    /// The directive's delta-seconds, 0 when invalid.
    private static func duration(_ directive: Directive) -> TimeInterval { validDuration(directive) ?? 0 }

    /// `delta-seconds = 1*DIGIT` (§1.2.2), clamped to 2³¹; `nil` when invalid.
    private static func validDuration(_ directive: Directive) -> TimeInterval? {
        guard !directive.isMalformed, let argument = directive.argument else { return nil }
        return deltaSeconds(argument)
    }

    /// A `delta-seconds` value (§1.2.2) clamped to 2³¹, or `nil` when `text` is not `1*DIGIT`.
    static func deltaSeconds(_ text: String) -> TimeInterval? {
        guard !text.isEmpty else { return nil }
        var value: TimeInterval = 0
        for byte in text.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = min(value * 10 + TimeInterval(byte - UInt8(ascii: "0")), maximumDeltaSeconds)
        }
        return value
    }

    /// `no-cache` and `private`: the plain form sets `flag` and wins over any field list.
    private static func merge(_ directive: Directive, flag: inout Bool, fieldNames: inout Set<String>) {
        let names = directive.isMalformed ? [] : fieldNameList(directive.argument ?? "")
        if names.isEmpty {
            flag = true
            fieldNames = []
        } else if !flag {
            fieldNames.formUnion(names)
        }
    }

    /// The lowercased names of a `#field-name` list argument.
    private static func fieldNameList(_ argument: String) -> [String] {
        argument.split(separator: ",").compactMap { element in
            let name = element.trimmingCharacters(in: .whitespaces).lowercased()
            return HTTPToken.isValidFieldName(name) ? name : nil
        }
    }
}

/// Splits one `Cache-Control` field value into directives (RFC 9110 §5.6.1 lists, §5.6.2 tokens,
/// §5.6.4 quoted strings), in one forward pass over its bytes.
private struct CacheControlParser {
    /// The field value's UTF-8 bytes.
    private let bytes: [UInt8]
    /// The cursor.
    private var index = 0

    /// A parser at the start of `value`.
    private init(_ value: String) { bytes = Array(value.utf8) }

    /// The directives of `value`, in order; junk elements are skipped.
    static func directives(in value: String) -> [CacheControl.Directive] {
        var parser = CacheControlParser(value)
        var directives: [CacheControl.Directive] = []
        while let directive = parser.nextDirective() { directives.append(directive) }
        return directives
    }

    /// The byte at the cursor; `nil` at the end.
    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The next directive, skipping empty list elements and elements that do not start with a
    /// token; `nil` at the end.
    private mutating func nextDirective() -> CacheControl.Directive? {
        while true {
            while let byte = current, byte == UInt8(ascii: ",") || isWhitespace(byte) { index += 1 }
            guard current != nil else { return nil }
            let name = token()
            guard !name.isEmpty else {
                skipToNextElement()
                continue
            }
            var directive = CacheControl.Directive(name: name.lowercased())
            skipWhitespace()
            if current == UInt8(ascii: "=") {
                index += 1
                skipWhitespace()
                if current == UInt8(ascii: "\"") {
                    let (text, terminated) = quotedString()
                    directive.argument = text
                    directive.isMalformed = !terminated
                } else {
                    directive.argument = token()
                }
                skipWhitespace()
            }
            if let byte = current, byte != UInt8(ascii: ",") {
                directive.isMalformed = true
                skipToNextElement()
            }
            return directive
        }
    }

    /// Whether `byte` is optional whitespace (SP or HTAB, RFC 9110 §5.6.3).
    private func isWhitespace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// Consumes optional whitespace.
    private mutating func skipWhitespace() {
        while let byte = current, isWhitespace(byte) { index += 1 }
    }

    /// Consumes a run of token characters (RFC 9110 §5.6.2); empty when none is next.
    private mutating func token() -> String {
        let start = index
        while let byte = current, HTTPToken.isTokenCharacter(byte) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// Reads a quoted string starting at its opening quote; unterminated strings run to the end.
    private mutating func quotedString() -> (text: String, terminated: Bool) {
        index += 1
        var text: [UInt8] = []
        while let byte = current {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return (String(decoding: text, as: UTF8.self), true)
            case UInt8(ascii: "\\"):
                if let escaped = current {
                    text.append(escaped)
                    index += 1
                }
            default:
                text.append(byte)
            }
        }
        return (String(decoding: text, as: UTF8.self), false)
    }

    /// Moves past the next comma that is not inside a quoted string.
    private mutating func skipToNextElement() {
        while let byte = current {
            if byte == UInt8(ascii: "\"") {
                _ = quotedString()
            } else {
                index += 1
                if byte == UInt8(ascii: ",") { return }
            }
        }
    }
}

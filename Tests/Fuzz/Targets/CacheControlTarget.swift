import Foundation

/// `Cache-Control` field values (RFC 9111 §5.2).
///
/// Input: field values separated by 0xFF.
///
/// Beyond not crashing (parsing never fails):
/// - every directive name is a lowercased token; durations are in 0…2³¹ (`max-stale` may also be
///   infinite); a plain `no-cache` or `private` leaves no field names; field names are lowercased
///   tokens;
/// - duplicates resolve to the most restrictive reading: adding another field can only lower
///   `max-age`, `s-maxage`, `max-stale`, `stale-if-error` and `stale-while-revalidate`, raise
///   `min-fresh`, and set flags, never clear them;
/// - the values read as one list: joined with `", "` (when none has a quoted string, which could
///   run on into the next) they give the same directives.
enum CacheControlTarget {
    static func run(_ bytes: [UInt8]) {
        let values = fuzzFields(bytes)
        let all = CacheControl(fieldValues: values)
        check(all)
        guard values.count > 1 else { return }
        let head = CacheControl(fieldValues: Array(values.dropLast()))
        checkMoreRestrictive(all, than: head)
        // Without quoted strings no field can swallow the next one's start.
        if !values.contains(where: { $0.utf8.contains(UInt8(ascii: "\"")) }) {
            let joined = CacheControl(fieldValues: [values.joined(separator: ", ")])
            fuzzCheck(joined == all, "field values read differently joined: \(values)")
        }
    }

    private static let maximum = CacheControl.maximumDeltaSeconds

    static func check(_ directives: CacheControl) {
        for directive in directives.directives {
            fuzzCheck(
                HTTPToken.isValidFieldName(directive.name) && directive.name == directive.name.lowercased(),
                "directive name \(directive.name.debugDescription)")
        }
        for (name, value) in [
            ("max-age", directives.maxAge), ("s-maxage", directives.sharedMaxAge), ("min-fresh", directives.minFresh),
            ("stale-if-error", directives.staleIfError), ("stale-while-revalidate", directives.staleWhileRevalidate),
        ] {
            if let value { fuzzCheck((0...maximum).contains(value), "\(name) is \(value)") }
        }
        if let maxStale = directives.maxStale {
            fuzzCheck((0...maximum).contains(maxStale) || maxStale == .infinity, "max-stale is \(maxStale)")
        }
        fuzzCheck(!directives.noCache || directives.noCacheFieldNames.isEmpty, "no-cache with field names")
        fuzzCheck(!directives.isPrivate || directives.privateFieldNames.isEmpty, "private with field names")
        for name in directives.noCacheFieldNames.union(directives.privateFieldNames) {
            fuzzCheck(
                HTTPToken.isValidFieldName(name) && name == name.lowercased(), "field name \(name.debugDescription)")
        }
        // Every typed property comes from a directive of that name.
        fuzzCheck(directives.maxAge == nil || directives.contains("max-age"), "max-age from nowhere")
        fuzzCheck(!directives.noStore || directives.contains("no-store"), "no-store from nowhere")
    }

    /// `more` has every directive of `less` and then some.
    private static func checkMoreRestrictive(_ more: CacheControl, than less: CacheControl) {
        func notLarger(_ name: String, _ a: TimeInterval?, _ b: TimeInterval?) {
            if let b { fuzzCheck(a.map { $0 <= b } ?? false, "\(name) grew from \(b) to \(String(describing: a))") }
        }
        notLarger("max-age", more.maxAge, less.maxAge)
        notLarger("s-maxage", more.sharedMaxAge, less.sharedMaxAge)
        notLarger("max-stale", more.maxStale, less.maxStale)
        notLarger("stale-if-error", more.staleIfError, less.staleIfError)
        notLarger("stale-while-revalidate", more.staleWhileRevalidate, less.staleWhileRevalidate)
        if let fresh = less.minFresh { fuzzCheck((more.minFresh ?? -1) >= fresh, "min-fresh fell") }
        let flags: [(String, KeyPath<CacheControl, Bool>)] = [
            ("no-cache", \.noCache), ("no-store", \.noStore), ("must-revalidate", \.mustRevalidate),
            ("private", \.isPrivate), ("public", \.isPublic), ("only-if-cached", \.onlyIfCached),
            ("immutable", \.immutable), ("must-understand", \.mustUnderstand),
        ]
        for (name, flag) in flags where less[keyPath: flag] {
            fuzzCheck(more[keyPath: flag], "\(name) was cleared by a later field")
        }
        fuzzCheck(Array(more.directives.prefix(less.directives.count)) == less.directives, "directives reordered")
    }
}

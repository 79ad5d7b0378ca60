import Foundation

/// The cache key of a URL (RFC 9110 §4.2.3 normalisation): the quick byte check that keeps a
/// URL's text as its key must never disagree with the URLComponents way it skips.
///
/// Input: the bytes of a URL, taken when `URL(string:)` accepts them.
///
/// Beyond not crashing: whenever ``CacheRules/isNormalKey(_:)`` says a URL's text is its own key,
/// ``CacheRules/normalizedKey(for:)`` gives that same text; and ``CacheRules/cacheKey(for:)``
/// always equals the long way.
enum CacheKeyTarget {
    static func run(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self), let url = URL(string: text) else { return }
        let long = CacheRules.normalizedKey(for: url)
        if CacheRules.isNormalKey(url.absoluteString) {
            fuzzCheck(long == url.absoluteString, "\(url.absoluteString) kept as its key, normalised \(long)")
        }
        fuzzCheck(CacheRules.cacheKey(for: url) == long, "key of \(url.absoluteString) differs from \(long)")
    }
}

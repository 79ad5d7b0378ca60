/// How a multipart body writes field names and file names inside the quoted strings of its
/// `Content-Disposition` headers (`name="…"`, `filename="…"`).
///
/// A name cannot be sent as it is when it holds `"` (it would end the quoted string) or CR/LF
/// (they would end the header). RFC 7578 forbids `filename*` (§4.2) and offers percent-encoding
/// (§2), which browsers use; servers read either that or backslash escapes, so a call chooses
/// (``CallFields/multipartNameEscaping``):
///
/// | name | ``percentEncoding`` (default) | ``backslashEscaping`` |
/// | --- | --- | --- |
/// | `a"b` | `a%22b` | `a\"b` |
/// | `a\b` | `a\b` | `a\\b` |
/// | CR, LF | `%0D`, `%0A` | `%0D`, `%0A` |
///
/// Everything else, non-ASCII included, is written as UTF-8 in both. Which servers decode which
/// form is in Docs/Multipart.md: Werkzeug and PyPI `multipart` read `%22` back as `"`; PHP,
/// Django and python-multipart keep `%22` as three characters but read `\"` and `\\`.
public enum MultipartNameEscaping: Sendable, Equatable, Hashable {
    /// What browsers send (WHATWG HTML, "multipart/form-data encoding algorithm"): `"` → `%22`,
    /// CR → `%0D`, LF → `%0A`; a backslash is sent as it is. The default.
    case percentEncoding

    /// A quoted-pair for `"` and `\` (`\"`, `\\`, RFC 9110 §5.6.4), which PHP, Django,
    /// python-multipart, Werkzeug and PyPI `multipart` all read back. CR and LF have no
    /// quoted-pair (it takes only HTAB, SP, VCHAR and obs-text), so they are still written
    /// `%0D` and `%0A`: a name never breaks the framing.
    case backslashEscaping

    /// `text` written for a quoted string of `Content-Disposition`.
    func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch (scalar, self) {
            case ("\"", .percentEncoding): escaped += "%22"
            case ("\"", .backslashEscaping): escaped += "\\\""
            case ("\\", .backslashEscaping): escaped += "\\\\"
            case ("\r", _): escaped += "%0D"
            case ("\n", _): escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

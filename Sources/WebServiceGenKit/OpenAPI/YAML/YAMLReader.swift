/// Reads the YAML 1.2.2 of OpenAPI documents: one document, as a ``YAMLNode`` tree (with each
/// node's line and column) or as a ``YAMLValue`` under the core schema.
///
/// What it reads: block mappings and sequences (compact forms such as `- key: value` and a
/// sequence at its key's indentation included), flow collections (nested, over several lines),
/// every scalar style (plain over several lines, single- and double-quoted with all escapes and
/// line folding, literal and folded block scalars with chomping and indentation indicators),
/// comments, anchors and aliases, tags (`!!str`, `!custom`, `%TAG` handles, `!<verbatim>`), the
/// `%YAML` and `%TAG` directives, `---` and `...`, explicit keys (`? key`) and a leading byte
/// order mark.
///
/// Decisions:
/// - One document: a second one (anything after the first document's `---` … `...` but comments)
///   is an error at its start.
/// - Duplicate keys are an error (JSON Schema and OpenAPI require unique keys); keys are equal
///   when their tags and canonical values are (`1` and `0x1` are; `1` and `"1"` are not, but
///   ``YAMLNode/value()`` refuses them too, as their text is the same).
/// - `<<` is an ordinary key: merge keys are YAML 1.1, not part of YAML 1.2's core schema.
/// - Explicit keys may be any node in the tree; ``YAMLNode/value()`` refuses keys that are
///   collections, which JSON cannot hold.
/// - An integer beyond `Int64` is the nearest `Double` in a ``YAMLValue`` (beyond `Double`'s
///   range, an error); the node keeps its text.
/// - Tabs separate tokens anywhere on a line (also in block context, where libyaml and its ports
///   refuse them) but never indent.
/// - `%YAML 1.1` (any 1.x) documents are read as YAML 1.2; `%YAML 2.0` is refused.
/// - Line breaks are LF, CR LF and CR (YAML 1.2): U+0085, U+2028 and U+2029 are characters.
/// - Where libyaml and its ports (PyYAML, ruamel.yaml) are laxer than the grammar, the reader
///   follows them, as the documents in use were written for them: quoted scalars and flow
///   collections may continue at any indentation, a tag's suffix may hold `!`, `[`, `]` and `,`
///   (so a tag needs a space after it), a plain scalar takes a `:` followed by any non-space.
/// - Text is a `String`, or bytes in UTF-8, UTF-16 or UTF-32 (either byte order), told apart as
///   YAML 1.2.2 §5.2 says (``node(fromEncoded:limits:)``), or bytes that must be UTF-8
///   (``node(fromUTF8:limits:)``).
/// - Bounds (``YAMLLimits``): nesting depth and alias expansion. The reader never recurses and
///   takes linear time.
public enum YAMLReader {
    /// The root node of the one document of `text`; an empty plain scalar (null) at 1:1 when
    /// the text holds no document.
    public static func node(from text: String, limits: YAMLLimits = YAMLLimits()) throws(YAMLError) -> YAMLNode {
        var composer = YAMLComposer(text: try YAMLText.scalars(of: text), limits: limits)
        return try composer.composeDocument()
    }

    /// The root node of the one document of the UTF-8 `bytes` (a UTF-16 or UTF-32 text, or
    /// malformed UTF-8, is an error).
    public static func node(fromUTF8 bytes: some Collection<UInt8>, limits: YAMLLimits = YAMLLimits()) throws(YAMLError)
        -> YAMLNode
    {
        var composer = YAMLComposer(text: try YAMLText.scalars(ofUTF8: Array(bytes)), limits: limits)
        return try composer.composeDocument()
    }

    /// The root node of the one document of `bytes` in UTF-8, UTF-16 or UTF-32, either byte order,
    /// told apart by a byte order mark or by the zero bytes around the first character (ASCII in
    /// any YAML text that has no mark), as YAML 1.2.2 §5.2 says; malformed code units are an error
    /// at their line and column.
    public static func node(fromEncoded bytes: some Collection<UInt8>, limits: YAMLLimits = YAMLLimits())
        throws(YAMLError) -> YAMLNode
    {
        var composer = YAMLComposer(text: try YAMLText.scalars(ofEncoded: Array(bytes)), limits: limits)
        return try composer.composeDocument()
    }

    /// The value of the one document of `bytes` in UTF-8, UTF-16 or UTF-32 under the core schema.
    public static func value(fromEncoded bytes: some Collection<UInt8>, limits: YAMLLimits = YAMLLimits())
        throws(YAMLError) -> YAMLValue
    {
        try node(fromEncoded: bytes, limits: limits).value()
    }

    /// The value of the one document of `text` under the core schema (``YAMLNode/value()``).
    public static func value(from text: String, limits: YAMLLimits = YAMLLimits()) throws(YAMLError) -> YAMLValue {
        try node(from: text, limits: limits).value()
    }

    /// The value of the one document of the UTF-8 `bytes` under the core schema.
    public static func value(fromUTF8 bytes: some Collection<UInt8>, limits: YAMLLimits = YAMLLimits())
        throws(YAMLError)
        -> YAMLValue
    {
        try node(fromUTF8: bytes, limits: limits).value()
    }
}

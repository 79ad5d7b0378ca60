/// One token of a YAML text, as ``YAMLScanner`` cuts it (the tokens of libyaml and its ports).
struct YAMLToken: Sendable {
    enum Kind: Sendable {
        case streamStart
        case streamEnd
        /// `%YAML major.minor`.
        case versionDirective(major: Int, minor: Int)
        /// `%TAG handle prefix`.
        case tagDirective(handle: String, prefix: String)
        /// Any other directive, which YAML says to ignore (with a warning).
        case reservedDirective(name: String)
        case documentStart
        case documentEnd
        case blockSequenceStart
        case blockMappingStart
        case blockEnd
        case flowSequenceStart
        case flowMappingStart
        case flowSequenceEnd
        case flowMappingEnd
        /// `-` in a block sequence.
        case blockEntry
        /// `,` in a flow collection.
        case flowEntry
        /// Before a key: `?`, or put in front of a simple key once its `:` is found.
        case key
        /// `:` after a key.
        case value
        case alias(String)
        case anchor(String)
        /// `!handle!suffix`, `!suffix`, `!!suffix` or `!<verbatim>` (handle `nil`).
        case tag(handle: String?, suffix: String)
        case scalar(String, style: YAMLScalarStyle)
    }

    var kind: Kind
    var start: YAMLMark
    var end: YAMLMark

    /// How the token is named in messages.
    var name: String {
        switch kind {
        case .streamStart: "the start of the text"
        case .streamEnd: "the end of the text"
        case .versionDirective, .tagDirective, .reservedDirective: "a directive"
        case .documentStart: "'---'"
        case .documentEnd: "'...'"
        case .blockSequenceStart: "the start of a block sequence"
        case .blockMappingStart: "the start of a block mapping"
        case .blockEnd: "the end of a block collection (less indentation)"
        case .flowSequenceStart: "'['"
        case .flowMappingStart: "'{'"
        case .flowSequenceEnd: "']'"
        case .flowMappingEnd: "'}'"
        case .blockEntry: "'-'"
        case .flowEntry: "','"
        case .key: "a key"
        case .value: "':'"
        case .alias(let name): "the alias '*\(name)'"
        case .anchor(let name): "the anchor '&\(name)'"
        case .tag: "a tag"
        case .scalar: "a scalar"
        }
    }
}

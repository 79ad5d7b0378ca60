/// The bounds a YAML document is read within, so that no input exhausts the stack, the memory
/// or the time of the reader (and of what walks its result).
public struct YAMLLimits: Sendable, Equatable {
    /// The deepest nesting of sequences and mappings: 512 by default. One level deeper is a
    /// ``YAMLError`` at the collection that passes the limit. The reader itself does not recurse
    /// (it keeps its own stacks); the limit is for the code that walks the ``YAMLNode`` tree or
    /// the ``YAMLValue`` recursively, and for Swift's recursive `==` and deinitialisation of them.
    public var maximumDepth: Int

    /// How many nodes aliases may add in all, counting each alias as the number of nodes of the
    /// tree it stands for: 1,000,000 by default. An alias is cheap in the ``YAMLNode`` tree (the
    /// anchored node's storage is shared) but a ``YAMLValue`` and anything that walks the tree
    /// expands it; a "billion laughs" document (aliases of aliases, each level doubling or
    /// tenfolding the count) is a ``YAMLError`` at the alias that passes the bound.
    public var maximumAliasExpansion: Int

    /// Creates limits; the defaults suit any real OpenAPI document.
    public init(maximumDepth: Int = 512, maximumAliasExpansion: Int = 1_000_000) {
        self.maximumDepth = maximumDepth
        self.maximumAliasExpansion = maximumAliasExpansion
    }
}

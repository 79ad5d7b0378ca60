/// Tears down a tree of class nodes with a loop instead of the runtime's release, which goes one
/// stack frame per level and overflows the stack on a chain tens of thousands deep (an `and` of
/// 100,000 terms). Used by the `deinit` of ``ODataExpression`` and ``ODataSearch`` nodes.
enum IterativeRelease {
    /// Releases `operands`, the children a dying node has just detached: each one that nothing
    /// else holds has its own children detached by `detach` (which leaves a leaf in its place)
    /// before it goes, so that releasing it releases nothing more. One shared with another tree
    /// is left for that tree to release. `operands` is the work list itself (`inout`), so that no
    /// other array holds a child while its uniqueness is checked.
    static func release<Node: AnyObject>(_ operands: inout [Node], detach: (Node) -> [Node]) {
        while var node = operands.popLast() {
            guard isKnownUniquelyReferenced(&node) else { continue }
            operands += detach(node)
        }
    }
}

/// Breaks the cycles of stored values that recursive schemas make: a struct cannot hold itself,
/// even in an `Optional`. Lists and dictionaries store their elements out of line, so only a
/// property or an alternative whose type is a declaration counts as an edge; every edge inside a
/// strongly connected component of that graph (a self-reference included) lies on a cycle and is
/// made indirect: a property held by the generated `Indirect` box, a union declared `indirect`.
///
/// The components are found by Tarjan's algorithm, iteratively: linear in the declarations and
/// their edges, and no recursion however deep the chain of references.
enum GeneratedCycles {
    static func breakCycles(_ declarations: [GeneratedDeclaration]) -> [GeneratedDeclaration] {
        var index: [String: Int] = [:]
        for (position, declaration) in declarations.enumerated() { index[declaration.name] = position }
        var edges = [[Int]](repeating: [], count: declarations.count)
        for (position, declaration) in declarations.enumerated() {
            let targets: [GeneratedType]
            switch declaration {
            case .structure(_, _, let properties, _): targets = properties.map(\.type)
            case .union(_, _, let cases, _, _): targets = cases.map(\.type)
            case .alias(_, _, let type): targets = [type]
            case .enumeration: targets = []
            }
            edges[position] = targets.compactMap { stored($0).flatMap { index[$0] } }
        }
        let component = components(edges)
        /// Whether the edge from `from` to the declaration `target` lies on a cycle.
        func cyclic(_ from: Int, _ target: GeneratedType) -> Bool {
            guard let name = stored(target), let to = index[name] else { return false }
            return component[from] == component[to] && (from != to || edges[from].contains(from))
        }
        return declarations.enumerated().map { position, declaration in
            switch declaration {
            case .structure(let name, let summary, var properties, let additional):
                for property in properties.indices where cyclic(position, properties[property].type) {
                    properties[property].isIndirect = true
                }
                return .structure(name: name, summary: summary, properties: properties, additional: additional)
            case .union(let name, let summary, let cases, let discriminator, _):
                return .union(
                    name: name, summary: summary, cases: cases, discriminator: discriminator,
                    isIndirect: cases.contains { cyclic(position, $0.type) })
            default:
                return declaration
            }
        }
    }

    /// The declaration a value of `type` stores in line, if any.
    private static func stored(_ type: GeneratedType) -> String? {
        if case .named(let name) = type { return name }
        return nil
    }

    /// The strongly connected component of each node (Tarjan's algorithm with an explicit stack).
    static func components(_ edges: [[Int]]) -> [Int] {
        let count = edges.count
        var order = [Int](repeating: -1, count: count)
        var low = [Int](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var component = [Int](repeating: -1, count: count)
        var stack: [Int] = []
        var next = 0
        var components = 0
        for root in 0..<count where order[root] < 0 {
            // Each frame: a node and the position of the next edge to follow.
            var frames: [(node: Int, edge: Int)] = [(root, 0)]
            order[root] = next
            low[root] = next
            next += 1
            stack.append(root)
            onStack[root] = true
            while let frame = frames.last {
                let node = frame.node
                if frame.edge < edges[node].count {
                    frames[frames.count - 1].edge += 1
                    let target = edges[node][frame.edge]
                    if order[target] < 0 {
                        order[target] = next
                        low[target] = next
                        next += 1
                        stack.append(target)
                        onStack[target] = true
                        frames.append((target, 0))
                    } else if onStack[target] {
                        low[node] = min(low[node], order[target])
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last { low[parent.node] = min(low[parent.node], low[node]) }
                if low[node] == order[node] {
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component[member] = components
                        if member == node { break }
                    }
                    components += 1
                }
            }
        }
        return component
    }
}

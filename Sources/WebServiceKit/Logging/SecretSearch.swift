/// An Aho–Corasick automaton over the UTF-8 bytes of a set of secrets: finds every occurrence of
/// every secret in a text in one pass, whatever the number of secrets.
///
/// Searching UTF-8 bytes finds the same occurrences as a `.literal` search, which compares code
/// units: both encodings map each sequence of Unicode scalars to one sequence of code units, and a
/// secret's bytes can only match a valid text at scalar boundaries (UTF-8 is self-synchronising:
/// a lead byte is never a continuation byte). No canonical equivalence is applied, as with
/// `.literal`.
///
/// The trie's states are numbered in depth-first order from the secrets sorted by their bytes, so
/// that the states along one secret, and their transitions, follow each other in memory; each
/// state's transitions are one sorted block. Building costs a sort of the secrets and O(L), L
/// being their total length in bytes; a search costs O(n) in the length of the text (at most two
/// transitions per byte amortised, each a search in a block of at most 256 bytes).
///
/// States are `Int32`: the secrets' total length stays far below 2³¹ bytes, as they come from a
/// call's request fields and its responses' heads (64 KB each at most on the direct path).
final class SecretSearch: Sendable {
    /// For each state, where its block of transitions starts in ``edgeBytes``; one more entry
    /// for the end of the last block.
    private let edgeStart: [Int32]
    /// The bytes of the transitions, sorted within each state's block.
    private let edgeBytes: [UInt8]
    /// The states the transitions go to.
    private let edgeTargets: [Int32]
    /// The root's transitions, dense: 0 (the root) where there is none.
    private let rootTransitions: [Int32]
    /// For each state, the state of its longest proper suffix that is also in the trie.
    private let failure: [Int32]
    /// For each state, the length of the string it stands for.
    private let depth: [Int32]
    /// For each state, the length of the longest secret its string ends with; 0 for none.
    private let longestMatch: [Int32]

    /// An automaton for `secrets` (none empty, no two the same).
    init(_ secrets: some Collection<String>) {
        let patterns = secrets.map { Array($0.utf8) }
        // The indices sorted, cheaper to move than the arrays.
        let order = patterns.indices.sorted { patterns[$0].lexicographicallyPrecedes(patterns[$1]) }
        let capacity = patterns.reduce(1) { $0 + $1.count }
        // The trie in depth-first order: each pattern adds the states after its common prefix
        // with the one before it.
        var parent: [Int32] = [-1]
        var byte: [UInt8] = [0]
        var depth: [Int32] = [0]
        var terminal: [Bool] = [false]
        parent.reserveCapacity(capacity)
        byte.reserveCapacity(capacity)
        depth.reserveCapacity(capacity)
        terminal.reserveCapacity(capacity)
        var path: [Int32] = [0]
        var previous: [UInt8] = []
        for index in order {
            let pattern = patterns[index]
            var common = 0
            while common < pattern.count && common < previous.count && pattern[common] == previous[common] {
                common += 1
            }
            path.removeSubrange((common + 1)...)
            for index in common..<pattern.count {
                parent.append(path[index])
                byte.append(pattern[index])
                depth.append(Int32(index + 1))
                terminal.append(false)
                path.append(Int32(parent.count - 1))
            }
            terminal[Int(path[pattern.count])] = true
            previous = pattern
        }
        let count = parent.count
        // Each state's transitions as one block, in the order of the states: a state's children
        // come in the order of their bytes, as the patterns were sorted.
        var edgeStart = [Int32](repeating: 0, count: count + 1)
        for state in 1..<count { edgeStart[Int(parent[state]) + 1] += 1 }
        for state in 0..<count { edgeStart[state + 1] += edgeStart[state] }
        var cursor = edgeStart
        var edgeBytes = [UInt8](repeating: 0, count: count - 1)
        var edgeTargets = [Int32](repeating: 0, count: count - 1)
        var root = [Int32](repeating: 0, count: 256)
        for state in 1..<count {
            let from = Int(parent[state])
            let slot = Int(cursor[from])
            cursor[from] += 1
            edgeBytes[slot] = byte[state]
            edgeTargets[slot] = Int32(state)
            if from == 0 { root[Int(byte[state])] = Int32(state) }
        }
        self.edgeStart = edgeStart
        self.edgeBytes = edgeBytes
        self.edgeTargets = edgeTargets
        rootTransitions = root
        self.depth = depth
        // Failure links breadth first: a state's link depends on its parent's.
        var failure = [Int32](repeating: 0, count: count)
        var longestMatch = [Int32](repeating: 0, count: count)
        var queue: [Int32] = [0]
        queue.reserveCapacity(count)
        var head = 0
        while head < queue.count {
            let state = Int(queue[head])
            head += 1
            for slot in Int(edgeStart[state])..<Int(edgeStart[state + 1]) {
                let child = Int(edgeTargets[slot])
                var suffix: Int32 = 0
                if state != 0 {
                    var fallback = failure[state]
                    while true {
                        let target = Self.target(
                            from: fallback, on: edgeBytes[slot], edgeStart: edgeStart, edgeBytes: edgeBytes,
                            edgeTargets: edgeTargets, root: root)
                        if target >= 0 || fallback == 0 {
                            suffix = max(target, 0)
                            break
                        }
                        fallback = failure[Int(fallback)]
                    }
                }
                failure[child] = suffix
                longestMatch[child] = terminal[child] ? depth[child] : longestMatch[Int(suffix)]
                queue.append(Int32(child))
            }
        }
        self.failure = failure
        self.longestMatch = longestMatch
    }

    /// The state `state` goes to on `byte`; -1 for none (0, the root, for none from the root).
    @inline(__always)
    private static func target(
        from state: Int32, on byte: UInt8, edgeStart: [Int32], edgeBytes: [UInt8], edgeTargets: [Int32],
        root: [Int32]
    ) -> Int32 {
        if state == 0 { return root[Int(byte)] }
        var lower = Int(edgeStart[Int(state)])
        var upper = Int(edgeStart[Int(state) + 1])
        // Most blocks hold one or a few transitions: a scan; a binary search for the wide ones.
        while upper - lower > 8 {
            let middle = (lower + upper) / 2
            let found = edgeBytes[middle]
            if found == byte { return edgeTargets[middle] }
            if found < byte { lower = middle + 1 } else { upper = middle }
        }
        while lower < upper {
            if edgeBytes[lower] == byte { return edgeTargets[lower] }
            lower += 1
        }
        return -1
    }

    /// The byte ranges of `text` to hide: the union of every occurrence of every secret,
    /// overlapping occurrences merged into one range (ranges that only touch stay apart), in
    /// order. With `truncated`, also the end of `text` when it is the beginning of a secret at
    /// least `minimumTailLength` bytes long (the state at the end of the text stands for the
    /// longest such suffix).
    func rangesToHide(in text: UnsafeBufferPointer<UInt8>, truncated: Bool, minimumTailLength: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var state: Int32 = 0
        for position in 0..<text.count {
            let byte = text[position]
            while true {
                let next = Self.target(
                    from: state, on: byte, edgeStart: edgeStart, edgeBytes: edgeBytes, edgeTargets: edgeTargets,
                    root: rootTransitions)
                if next >= 0 {
                    state = next
                    break
                }
                state = failure[Int(state)]
            }
            let length = Int(longestMatch[Int(state)])
            if length > 0 { Self.add(position + 1 - length..<position + 1, to: &ranges) }
        }
        let tail = Int(depth[Int(state)])
        if truncated && tail >= minimumTailLength { Self.add(text.count - tail..<text.count, to: &ranges) }
        return ranges
    }

    /// Adds `range`, which ends at or after every range in `ranges`, merging the ones it overlaps.
    private static func add(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        var lower = range.lowerBound
        while let last = ranges.last, last.upperBound > lower {
            lower = min(lower, last.lowerBound)
            ranges.removeLast()
        }
        ranges.append(lower..<range.upperBound)
    }
}

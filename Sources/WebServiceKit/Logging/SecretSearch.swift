/// An Aho–Corasick automaton over the UTF-8 bytes of a set of secrets: finds every occurrence of
/// every secret in a text in one pass, whatever the number of secrets.
///
/// Searching UTF-8 bytes finds the same occurrences as a `.literal` search, which compares code
/// units: both encodings map each sequence of Unicode scalars to one sequence of code units, and a
/// secret's bytes can only match a valid text at scalar boundaries (UTF-8 is self-synchronising:
/// a lead byte is never a continuation byte). No canonical equivalence is applied, as with
/// `.literal`.
///
/// Building costs O(L), L being the secrets' total length in bytes; a search costs O(n) in the
/// length of the text (a hash look-up per transition, at most two transitions per byte amortised).
final class SecretSearch: Sendable {
    /// For each state, the state of its longest proper suffix that is also in the trie.
    private let failure: [Int32]
    /// For each state, the length of the string it stands for.
    private let depth: [Int32]
    /// For each state, the length of the longest secret its string ends with; 0 for none.
    private let longestMatch: [Int32]
    /// The root's transitions, dense: 0 (the root) where there is none.
    private let rootTransitions: [Int32]
    /// The other states' transitions.
    private let transitions: TransitionTable

    /// An automaton for `secrets` (none empty).
    init(_ secrets: some Collection<String>) {
        let totalLength = secrets.reduce(0) { $0 + $1.utf8.count }
        var table = TransitionTable(capacityFor: totalLength)
        var root = [Int32](repeating: -1, count: 256)
        var depth: [Int32] = [0]
        var terminal: [Bool] = [false]
        // Children as linked lists, to walk the trie breadth first.
        var firstChild: [Int32] = [-1]
        var nextSibling: [Int32] = [-1]
        var edgeByte: [UInt8] = [0]
        depth.reserveCapacity(totalLength + 1)
        terminal.reserveCapacity(totalLength + 1)
        firstChild.reserveCapacity(totalLength + 1)
        nextSibling.reserveCapacity(totalLength + 1)
        edgeByte.reserveCapacity(totalLength + 1)
        for secret in secrets {
            var state: Int32 = 0
            for byte in secret.utf8 {
                let next = state == 0 ? root[Int(byte)] : table.target(from: state, on: byte)
                if next >= 0 {
                    state = next
                    continue
                }
                let created = Int32(depth.count)
                depth.append(depth[Int(state)] + 1)
                terminal.append(false)
                firstChild.append(-1)
                nextSibling.append(firstChild[Int(state)])
                edgeByte.append(byte)
                firstChild[Int(state)] = created
                if state == 0 { root[Int(byte)] = created } else { table.insert(from: state, on: byte, to: created) }
                state = created
            }
            terminal[Int(state)] = true
        }
        let count = depth.count
        var failure = [Int32](repeating: 0, count: count)
        var longestMatch = [Int32](repeating: 0, count: count)
        var queue: [Int32] = []
        queue.reserveCapacity(count)
        var child = firstChild[0]
        while child >= 0 {
            longestMatch[Int(child)] = terminal[Int(child)] ? depth[Int(child)] : 0
            queue.append(child)
            child = nextSibling[Int(child)]
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            var child = firstChild[Int(state)]
            while child >= 0 {
                let byte = edgeByte[Int(child)]
                var fallback = failure[Int(state)]
                var target: Int32 = -1
                while true {
                    target = fallback == 0 ? root[Int(byte)] : table.target(from: fallback, on: byte)
                    if target >= 0 || fallback == 0 { break }
                    fallback = failure[Int(fallback)]
                }
                let suffix = max(target, 0)
                failure[Int(child)] = suffix
                longestMatch[Int(child)] = terminal[Int(child)] ? depth[Int(child)] : longestMatch[Int(suffix)]
                queue.append(child)
                child = nextSibling[Int(child)]
            }
        }
        for index in root.indices where root[index] < 0 { root[index] = 0 }
        self.failure = failure
        self.depth = depth
        self.longestMatch = longestMatch
        rootTransitions = root
        transitions = table
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
                if state == 0 {
                    state = rootTransitions[Int(byte)]
                    break
                }
                let next = transitions.target(from: state, on: byte)
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

/// The transitions of a trie's states other than the root: an open-addressing hash table from
/// (state, byte) to state, sized once for the number of states the trie can have.
private struct TransitionTable: Sendable {
    private var keys: [UInt64]
    private var targets: [Int32]
    private let mask: Int
    /// 64 less the number of bits of a slot number.
    private let shift: UInt64

    /// A table for up to `edges` transitions, at most half full.
    init(capacityFor edges: Int) {
        var bits = 4
        while 1 << bits < edges * 2 { bits += 1 }
        keys = [UInt64](repeating: .max, count: 1 << bits)
        targets = [Int32](repeating: -1, count: 1 << bits)
        mask = (1 << bits) - 1
        shift = UInt64(64 - bits)
    }

    private static func key(_ state: Int32, _ byte: UInt8) -> UInt64 { UInt64(UInt32(state)) << 8 | UInt64(byte) }

    private func slot(for key: UInt64) -> Int {
        // Fibonacci hashing: the high bits of the product are the well-mixed ones.
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) & mask
    }

    /// The state `state` goes to on `byte`; -1 for none.
    func target(from state: Int32, on byte: UInt8) -> Int32 {
        let key = Self.key(state, byte)
        var slot = slot(for: key)
        while true {
            let found = keys[slot]
            if found == key { return targets[slot] }
            if found == .max { return -1 }
            slot = (slot + 1) & mask
        }
    }

    mutating func insert(from state: Int32, on byte: UInt8, to target: Int32) {
        let key = Self.key(state, byte)
        var slot = slot(for: key)
        while keys[slot] != .max { slot = (slot + 1) & mask }
        keys[slot] = key
        targets[slot] = target
    }
}

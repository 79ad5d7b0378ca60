/// The timers of one event loop: a binary min-heap by deadline, ties broken by the order they
/// were scheduled, with cancellation by id (a cancelled timer stays in the heap until it comes to
/// the top, and is skipped there: O(log n) per operation, no search).
///
/// Not thread-safe: only its loop's thread touches it.
struct TimerQueue<Work> {
    /// Identifies a scheduled timer, for ``cancel(_:)``.
    struct ID: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct Entry {
        let deadline: UInt64
        let id: ID
    }

    private var heap: [Entry] = []
    private var work: [ID: Work] = [:]
    private var nextID: UInt64 = 0

    /// The number of timers scheduled and not cancelled or run.
    var count: Int { work.count }

    /// Schedules `work` for `deadline` (nanoseconds on the loop's clock).
    mutating func schedule(at deadline: UInt64, _ work: Work) -> ID {
        nextID &+= 1
        let id = ID(value: nextID)
        self.work[id] = work
        heap.append(Entry(deadline: deadline, id: id))
        siftUp(heap.count - 1)
        return id
    }

    /// Cancels a timer; `false` when it already ran or was cancelled.
    @discardableResult
    mutating func cancel(_ id: ID) -> Bool { work.removeValue(forKey: id) != nil }

    /// The earliest deadline of a timer still scheduled.
    mutating func nextDeadline() -> UInt64? {
        dropCancelledTop()
        return heap.first?.deadline
    }

    /// Removes and returns the work of the earliest timer due at `now`, if any.
    mutating func popDue(now: UInt64) -> Work? {
        dropCancelledTop()
        guard let top = heap.first, top.deadline <= now else { return nil }
        removeTop()
        return work.removeValue(forKey: top.id)
    }

    private mutating func dropCancelledTop() {
        while let top = heap.first, work[top.id] == nil { removeTop() }
    }

    private mutating func removeTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(0)
    }

    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.id.value < b.id.value
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard precedes(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}

import Dispatch
import Foundation

/// Runs actions at deadlines from one timer: the whole-exchange timeout of every call.
///
/// `DispatchQueue.asyncAfter` keeps a cancelled work item (about 600 bytes) queued until its
/// deadline passes: at 2,500 calls a second under the 60-second default timeout, some 90 MB held
/// for nothing, and a timer heap of 150,000 entries to keep ordered. Here a cancelled deadline is
/// forgotten at once, and one timer source is armed for the earliest live deadline.
final class DeadlineScheduler: @unchecked Sendable {  // `state` is locked; a dispatch source is thread-safe
    /// A scheduled action, to cancel it.
    struct Token: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    fileprivate struct Entry {
        let deadline: UInt64
        let id: UInt64
    }

    fileprivate struct State {
        /// A binary min-heap by deadline; it may still hold entries that were cancelled.
        var heap: [Entry] = []
        /// The live actions; an entry of `heap` without one was cancelled.
        var actions: [UInt64: @Sendable () -> Void] = [:]
        var nextID: UInt64 = 0
        /// The deadline the timer is armed for (`UInt64.max`: not armed).
        var armed = UInt64.max
    }

    /// The process's scheduler, which every transport shares.
    static let shared = DeadlineScheduler()

    /// How late an action may run: timeouts need no better, and the system can group wake-ups.
    static let leeway = DispatchTimeInterval.milliseconds(5)

    private let state = Locked(State())
    private let timer: DispatchSourceTimer

    init(queue: DispatchQueue = DispatchQueue(label: "WebServiceKit.deadlines")) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.fire() }
        timer.activate()
    }

    deinit { timer.cancel() }

    /// Runs `action` (on the scheduler's queue) `seconds` from now, unless cancelled first.
    func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Token {
        let now = DispatchTime.now().uptimeNanoseconds
        let delay = seconds >= Double(UInt64.max / 2) / 1e9 ? UInt64.max / 2 : UInt64(max(0, seconds) * 1e9)
        let deadline = now + delay
        return state.withLock { state in
            state.nextID += 1
            let id = state.nextID
            state.actions[id] = action
            state.push(Entry(deadline: deadline, id: id))
            if deadline < state.armed {
                // Armed under the lock, so that two calls (or a call and `fire`) cannot leave the
                // timer set for the later of their deadlines.
                state.armed = deadline
                arm(at: deadline)
            }
            return Token(id: id)
        }
    }

    /// Forgets the action of `token`; it never runs, even if its deadline is passing now.
    func cancel(_ token: Token) {
        state.withLock { state in
            guard state.actions.removeValue(forKey: token.id) != nil else { return }
            // Cancelled entries wait in the heap until they reach its top; rebuild it when they
            // outnumber the live ones, so it stays as small as the calls in flight.
            if state.heap.count > 64, state.heap.count > 2 * state.actions.count { state.compact() }
        }
    }

    /// The actions waiting, and the heap's size (live and cancelled entries): for tests.
    var counts: (pending: Int, stored: Int) { state.withLock { ($0.actions.count, $0.heap.count) } }

    private func arm(at deadline: UInt64) {
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), leeway: Self.leeway)
    }

    private func fire() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = state.withLock { state in
            var due: [@Sendable () -> Void] = []
            while let top = state.heap.first, top.deadline <= now {
                state.popTop()
                if let action = state.actions.removeValue(forKey: top.id) { due.append(action) }
            }
            // Skip cancelled entries so that the timer is armed for a live deadline.
            while let top = state.heap.first, state.actions[top.id] == nil { state.popTop() }
            state.armed = state.heap.first?.deadline ?? .max
            if state.armed != .max { arm(at: state.armed) }
            return due
        }
        // Outside the lock: an action may schedule or cancel.
        for action in due { action() }
    }
}

extension DeadlineScheduler.State {
    fileprivate mutating func push(_ entry: DeadlineScheduler.Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    fileprivate mutating func popTop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        siftDown(from: 0)
    }

    fileprivate mutating func compact() {
        heap.removeAll { actions[$0.id] == nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, heap[left + 1].deadline < heap[left].deadline { smallest = left + 1 }
            guard heap[smallest].deadline < heap[parent].deadline else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

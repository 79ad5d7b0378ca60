import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs actions at deadlines from one timer: the whole-exchange timeout of every call, the
/// connection pool's idle timer and its waiting calls' deadlines.
///
/// `DispatchQueue.asyncAfter` keeps a cancelled work item (about 600 bytes) queued until its
/// deadline passes: at 2,500 calls a second under the 60-second default timeout, some 90 MB held
/// for nothing, and a timer heap of 150,000 entries to keep ordered. Here a cancelled deadline is
/// forgotten at once, and one timer is armed for the earliest live deadline.
///
/// Where there is epoll (Linux), once the process's event loops run (the first HTTP/1.1 exchange
/// starts them), that timer is a timer of the first loop (``EventLoop``) and the actions run on
/// the loop's thread: no thread of the scheduler's own, and no Dispatch worker woken when a
/// deadline passes. Actions must therefore stay short (they resume a continuation, cancel a
/// task, close a socket). The scheduler starts no loop itself: until the loops run (a process
/// that only uses `URLSession`), and should they fail to start, a Dispatch timer source on a
/// queue of its own stands in, as the timer is elsewhere.
///
/// No closure it hands to a loop or a Dispatch source refers to it weakly: they hold its
/// ``Timing`` strongly, and the scheduler breaks those cycles when it goes away. A weak reference
/// gives its object a side table for the object's life; for the process's scheduler, which lives
/// until exit, valgrind then reports the side table as "definitely lost", since the object keeps
/// its address only shifted and flagged in its reference count (Docs/Reliability.md, "Leak check").
final class DeadlineScheduler: Sendable {
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
        /// The deadline the timer is (or is about to be) armed for (`UInt64.max`: not armed).
        var armed = UInt64.max
        /// Whether work that brings the loop's timer to `armed` is queued on the loop already.
        var syncQueued = false
        /// Set when the scheduler went away: nothing is scheduled or run any more.
        var stopped = false
    }

    /// The process's scheduler, which every transport shares.
    static let shared = DeadlineScheduler()

    /// How late an action may run: timeouts need no better, and the system can group wake-ups.
    static let leeway = DispatchTimeInterval.milliseconds(5)

    /// The heap, the actions and the timer; what the timer's closures hold.
    private let timing: Timing

    #if os(Linux) && canImport(CWebServiceKitSystem)
        /// A scheduler whose timer is one of the first loop of `loops` (the process's by
        /// default) once they run; it does not start them.
        convenience init(loopsOf loops: SharedEventLoops = .process) {
            self.init { loops.runningGroup?.loops.first }
        }

        /// A scheduler whose timer is one of `loop`: its actions run on that loop's thread.
        convenience init(loop: EventLoop) {
            self.init { loop }
        }

        /// A scheduler whose timer is one of the loop `loopSource` gives, asked again at each
        /// arming until it gives one; meanwhile a Dispatch timer stands in.
        init(loopSource: @escaping @Sendable () -> EventLoop?) {
            timing = Timing(loopSource: loopSource)
        }
    #else
        init(queue: DispatchQueue = DispatchQueue(label: "WebServiceKit.deadlines")) {
            timing = Timing(queue: queue)
        }
    #endif

    /// Forgets every action and stops the timer, which lets go of ``timing``.
    deinit { timing.stop() }

    /// Runs `action` `seconds` from now, unless cancelled first: on the loop's thread where the
    /// timer is a loop's, else on the scheduler's queue.
    func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Token {
        timing.schedule(after: seconds, action)
    }

    /// Forgets the action of `token`; it never runs, even if its deadline is passing now.
    func cancel(_ token: Token) { timing.cancel(token) }

    /// The actions waiting, and the heap's size (live and cancelled entries): for tests.
    var counts: (pending: Int, stored: Int) { timing.state.withLock { ($0.actions.count, $0.heap.count) } }

    /// The scheduler's state and timer. The closures of its timer (a loop's timer and the work
    /// that arms it, or a Dispatch source's handler) hold it strongly; ``stop()`` ends them.
    private final class Timing: @unchecked Sendable {  // `state` is locked; the rest: see each member
        let state = Locked(State())

        #if os(Linux) && canImport(CWebServiceKitSystem)
            /// Gives the loop whose timer wakes the scheduler, or `nil` while there is none.
            private let loopSource: @Sendable () -> EventLoop?
            /// The loop, once `loopSource` gave it: the same one from then on.
            private let timerLoop = Locked<EventLoop?>(nil)
            /// The loop's timer and the deadline it is armed for (`UInt64.max`: none). Touched on
            /// the loop's thread only.
            private var loopTimer: TimerQueue<() -> Void>.ID?
            private var loopDeadline = UInt64.max
            /// The Dispatch timer that stands in while no loop runs; made when first needed, armed
            /// under `state`'s lock.
            private let standIn = Locked<DispatchSourceTimer?>(nil)

            init(loopSource: @escaping @Sendable () -> EventLoop?) {
                self.loopSource = loopSource
            }
        #else
            private let timer: DispatchSourceTimer

            init(queue: DispatchQueue) {
                timer = DispatchSource.makeTimerSource(queue: queue)
                // The handler holds the timing until `stop` cancels the source.
                timer.setEventHandler { [self] in fire() }
                timer.activate()
            }
        #endif

        func schedule(after seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) -> Token {
            let now = DispatchTime.now().uptimeNanoseconds
            let delay = seconds >= Double(UInt64.max / 2) / 1e9 ? UInt64.max / 2 : UInt64(max(0, seconds) * 1e9)
            let deadline = now + delay
            let (token, needsSync) = state.withLock { state -> (Token, Bool) in
                state.nextID += 1
                let id = state.nextID
                guard !state.stopped else { return (Token(id: id), false) }
                state.actions[id] = action
                state.push(Entry(deadline: deadline, id: id))
                guard deadline < state.armed else { return (Token(id: id), false) }
                state.armed = deadline
                return (Token(id: id), rearm(&state))
            }
            if needsSync { syncTimer() }
            return token
        }

        func cancel(_ token: Token) {
            state.withLock { state in
                guard state.actions.removeValue(forKey: token.id) != nil else { return }
                // Cancelled entries wait in the heap until they reach its top; rebuild it when they
                // outnumber the live ones, so it stays as small as the calls in flight.
                if state.heap.count > 64, state.heap.count > 2 * state.actions.count { state.compact() }
            }
        }

        /// Runs the actions whose deadline passed, and arms the timer for the next live one.
        private func fire() {
            let now = DispatchTime.now().uptimeNanoseconds
            let (due, needsSync) = state.withLock { state -> ([@Sendable () -> Void], Bool) in
                var due: [@Sendable () -> Void] = []
                while let top = state.heap.first, top.deadline <= now {
                    state.popTop()
                    if let action = state.actions.removeValue(forKey: top.id) { due.append(action) }
                }
                // Skip cancelled entries so that the timer is armed for a live deadline.
                while let top = state.heap.first, state.actions[top.id] == nil { state.popTop() }
                state.armed = state.heap.first?.deadline ?? .max
                return (due, state.armed != .max && rearm(&state))
            }
            if needsSync { syncTimer() }
            // Outside the lock: an action may schedule or cancel.
            for action in due { action() }
        }

        #if os(Linux) && canImport(CWebServiceKitSystem)
            /// Forgets every action and disarms the timer: the loop's timer through work handed
            /// to its loop (a stopped loop dropped its timers already), the stand-in by cancelling
            /// it, which makes Dispatch release its handler.
            func stop() {
                state.withLock { $0.stop() }
                standIn.withLock { timer in
                    timer?.cancel()
                    timer = nil
                }
                if let loop = timerLoop.current {
                    loop.execute { [self] in syncLoopTimer(on: loop) }
                }
            }

            /// Called under the lock once `armed` changed: whether the caller must bring the loop's
            /// timer to it (``syncTimer()``), that is, whether no such work is queued on the loop
            /// already (the work queued reads `armed` when it runs, so one is enough).
            private func rearm(_ state: inout State) -> Bool {
                guard !state.syncQueued else { return false }
                state.syncQueued = true
                return true
            }

            /// Brings the loop's timer to the earliest deadline: at once on the loop's thread, else
            /// through work handed to the loop; with the stand-in while no loop runs.
            private func syncTimer() {
                guard let loop = currentLoop() else { return armStandIn() }
                if loop.inLoop { return syncLoopTimer(on: loop) }
                // A loop that is shutting down (a test's own) takes no more work.
                guard loop.execute({ [self] in syncLoopTimer(on: loop) }) else { return armStandIn() }
            }

            /// The loop of the timer, or `nil` while it cannot start.
            private func currentLoop() -> EventLoop? {
                if let loop = timerLoop.current { return loop }
                guard let loop = loopSource() else { return nil }
                return timerLoop.withLock { current in
                    if current == nil { current = loop }
                    return current
                }
            }

            /// On the loop: arms its timer for `armed`, replacing the one armed before.
            private func syncLoopTimer(on loop: EventLoop) {
                let wanted = state.withLock { state in
                    state.syncQueued = false
                    return state.armed
                }
                guard wanted != loopDeadline else { return }
                if let loopTimer { loop.cancelTimer(loopTimer) }
                loopTimer = nil
                loopDeadline = wanted
                guard wanted != .max else { return }
                // The timer holds the timing until it fires or `stop` disarms it.
                loopTimer = loop.schedule(at: wanted) { [self] in
                    loopTimer = nil
                    loopDeadline = .max
                    fire()
                }
            }

            /// Arms the Dispatch timer that stands in for the loop's for `armed`.
            private func armStandIn() {
                state.withLock { state in
                    state.syncQueued = false
                    guard state.armed != .max, !state.stopped else { return }
                    let timer = standIn.withLock { timer in
                        if let timer { return timer }
                        let made = DispatchSource.makeTimerSource(
                            queue: DispatchQueue(label: "WebServiceKit.deadlines"))
                        // The handler holds the timing until `stop` cancels the source.
                        made.setEventHandler { [self] in fire() }
                        made.activate()
                        timer = made
                        return made
                    }
                    // Under the lock, so that two armings cannot leave it set for the later deadline.
                    timer.schedule(
                        deadline: DispatchTime(uptimeNanoseconds: state.armed), leeway: DeadlineScheduler.leeway)
                }
            }
        #else
            /// Forgets every action and cancels the timer, which makes Dispatch release its handler.
            func stop() {
                state.withLock { $0.stop() }
                timer.cancel()
            }

            /// Called under the lock once `armed` changed: arms the timer there, so that two calls
            /// (or a call and `fire`) cannot leave it set for the later of their deadlines.
            private func rearm(_ state: inout State) -> Bool {
                timer.schedule(deadline: DispatchTime(uptimeNanoseconds: state.armed), leeway: DeadlineScheduler.leeway)
                return false
            }

            private func syncTimer() {}
        #endif
    }
}

extension DeadlineScheduler.State {
    /// Forgets every action: nothing is scheduled or run any more, and the timer is wanted for
    /// no deadline.
    fileprivate mutating func stop() {
        stopped = true
        actions = [:]
        heap = []
        armed = .max
    }
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

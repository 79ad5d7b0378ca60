import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The connections of an ``HTTP1Transport``: at most ``Limits/perOrigin`` open to one origin (host
/// and port) and ``Limits/total`` in all, idle ones closed after ``Limits/idleTimeout``.
///
/// The decisions are ``ConnectionPoolState``'s; this class holds it under a lock, makes the
/// waiting calls wait (cancellable, and failing at their deadline), closes the connections it
/// says to close, and runs the idle timer: one action of the process's ``DeadlineScheduler``,
/// scheduled only while idle connections exist. Idle connections are closed when it goes away.
///
/// A connection goes back reusable only after a complete response that leaves it so; it comes
/// out only if the server has not closed it meanwhile (else a new one takes its place); a server
/// may still close it as the next request goes out, which the caller handles by sending that
/// request again on a new connection (RFC 9112 §9.3.1).
final class ConnectionPool: Sendable {
    typealias State = ConnectionPoolState<KeptAliveConnection>
    typealias Limits = State.Limits

    /// How long an idle connection is kept: less than nginx's 75 s keep-alive timeout, more
    /// than gunicorn's 2 s (whose closing shows as a readable socket, and is never used).
    static let defaultIdleTimeout: UInt64 = 30 * 1_000_000_000

    /// Connections across origins, by default (``HTTP1Transport/ConnectionLimits/defaultTotal``),
    /// from the process's soft `RLIMIT_NOFILE` as it is when a transport is made.
    ///
    /// On Linux every exchange runs on an event loop: a connection holds one descriptor (its
    /// socket; a download to a file one more while it runs) and no thread. The cap is the soft
    /// limit less a reserve for the rest of the process (its files, its sessions' sockets, the
    /// loops' own epoll and eventfd descriptors): a quarter of the limit, at least 64, and at
    /// most 65,536 connections (the number of TCP ports: more cannot reach one server address,
    /// and past that the reserve is ample). With `ulimit -n 1024` that is 768 connections; with
    /// 8,192, 6,144; with 256, 192; with 1,048,576 or no limit (`RLIM_INFINITY`), 65,536.
    ///
    /// Where there is no epoll (the blocking path), a connection holds three descriptors (its
    /// socket and a wake pipe) and, while in use, a thread blocked in `poll(2)`, of which
    /// Dispatch gives its pool at most 255: a quarter of the descriptors over three, between 4
    /// and 256 (85 with `ulimit -n 1024`; 21 with 256; 256 from 3,072 up).
    static var defaultTotal: Int { defaultTotal(softDescriptorLimit: softDescriptorLimit()) }

    /// ``defaultTotal`` for a soft descriptor limit (`nil`: unknown, 64 connections).
    static func defaultTotal(softDescriptorLimit limit: UInt64?) -> Int {
        guard let limit else { return 64 }
        #if os(Linux) && canImport(CWebServiceKitSystem)
            return Int(loopTotal(softDescriptorLimit: limit))
        #else
            return Int(min(256, max(4, limit / 4 / 3)))
        #endif
    }

    /// The event loop path's rule of ``defaultTotal``, on any platform (for tests).
    static func loopTotal(softDescriptorLimit limit: UInt64) -> UInt64 {
        let reserve = max(64, limit / 4)
        // At least 16, in a process whose limit leaves less than that beyond the reserve.
        return limit > reserve ? min(65_536, max(16, limit - reserve)) : 16
    }

    /// The process's soft `RLIMIT_NOFILE`: `UInt64.max` for no limit, `nil` when unknown.
    static func softDescriptorLimit() -> UInt64? {
        var limit = rlimit()
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return nil }
        // RLIM_INFINITY is rlim_t's largest value with glibc, 2^63 - 1 on Darwin: either way above
        // what gives the largest cap.
        return UInt64(limit.rlim_cur)
    }

    /// A waiting call: its grant or its failure, and the continuation that takes it. Used under
    /// the pool's lock only.
    private final class Waiter: @unchecked Sendable {
        var continuation: CheckedContinuation<State.Grant, any Error>?
        var outcome: Result<State.Grant, any Error>?
        var deadline: DeadlineScheduler.Token?

        /// Ends the wait with `result`: its deadline is forgotten, and the call resumed once the
        /// lock is released, or, if it has not suspended yet, given the result to find.
        func settle(_ result: Result<State.Grant, any Error>, into effects: inout Effects) {
            if let deadline { effects.forget.append(deadline) }
            if let continuation {
                self.continuation = nil
                effects.resume.append((continuation, result))
            } else {
                outcome = result
            }
        }
    }

    private struct Shell {
        var state: State
        var waiters: [State.WaiterID: Waiter] = [:]
        var idleTimer: DeadlineScheduler.Token?
    }

    /// What is left to do once the lock is released: connections to close, waiting calls to
    /// resume, deadlines to forget.
    private struct Effects {
        var close: [KeptAliveConnection] = []
        var resume: [(CheckedContinuation<State.Grant, any Error>, Result<State.Grant, any Error>)] = []
        var forget: [DeadlineScheduler.Token] = []
    }

    private let shell: Locked<Shell>
    private let scheduler: DeadlineScheduler

    /// Whether its connections are blocking sockets run on threads (``KeptAliveConnection``).
    let onThreads: Bool

    /// A pool with `limits`, whose idle timer and waiting calls' deadlines run on `scheduler`, of
    /// blocking connections when `onThreads`.
    init(limits: Limits, scheduler: DeadlineScheduler = .shared, onThreads: Bool = false) {
        shell = Locked(Shell(state: State(limits: limits)))
        self.scheduler = scheduler
        self.onThreads = onThreads
    }

    deinit {
        let (idle, timer) = shell.withLock { shell in
            defer { shell.idleTimer = nil }
            return (shell.state.closeAllIdle(), shell.idleTimer)
        }
        if let timer { scheduler.cancel(timer) }
        for connection in idle { connection.close() }
    }

    /// The caps and the idle timeout.
    var limits: Limits { shell.withLock { $0.state.limits } }

    /// Open connections (idle and in use), idle ones, and waiting calls: for tests.
    var counts: (open: Int, idle: Int, waiting: Int) {
        shell.withLock { ($0.state.openCount, $0.state.idleCount, $0.state.waitingCount) }
    }

    /// A connection to `origin` for a request on a kept-alive connection: the most recently used
    /// idle one that the server has not closed, or a new one (not opened yet), once the caps allow
    /// it. Waits in order behind earlier calls; cancelling the task or passing `deadline` ends the
    /// wait with `URLError.cancelled` or `.timedOut` (``waitTimedOut(for:in:)``), and the call never holds a
    /// connection then: no connection is handed to a call whose deadline has passed, whenever the
    /// timer for it runs. Give it back with ``release(_:to:reusable:)``.
    func connection(to origin: String, deadline: DispatchTime?) async throws -> KeptAliveConnection {
        switch try await grant(for: origin, deadline: deadline) {
        case .reuse(let connection):
            if connection.isIdleAndOpen { return connection }
            // The server closed it (or sent something unasked) while it was idle: a new
            // connection takes its place.
            connection.close()
            return try newConnection(to: origin)
        case .open:
            return try newConnection(to: origin)
        }
    }

    /// Takes back a connection from ``connection(to:deadline:)``: kept for the next call when
    /// `reusable`, else closed now.
    func release(_ connection: KeptAliveConnection, to origin: String, reusable: Bool) {
        if !reusable { connection.close() }
        let now = DispatchTime.now().uptimeNanoseconds
        if let effects = update({ $0.state.release(origin: origin, connection: reusable ? connection : nil, now: now) })
        {
            perform(effects)
        }
    }

    /// Gives back the place of a connection that could not be made.
    private func releasePlace(to origin: String) {
        let now = DispatchTime.now().uptimeNanoseconds
        if let effects = update({ $0.state.release(origin: origin, connection: nil, now: now) }) { perform(effects) }
    }

    // MARK: - Waiting

    /// What ``acquire`` found under the lock.
    private enum Entry {
        case granted(State.Grant)
        case waiting(State.WaiterID, Waiter)
    }

    private func grant(for origin: String, deadline: DispatchTime?) async throws -> State.Grant {
        let now = DispatchTime.now().uptimeNanoseconds
        let (entry, effects) = shell.withLock { shell -> (Entry, Effects?) in
            let (acquisition, actions) = shell.state.acquire(
                origin: origin, deadline: deadline?.uptimeNanoseconds, now: now)
            let entry: Entry
            switch acquisition {
            case .granted(let grant):
                entry = .granted(grant)
            case .waiting(let id):
                let waiter = Waiter()
                shell.waiters[id] = waiter
                entry = .waiting(id, waiter)
            }
            // The fast path (an idle connection, or room for a new one) has nothing more to do.
            return (entry, actions.isEmpty ? nil : bookkeep(actions, in: &shell))
        }
        if let effects { perform(effects) }
        let grant: State.Grant
        switch entry {
        case .granted(let granted): grant = granted
        case .waiting(let id, let waiter): grant = try await wait(id, on: waiter, deadline: deadline)
        }
        // A call cancelled as it got its grant gives it back unused.
        if Task.isCancelled {
            switch grant {
            case .reuse(let connection): release(connection, to: origin, reusable: true)
            case .open: releasePlace(to: origin)
            }
            throw URLError(.cancelled)
        }
        return grant
    }

    /// Waits for the grant of the waiting call `id`, until the task is cancelled or `deadline`.
    private func wait(_ id: State.WaiterID, on waiter: Waiter, deadline: DispatchTime?) async throws -> State.Grant {
        if let deadline {
            let now = DispatchTime.now().uptimeNanoseconds
            let left = deadline.uptimeNanoseconds > now ? deadline.uptimeNanoseconds - now : 0
            let token = scheduler.schedule(after: Double(left) / 1e9) { [weak self] in
                self?.stopWaiting(id, timedOut: true)
            }
            let waits = shell.withLock { shell in
                guard shell.waiters[id] === waiter else { return false }
                waiter.deadline = token
                return true
            }
            if !waits { scheduler.cancel(token) }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = shell.withLock { _ -> Result<State.Grant, any Error>? in
                    if waiter.outcome == nil { waiter.continuation = continuation }
                    return waiter.outcome
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            stopWaiting(id, timedOut: false)
        }
    }

    /// Ends the wait of `id` with a timeout or a cancellation, if it still waits; a call that got
    /// its grant already keeps it.
    private func stopWaiting(_ id: State.WaiterID, timedOut: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        let effects = shell.withLock { shell -> Effects? in
            guard let origin = shell.state.origin(of: id), let actions = shell.state.cancel(id, now: now),
                let waiter = shell.waiters.removeValue(forKey: id)
            else {
                return nil
            }
            let error = timedOut ? Self.waitTimedOut(for: origin, in: shell.state) : URLError(.cancelled)
            var effects = bookkeep(actions, in: &shell)
            waiter.settle(.failure(error), into: &effects)
            return effects
        }
        if let effects { perform(effects) }
    }

    /// The error of a call whose deadline passed while it waited for a connection to `origin`:
    /// which phase, how many connections were open against which cap, and what raises them.
    static func waitTimedOut(for origin: String, in state: State) -> URLError {
        let limits = state.limits
        let perOrigin = limits.perOrigin == .max ? "no cap" : "cap \(limits.perOrigin)"
        return .timedOut(
            TimeoutFailure(
                phase: .waitingForConnection, limit: nil,
                setting: "the call's timeout, or HTTP1Transport.ConnectionLimits (perOrigin, total)"),
            detail: "Connections to \(origin): \(state.openCount(for: origin)) open (\(perOrigin) per origin), "
                + "\(state.openCount) of \(limits.total) in all, \(state.waitingCount) calls still waiting")
    }

    /// Does, under the lock, the part of `actions` that is bookkeeping: grants are matched with
    /// their waiting calls, the idle timer is armed. The rest is returned, for ``perform(_:)``.
    private func bookkeep(_ actions: State.Actions, in shell: inout Shell) -> Effects {
        var effects = Effects(close: actions.close)
        for (id, origin) in actions.expired {
            guard let waiter = shell.waiters.removeValue(forKey: id) else { continue }
            waiter.settle(.failure(Self.waitTimedOut(for: origin, in: shell.state)), into: &effects)
        }
        for (id, grant) in actions.grants {
            // Always there: a waiting call's entry is made under the lock that made it wait, and
            // removed only with its grant or its cancellation.
            guard let waiter = shell.waiters.removeValue(forKey: id) else { continue }
            waiter.settle(.success(grant), into: &effects)
        }
        if let time = actions.armIdleTimer {
            if let old = shell.idleTimer { scheduler.cancel(old) }
            let now = DispatchTime.now().uptimeNanoseconds
            let seconds = time > now ? Double(time - now) / 1e9 : 0
            shell.idleTimer = scheduler.schedule(after: seconds) { [weak self] in self?.expireIdle() }
        }
        return effects
    }

    /// Closes connections and resumes waiting calls, outside the lock.
    private func perform(_ effects: Effects) {
        for token in effects.forget { scheduler.cancel(token) }
        for connection in effects.close { connection.close() }
        for (continuation, result) in effects.resume { continuation.resume(with: result) }
    }

    /// Runs a state operation that returns actions under the lock, and gives back what is left
    /// to do outside it (`nil`: nothing).
    private func update(_ operation: (inout Shell) -> State.Actions) -> Effects? {
        shell.withLock { shell in
            let actions = operation(&shell)
            return actions.isEmpty ? nil : bookkeep(actions, in: &shell)
        }
    }

    /// The idle timer: closes the connections idle too long, and arms itself again while idle
    /// connections remain.
    private func expireIdle() {
        let now = DispatchTime.now().uptimeNanoseconds
        let effects = update { shell in
            shell.idleTimer = nil
            return shell.state.expireIdle(now: now)
        }
        if let effects { perform(effects) }
    }

    private func newConnection(to origin: String) throws -> KeptAliveConnection {
        do {
            return try KeptAliveConnection.make(onThreads: onThreads)
        } catch {
            releasePlace(to: origin)
            throw error
        }
    }
}

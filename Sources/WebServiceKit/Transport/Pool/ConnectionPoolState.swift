/// The bookkeeping of a ``ConnectionPool``, without any I/O: which connections are open to which
/// origin, which of them are idle and since when, and which calls wait for one, in order.
///
/// Every operation takes the time as an argument (nanoseconds of a monotonic clock) and returns
/// what the caller must do: hand a connection or a place for a new one to waiting calls, close
/// connections, arm the idle timer. The pool applies those actions; tests drive this type with a
/// clock of their own. `Connection` is the pool's handle of an open connection.
///
/// Counting: an origin's open connections are its idle ones plus those leased to calls (a place
/// to open one counts from the moment it is given). A call gets, in this order: the most recently
/// used idle connection of its origin; a place to open one when its origin is below
/// ``Limits/perOrigin`` and the pool below ``Limits/total`` (closing the connection idle the
/// longest, of any origin, when only the total is reached); else it waits.
///
/// Waiting calls of one origin are served strictly first come, first served: a connection given
/// back reusable goes to the first waiting call of its origin. When a place frees up in the total, the
/// earliest waiting call of any origin below its own cap goes first.
///
/// A waiting call whose deadline has passed is never given anything: when its turn comes it
/// leaves the queue in ``Actions/expired`` instead (the caller fails it with a timeout), and the
/// next call is served. The caller's own timer for that deadline may run later than the deadline
/// (its thread busy), so the rule is here, where grants are decided, and not in the timer.
///
/// Idle connections are closed once idle for ``Limits/idleTimeout``: by the idle timer, which
/// ``Actions/armIdleTimer`` asks for while idle connections exist, at most once per
/// ``reapInterval`` (each run visits the origins with open connections or waiting calls, at most
/// ``Limits/total`` plus the waiting calls); and by any call to the same origin meanwhile.
struct ConnectionPoolState<Connection> {
    /// The caps and the idle timeout.
    struct Limits: Sendable, Equatable {
        /// Open connections (idle and in use) per origin at most.
        var perOrigin: Int
        /// Open connections across origins at most.
        var total: Int
        /// How long a connection may stay idle before it is closed, in nanoseconds.
        var idleTimeout: UInt64
    }

    /// A waiting call; ids grow in the order calls arrive.
    typealias WaiterID = UInt64

    /// What a call gets.
    enum Grant {
        /// An idle connection, to send the request on (after checking that the server did not
        /// close it meanwhile).
        case reuse(Connection)
        /// A place for a new connection: open it.
        case open
    }

    /// What ``acquire(origin:deadline:now:)`` decided.
    enum Acquisition {
        /// The call goes now.
        case granted(Grant)
        /// The call waits: it gets its grant from a later operation's ``Actions/grants``, unless
        /// it is cancelled first (``cancel(_:)``).
        case waiting(WaiterID)
    }

    /// What the caller must do after an operation.
    struct Actions {
        /// Waiting calls that got a grant, in order.
        var grants: [(waiter: WaiterID, grant: Grant)] = []
        /// Waiting calls whose turn came after their deadline: out of the queue, with nothing;
        /// fail each with a timeout.
        var expired: [(waiter: WaiterID, origin: String)] = []
        /// Connections to close (idle too long, or making room for another call).
        var close: [Connection] = []
        /// Arm the idle timer for this time (nanoseconds); it is not armed for an earlier one.
        var armIdleTimer: UInt64?

        /// Whether there is nothing to do.
        var isEmpty: Bool { grants.isEmpty && expired.isEmpty && close.isEmpty && armIdleTimer == nil }
    }

    private struct Idle {
        let connection: Connection
        let since: UInt64
    }

    private struct Waiter {
        let id: WaiterID
        /// The call's deadline (nanoseconds), `nil` for none: past it, the call gets nothing.
        let deadline: UInt64?

        func hasExpired(at now: UInt64) -> Bool { deadline.map { now >= $0 } ?? false }
    }

    private struct Origin {
        /// Oldest first.
        var idle: [Idle] = []
        /// Leased to calls, or being opened for them.
        var leased = 0
        /// First come first.
        var waiters: [Waiter] = []

        var open: Int { idle.count + leased }
    }

    /// The caps; each at least 1.
    let limits: Limits
    private var origins: [String: Origin] = [:]
    private var waiterOrigins: [WaiterID: String] = [:]
    private var nextWaiter: WaiterID = 0
    /// Open connections across origins.
    private(set) var openCount = 0
    /// The time the idle timer is armed for, `nil` when it is not.
    private(set) var idleTimer: UInt64?

    /// A pool with nothing open; a cap below 1 counts as 1.
    init(limits: Limits) {
        self.limits = Limits(
            perOrigin: max(1, limits.perOrigin), total: max(1, limits.total), idleTimeout: limits.idleTimeout)
    }

    /// The idle timer runs at most this often: one second, or the idle timeout when shorter.
    var reapInterval: UInt64 { min(limits.idleTimeout, 1_000_000_000) }
    /// Idle connections across origins.
    var idleCount: Int { origins.values.reduce(0) { $0 + $1.idle.count } }
    /// Calls waiting for a connection.
    var waitingCount: Int { waiterOrigins.count }
    /// Open connections to `origin`.
    func openCount(for origin: String) -> Int { origins[origin]?.open ?? 0 }
    /// Connections to `origin` leased to calls.
    func leasedCount(for origin: String) -> Int { origins[origin]?.leased ?? 0 }
    /// The origin a waiting call waits for; `nil` once it waits no more.
    func origin(of waiter: WaiterID) -> String? { waiterOrigins[waiter] }

    /// A connection for a call to `origin`, or a place in its queue. A call that waits gets
    /// nothing once `deadline` (nanoseconds, the clock of `now`) has passed.
    mutating func acquire(origin key: String, deadline: UInt64? = nil, now: UInt64) -> (Acquisition, Actions) {
        var actions = Actions()
        // The origin's idle connections past the timeout go first: the timer may not have run yet.
        let timeout = limits.idleTimeout
        // In the same visit: whether calls of the origin waited past their deadline (they must
        // not hold this one back).
        let (expired, waiterExpired) = withOrigin(key) {
            (Self.removeExpired(from: &$0, timeout: timeout, now: now), $0.waiters.first?.hasExpired(at: now) == true)
        }
        if !expired.isEmpty {
            openCount -= expired.count
            actions.close = expired
        }
        if waiterExpired { expireWaiters(of: key, now: now, into: &actions) }
        if origins[key]?.waiters.isEmpty ?? true,
            let grant = grant(to: key, actions: &actions)
        {
            return (.granted(grant), actions)
        }
        nextWaiter += 1
        let waiter = Waiter(id: nextWaiter, deadline: deadline)
        withOrigin(key) { $0.waiters.append(waiter) }
        waiterOrigins[waiter.id] = key
        return (.waiting(waiter.id), actions)
    }

    /// Takes back a connection leased for `origin`: `connection` when it can carry another
    /// request, `nil` when it was closed (or never opened). A release without a lease does nothing.
    mutating func release(origin key: String, connection: Connection?, now: UInt64) -> Actions {
        var actions = Actions()
        guard let leased = origins[key]?.leased, leased > 0 else { return actions }
        if let connection {
            // Straight to the first waiting call of the origin whose deadline has not passed; the
            // place stays leased.
            expireWaiters(of: key, now: now, into: &actions)
            let first: Waiter? = withOrigin(key) { origin in
                guard !origin.waiters.isEmpty else {
                    origin.leased -= 1
                    origin.idle.append(Idle(connection: connection, since: now))
                    return nil
                }
                return origin.waiters.removeFirst()
            }
            if let first {
                waiterOrigins[first.id] = nil
                actions.grants.append((first.id, .reuse(connection)))
            } else if idleTimer == nil {
                idleTimer = now &+ limits.idleTimeout
                actions.armIdleTimer = idleTimer
            }
        } else {
            withOrigin(key) { $0.leased -= 1 }
            openCount -= 1
        }
        serveWaiters(&actions, now: now)
        removeIfUnused(key)
        return actions
    }

    /// Removes a waiting call from its queue (cancelled, or its deadline passed); `nil` when it
    /// is not waiting (any more): it was given its grant already (which the caller must release)
    /// or left the queue in ``Actions/expired``.
    mutating func cancel(_ waiter: WaiterID, now: UInt64) -> Actions? {
        guard let key = waiterOrigins.removeValue(forKey: waiter) else { return nil }
        withOrigin(key) { $0.waiters.removeAll { $0.id == waiter } }
        var actions = Actions()
        // A call that waited behind this one may go now.
        serveWaiters(&actions, now: now)
        removeIfUnused(key)
        return actions
    }

    /// Closes the connections idle for the timeout or longer, when the idle timer fires;
    /// ``Actions/armIdleTimer`` tells when to fire next (`nil`: no idle connection is left).
    mutating func expireIdle(now: UInt64) -> Actions {
        var actions = Actions()
        var next: UInt64?
        let timeout = limits.idleTimeout
        for key in Array(origins.keys) {
            let expired = withOrigin(key) { Self.removeExpired(from: &$0, timeout: timeout, now: now) }
            openCount -= expired.count
            actions.close += expired
            if let oldest = origins[key]?.idle.first { next = min(next ?? .max, oldest.since &+ timeout) }
            removeIfUnused(key)
        }
        // Not before the interval: the work of a run stays bounded per second.
        idleTimer = next.map { max($0, now &+ reapInterval) }
        actions.armIdleTimer = idleTimer
        serveWaiters(&actions, now: now)
        return actions
    }

    /// Closes every idle connection (the transport is going away).
    mutating func closeAllIdle() -> [Connection] {
        var closed: [Connection] = []
        for key in Array(origins.keys) {
            let idle = withOrigin(key) { origin in
                defer { origin.idle = [] }
                return origin.idle.map(\.connection)
            }
            openCount -= idle.count
            closed += idle
            removeIfUnused(key)
        }
        idleTimer = nil
        return closed
    }

    // MARK: - Helpers

    /// Runs `body` on the entry of `key` in place (no copy of its arrays), creating it if needed.
    private mutating func withOrigin<Result>(_ key: String, _ body: (inout Origin) -> Result) -> Result {
        body(&origins[key, default: Origin()])
    }

    /// Removes the idle connections of `origin` that reached the timeout; the caller counts them.
    private static func removeExpired(from origin: inout Origin, timeout: UInt64, now: UInt64) -> [Connection] {
        guard let oldest = origin.idle.first, now >= oldest.since, now - oldest.since >= timeout else { return [] }
        // Oldest first: the expired ones are a prefix (a release reads the clock before the lock,
        // so one may be a few nanoseconds out of order; it goes at the next run).
        let count = origin.idle.prefix { now >= $0.since && now - $0.since >= timeout }.count
        defer { origin.idle.removeFirst(count) }
        return origin.idle.prefix(count).map(\.connection)
    }

    /// A grant for a call to `key` if one is possible now, with the bookkeeping done.
    private mutating func grant(to key: String, actions: inout Actions) -> Grant? {
        let perOrigin = limits.perOrigin
        // .some(grant): decided within the origin; .some(nil): no grant; .none: ask the total.
        let local: Grant?? = withOrigin(key) { origin in
            if let idle = origin.idle.popLast() {
                origin.leased += 1
                return .some(.reuse(idle.connection))
            }
            // At the origin's cap with nothing idle: no grant; else room in the origin.
            return origin.open >= perOrigin ? .some(nil) : .none
        }
        if let local { return local }
        if openCount >= limits.total {
            // At the total cap: close the connection idle the longest, of any origin.
            guard let victim = longestIdle() else { return nil }
            actions.close.append(withOrigin(victim) { $0.idle.removeFirst().connection })
            openCount -= 1
            if victim != key { removeIfUnused(victim) }
        }
        withOrigin(key) { $0.leased += 1 }
        openCount += 1
        return .open
    }

    /// Takes the waiting calls at the head of `key`'s queue whose deadline has passed out of the
    /// queue, into ``Actions/expired``.
    private mutating func expireWaiters(of key: String, now: UInt64, into actions: inout Actions) {
        guard let waiters = origins[key]?.waiters, waiters.first?.hasExpired(at: now) == true else { return }
        let count = waiters.prefix { $0.hasExpired(at: now) }.count
        withOrigin(key) { $0.waiters.removeFirst(count) }
        for waiter in waiters.prefix(count) {
            waiterOrigins[waiter.id] = nil
            actions.expired.append((waiter.id, key))
        }
    }

    /// The origin of the connection idle the longest, across origins.
    private func longestIdle() -> String? {
        var best: (key: String, since: UInt64)?
        for (key, origin) in origins {
            guard let oldest = origin.idle.first else { continue }
            if best.map({ oldest.since < $0.since }) ?? true { best = (key, oldest.since) }
        }
        return best?.key
    }

    /// Gives grants to waiting calls while any can have one: the earliest waiting call (by
    /// arrival) at the head of an origin's queue that can go, first. A call whose deadline has
    /// passed leaves the queue in ``Actions/expired`` when it would have been chosen.
    private mutating func serveWaiters(_ actions: inout Actions, now: UInt64) {
        while !waiterOrigins.isEmpty {
            let anyIdle = origins.values.contains { !$0.idle.isEmpty }
            var chosen: (key: String, waiter: Waiter)?
            for (key, origin) in origins {
                guard let first = origin.waiters.first, chosen.map({ first.id < $0.waiter.id }) ?? true,
                    canServe(first, of: origin, anyIdle: anyIdle)
                else { continue }
                chosen = (key, first)
            }
            guard let (key, waiter) = chosen else { return }
            if waiter.hasExpired(at: now) {
                expireWaiters(of: key, now: now, into: &actions)
                removeIfUnused(key)
                continue
            }
            guard let grant = grant(to: key, actions: &actions) else { return }
            withOrigin(key) { _ = $0.waiters.removeFirst() }
            waiterOrigins[waiter.id] = nil
            actions.grants.append((waiter.id, grant))
        }
    }

    /// Whether ``grant(to:actions:)`` would give `waiter` something now.
    private func canServe(_ waiter: Waiter, of origin: Origin, anyIdle: Bool) -> Bool {
        if !origin.idle.isEmpty { return true }
        if origin.open >= limits.perOrigin { return false }
        return openCount < limits.total || anyIdle
    }

    private mutating func removeIfUnused(_ key: String) {
        if let origin = origins[key], origin.open == 0, origin.waiters.isEmpty { origins[key] = nil }
    }
}

extension ConnectionPoolState.Grant: Sendable where Connection: Sendable {}

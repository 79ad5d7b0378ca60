import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The loop count of a group of event loops made on first use, and (where there is epoll) that
/// group: the process's one (``process``, behind ``HTTP1Transport/eventLoopCount`` and
/// `EventLoopGroup.shared()`), or a test's own.
final class SharedEventLoops: Sendable {
    /// The environment variable that gives the count when no code sets it.
    static let environmentVariable = "WEBSERVICEKIT_EVENT_LOOPS"

    /// The prefix of the process's loop threads' names: `wsk-loop-0`, `wsk-loop-1`, … (Linux
    /// keeps 15 bytes of a thread's name, in `/proc/self/task/*/comm`).
    static let processName = "wsk-loop"

    /// The process's group, sized from its environment and core count.
    static let process = SharedEventLoops(
        name: processName, environment: ProcessInfo.processInfo.environment,
        cores: ProcessInfo.processInfo.activeProcessorCount)

    private struct Slot {
        /// The count set in code, if any.
        var requested: Int?
        #if os(Linux) && canImport(CWebServiceKitSystem)
            /// The group, once started.
            var group: EventLoopGroup?
        #endif

        /// The count of the running group, if it runs.
        var running: Int? {
            #if os(Linux) && canImport(CWebServiceKitSystem)
                group?.loops.count
            #else
                nil
            #endif
        }
    }

    /// The prefix of the loops' thread names.
    let name: String
    /// The count without a setting in code: the environment's, else one per core.
    let defaultCount: Int
    private let slot = Locked(Slot())

    /// A group named `name` whose default count is `environment`'s
    /// ``environmentVariable`` when it is a positive integer, else `cores` (at least 1).
    init(name: String, environment: [String: String], cores: Int) {
        self.name = name
        let fromEnvironment = environment[Self.environmentVariable].flatMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
        if let fromEnvironment, fromEnvironment > 0 {
            defaultCount = fromEnvironment
        } else {
            defaultCount = max(1, cores)
        }
    }

    /// The count of the running group, or the count it will start with.
    var count: Int { slot.withLock { $0.running ?? $0.requested ?? defaultCount } }

    /// Sets the count the group starts with (below 1: 1). Returns `false`, and changes
    /// nothing, once the group runs.
    @discardableResult
    func setCount(_ count: Int) -> Bool {
        slot.withLock { slot in
            guard slot.running == nil else { return false }
            slot.requested = max(1, count)
            return true
        }
    }

    #if os(Linux) && canImport(CWebServiceKitSystem)
        /// The group, started with ``count`` loops by the first call. A failure to start it (no
        /// descriptor left) is thrown to that call, and the next call tries again.
        func group() throws(URLError) -> EventLoopGroup {
            let outcome = slot.withLock { slot -> Result<EventLoopGroup, URLError> in
                if let group = slot.group { return .success(group) }
                do throws(URLError) {
                    let made = try EventLoopGroup(count: slot.requested ?? defaultCount, name: name)
                    slot.group = made
                    return .success(made)
                } catch {
                    return .failure(error)
                }
            }
            return try outcome.get()
        }

        /// The group if it runs; it is not started.
        var runningGroup: EventLoopGroup? { slot.withLock { $0.group } }
    #endif
}

#if os(Linux) && canImport(CWebServiceKitSystem)
    /// A small, fixed set of event loops (one per core by default); new work goes to them in turn.
    final class EventLoopGroup: Sendable {
        let loops: [EventLoop]
        private let turn = Locked(0)

        /// Starts `count` loops (at least one), their threads named `name-0`, `name-1`, …
        init(count: Int = ProcessInfo.processInfo.activeProcessorCount, name: String) throws(URLError) {
            var loops: [EventLoop] = []
            do throws(URLError) {
                for index in 0..<max(1, count) { loops.append(try EventLoop(name: "\(name)-\(index)")) }
            } catch {
                for loop in loops { loop.shutdown() }
                throw error
            }
            self.loops = loops
        }

        /// The loop whose turn it is.
        func next() -> EventLoop {
            loops[
                turn.withLock { turn in
                    defer { turn = (turn + 1) % loops.count }
                    return turn
                }]
        }

        /// Shuts every loop down (``EventLoop/shutdown()``).
        func shutdown() { for loop in loops { loop.shutdown() } }

        /// The prefix of the shared group's thread names: `wsk-loop-0`, `wsk-loop-1`, …
        static let sharedName = SharedEventLoops.processName

        /// The process's group, which every ``HTTP1Transport`` shares: as many loops as
        /// ``HTTP1Transport/eventLoopCount`` says (one per core by default), started by the first
        /// call that needs it and never shut down. A failure to start it (no descriptor left) is
        /// thrown to that call, and the next call tries again.
        static func shared() throws(URLError) -> EventLoopGroup { try SharedEventLoops.process.group() }
    }
#endif

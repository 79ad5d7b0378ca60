#if os(Linux) && canImport(CWebServiceKitSystem)
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

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

        /// The prefix of the shared group's thread names: `wsk-loop-0`, `wsk-loop-1`, … (Linux
        /// keeps 15 bytes of a thread's name, in `/proc/self/task/*/comm`).
        static let sharedName = "wsk-loop"

        private static let sharedGroup = Locked<EventLoopGroup?>(nil)

        /// The process's group, which every ``HTTP1Transport`` shares: one loop per core, started
        /// by the first call that needs it and never shut down. A failure to start it (no
        /// descriptor left) is thrown to that call, and the next call tries again.
        static func shared() throws(URLError) -> EventLoopGroup {
            let outcome = sharedGroup.withLock { group -> Result<EventLoopGroup, URLError> in
                if let group { return .success(group) }
                do throws(URLError) {
                    let made = try EventLoopGroup(name: sharedName)
                    group = made
                    return .success(made)
                } catch {
                    return .failure(error)
                }
            }
            return try outcome.get()
        }
    }
#endif

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
    }
#endif

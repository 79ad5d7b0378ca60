#if os(Linux) && canImport(CWebServiceKitSystem)
    import Dispatch
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// Resolves host names off the event loops, on a fixed number of serial queues (so at most
    /// that many threads block in `getaddrinfo(3)`, whatever the number of calls). A numeric
    /// host never comes here: the exchanges parse it on their loop, and no resolver thread runs
    /// for it.
    final class HostResolver: Sendable {
        /// The process's resolver: two lookups at a time.
        static let shared = HostResolver(width: 2)

        private let queues: [DispatchQueue]
        private let turn = Locked(0)
        private let asked = Locked(0)

        /// The lookups handed to the resolver so far: for tests.
        var lookups: Int { asked.current }

        init(width: Int) {
            queues = (0..<max(1, width)).map { DispatchQueue(label: "WebServiceKit.resolver-\($0)") }
        }

        /// Resolves `host` and calls `completion` with its addresses, on the resolver's thread.
        func resolve(
            host: String, port: Int, completion: @escaping @Sendable (Result<[ResolvedAddress], URLError>) -> Void
        ) {
            asked.withLock { $0 += 1 }
            let index = turn.withLock { turn in
                defer { turn = (turn + 1) % queues.count }
                return turn
            }
            queues[index].async {
                do throws(URLError) {
                    completion(.success(try SocketOperations.resolve(host: host, port: port)))
                } catch {
                    completion(.failure(error))
                }
            }
        }

        /// The addresses of `host`, for `body` on `loop` (called from `loop`): a numeric host is
        /// parsed there at once, without asking DNS and without a resolver thread; a name is
        /// resolved on the resolver's queues first.
        func addresses(
            of host: String, port: Int, on loop: EventLoop,
            _ body: @escaping @Sendable (Result<[ResolvedAddress], URLError>) -> Void
        ) {
            guard SocketOperations.isNumeric(host) else {
                resolve(host: host, port: port) { result in loop.execute { body(result) } }
                return
            }
            do throws(URLError) {
                body(.success(try SocketOperations.resolve(host: host, port: port)))
            } catch {
                body(.failure(error))
            }
        }
    }
#endif

import Foundation
import XCTest

@testable import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if os(Linux) && canImport(CWebServiceKitSystem)
    /// The HTTP/1.1 transport's caps against the fault server: idle connections kept up to the
    /// cap between bursts (counted by the server, which tells each request's client port and how
    /// many requests its connection carried before), and calls that find no descriptor left for
    /// their connection. Nothing here measures time.
    final class ConnectionLimitsIntegrationTests: XCTestCase {
        /// What `/keep-alive/peer` tells of the connection that carried the request.
        private struct Peer: Decodable, Sendable {
            /// The client's port: the same port is the same connection.
            let port: Int
            /// Requests served before this one on the connection (0: a new connection).
            let served: Int
        }

        private static let peer = WebServiceCall<Peer>(relativePath: "keep-alive/peer?tag=%%0%%", timeout: 30)
        /// Answered only once `n` requests of `group` are at the server: calls that must all be in
        /// flight at once, each on a connection of its own, whatever the scheduling.
        private static let barrier = WebServiceCall<Peer>(
            relativePath: "keep-alive/barrier?tag=%%0%%&group=%%1%%&n=%%2%%", timeout: 30)
        /// A route whose answer closes the connection: a call that leaves nothing in the pool.
        private static let closing = WebServiceCall<Data>(relativePath: "ok", timeout: 30)

        /// `count` concurrent barrier calls.
        private func burst(_ client: WebServiceClient, tag: String, count: Int) async throws -> [Peer] {
            let group = UUID().uuidString
            return try await withThrowingTaskGroup(of: Peer.self) { tasks in
                for _ in 0..<count { tasks.addTask { try await client.perform(Self.barrier, tag, group, count) } }
                return try await tasks.reduce(into: []) { $0.append($1) }
            }
        }

        func testASecondBurstFindsEveryConnectionOfTheFirstIdleAndOpensNone() async throws {
            // 64 calls in flight at once open 64 connections: more than the 16 idle connections
            // per origin the blocking path kept. All 64 stay idle in the pool, and the next 64
            // calls take them all: the server sees no new connection.
            let count = 64
            let transport = HTTP1Transport(configuration: .ephemeral, connectionLimits: .init(perOrigin: count))
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: transport)
            let tag = UUID().uuidString
            let first = try await burst(client, tag: tag, count: count)
            XCTAssertEqual(Set(first.map(\.port)).count, count, "one connection per call")
            XCTAssertTrue(first.allSatisfy { $0.served == 0 }, "\(first)")
            XCTAssertEqual(transport.pool.counts.idle, count, "every connection kept, \(transport.pool.counts)")
            let second = try await burst(client, tag: tag, count: count)
            XCTAssertEqual(Set(second.map(\.port)), Set(first.map(\.port)), "no new connection")
            XCTAssertTrue(second.allSatisfy { $0.served == 1 }, "each connection's second request: \(second)")
            XCTAssertEqual(transport.pool.counts.open, count)
        }

        func testIdleConnectionsAreClosedByTheIdleTimeoutAndTheNextBurstOpensNewOnes() async throws {
            let count = 24
            let transport = HTTP1Transport(
                configuration: .ephemeral, cookies: nil,
                limits: .init(perOrigin: count, total: count, idleTimeout: 200_000_000))
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: transport)
            let tag = UUID().uuidString
            let first = try await burst(client, tag: tag, count: count)
            XCTAssertEqual(Set(first.map(\.port)).count, count)
            // The idle timer closes them, without another call (a generous limit only bounds a
            // failing test).
            var closed = false
            for _ in 0..<1_000 where !closed {
                closed = transport.pool.counts.open == 0
                if !closed { try await Task.sleep(nanoseconds: 10_000_000) }
            }
            XCTAssertTrue(closed, "\(transport.pool.counts)")
            let second = try await burst(client, tag: tag, count: count)
            XCTAssertTrue(second.allSatisfy { $0.served == 0 }, "all new connections: \(second)")
            XCTAssertTrue(Set(second.map(\.port)).isDisjoint(with: first.map(\.port)))
        }

        // MARK: - No descriptor left

        /// What one call ended with.
        private enum Ending: Sendable {
            case answered
            case outOfDescriptors
            case other(String)
        }

        /// `count` concurrent calls of `/keep-alive/peer`, each ending counted once.
        /// How many calls were answered; any ending other than an answer or the out-of-descriptors
        /// error fails the test.
        private func answeredCount(_ endings: [Ending], file: StaticString = #filePath, line: UInt = #line) -> Int {
            var answered = 0
            for ending in endings {
                switch ending {
                case .answered: answered += 1
                case .outOfDescriptors: break
                case .other(let text): XCTFail(text, file: file, line: line)
                }
            }
            return answered
        }

        private func endings(_ client: WebServiceClient, tag: String, count: Int) async -> [Ending] {
            await withTaskGroup(of: Ending.self) { tasks in
                for _ in 0..<count {
                    tasks.addTask {
                        do {
                            _ = try await client.perform(Self.peer, tag)
                            return .answered
                        } catch let failure as WebServiceError where failure.urlError != nil {
                            guard let error = failure.urlError else { return .other("\(failure)") }
                            let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError
                            guard error.code == .cannotConnectToHost, underlying?.code == .EMFILE,
                                error.localizedDescription.contains("too many open files")
                            else { return .other("\(error.code.rawValue): \(error.localizedDescription)") }
                            return .outOfDescriptors
                        } catch {
                            return .other("\(error)")
                        }
                    }
                }
                return await tasks.reduce(into: []) { $0.append($1) }
            }
        }

        /// A client whose transport the test can look into, warmed up: the process's event loops
        /// and deadline timer exist before the descriptors run out, and the warm-up's connection
        /// is closed (its route closes it), so that the pool holds nothing.
        private func warmClient(perOrigin: Int) async throws -> (WebServiceClient, HTTP1Transport) {
            let transport = HTTP1Transport(configuration: .ephemeral, connectionLimits: .init(perOrigin: perOrigin))
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: transport)
            _ = try await client.perform(Self.closing)
            XCTAssertEqual(transport.pool.counts.open, 0)
            return (client, transport)
        }

        func testWithNoDescriptorLeftEveryCallFailsOnceSayingTooManyOpenFiles() async throws {
            // Two calls get a place in the pool and ten wait; each that fails gives its place to
            // the next, which fails too: every call ends once, with the same error.
            let (client, transport) = try await warmClient(perOrigin: 2)
            let tag = UUID().uuidString
            let calls = 12
            let exhaustion = try DescriptorExhaustion(leaving: 0)
            defer { exhaustion.restore() }
            let endings = await endings(client, tag: tag, count: calls)
            // A descriptor another part of the process freed meanwhile (an earlier test's idle
            // connection that its server closed) may have carried a call: then the pool holds its
            // connection, or the descriptor is still free.
            let cameFree = transport.pool.counts.open + exhaustion.spareDescriptors()
            exhaustion.restore()
            XCTAssertEqual(endings.count, calls)
            let answered = answeredCount(endings)
            if cameFree == 0 { XCTAssertEqual(answered, 0, "no descriptor, no answer") }
            // Every place given back: what is open is idle, nothing leased or waiting.
            XCTAssertEqual(transport.pool.counts.open, transport.pool.counts.idle, "\(transport.pool.counts)")
            XCTAssertEqual(transport.pool.counts.waiting, 0)
            // Descriptors back: the same client works, and no failed call reached the server.
            _ = try await client.perform(Self.peer, tag)
            let record = try await FaultServer.record(tag, at: try FaultServer.url())
            XCTAssertEqual(record.count, answered + 1)
        }

        /// Calls that wait for a connection past their deadline fail saying so (the phase, the
        /// connections open against the cap, the settings that raise them), and none of their
        /// requests is ever written: the two connections of the origin are held by calls the
        /// server answers only once a third request of their group arrives, which the test sends
        /// only after every waiting call has failed. Each method: a POST's request written after
        /// its caller was told it failed would be processed by the server.
        func testCallsWhoseDeadlinePassedWhileWaitingFailAndAreNeverWritten() async throws {
            let transport = HTTP1Transport(configuration: .ephemeral, connectionLimits: .init(perOrigin: 2))
            let client = WebServiceClient(serviceRoot: try FaultServer.url(), transport: transport)
            let group = UUID().uuidString
            let holders = (0..<2).map { _ in
                Task { try await client.perform(Self.barrier, UUID().uuidString, group, 3) }
            }
            // Both places of the origin taken (polled: the holders are not answered before the test
            // sends the third request).
            while transport.pool.counts.open < 2 { try await Task.sleep(nanoseconds: 1_000_000) }
            let tag = UUID().uuidString
            let methods: [HTTPMethod] = [.get, .post, .put, .patch, .delete]
            let failures = await withTaskGroup(of: WebServiceError?.self) { tasks in
                for method in methods {
                    let call = WebServiceCall<Data>(
                        method: method, relativePath: "ok?tag=%%0%%", bodyParameter: method == .get ? nil : 1,
                        timeout: 0.5)
                    tasks.addTask {
                        do {
                            let arguments: [any Sendable] = method == .get ? [tag] : [tag, ["n": "1"]]
                            _ = try await client.perform(call, arguments)
                            return nil
                        } catch {
                            return error as? WebServiceError
                        }
                    }
                }
                return await tasks.reduce(into: [WebServiceError?]()) { $0.append($1) }
            }
            XCTAssertEqual(failures.count, methods.count)
            for failure in failures {
                guard let failure, case .transport(let error) = failure.reason else {
                    return XCTFail("\(String(describing: failure))")
                }
                XCTAssertEqual(error.code, URLError.Code.timedOut)
                let text = "\(failure)"
                XCTAssertTrue(text.contains("passed while waiting for a connection from the pool"), text)
                XCTAssertTrue(text.contains(": 2 open (cap 2 per origin)"), text)
                XCTAssertTrue(text.contains("HTTP1Transport.ConnectionLimits"), text)
                XCTAssertEqual(failure.timeout?.phase, .waitingForConnection)
            }
            // The third request of the group: the holders get their answers.
            let other = WebServiceClient(serviceRoot: try FaultServer.url(), transport: HTTP1Transport())
            _ = try await other.perform(Self.barrier, UUID().uuidString, group, 3)
            for holder in holders { _ = try await holder.value }
            let record = try await FaultServer.record(tag, at: try FaultServer.url())
            XCTAssertEqual(record.count, 0, "a request was written after its call's deadline")
            XCTAssertEqual(transport.pool.counts.waiting, 0)
        }

        func testWithTwoDescriptorsLeftCallsGoOnOrFailEachOnce() async throws {
            // Sixteen calls, four places: connections that got a descriptor carry calls one after
            // another; the others fail with the error and give their place to a waiting call.
            let (client, transport) = try await warmClient(perOrigin: 4)
            let tag = UUID().uuidString
            let calls = 16
            let exhaustion = try DescriptorExhaustion(leaving: 2)
            defer { exhaustion.restore() }
            let endings = await endings(client, tag: tag, count: calls)
            exhaustion.restore()
            XCTAssertEqual(endings.count, calls)
            let answered = answeredCount(endings)
            XCTAssertGreaterThanOrEqual(answered, 1, "the first connection had a descriptor")
            // Every place given back: what is open is idle, nothing leased or waiting.
            XCTAssertEqual(transport.pool.counts.open, transport.pool.counts.idle, "\(transport.pool.counts)")
            XCTAssertEqual(transport.pool.counts.waiting, 0)
            // Each answered call reached the server once; no failed call did.
            let record = try await FaultServer.record(tag, at: try FaultServer.url())
            XCTAssertEqual(record.count, answered)
        }
    }

    /// Takes every descriptor the process can still open but `free` of them, by lowering the soft
    /// `RLIMIT_NOFILE` (to at most 4,096, so that filling it stays cheap) and duplicating a
    /// descriptor of `/dev/null` until `EMFILE`. ``restore()`` closes them and puts the limit
    /// back; call it in a `defer` so that a failing test restores too. Calling it again does
    /// nothing.
    final class DescriptorExhaustion {
        private var held: [Int32] = []
        private var original: rlimit?
        private static let resource = Int32(RLIMIT_NOFILE.rawValue)

        init(leaving free: Int) throws {
            var limit = rlimit()
            guard getrlimit(Self.resource, &limit) == 0 else { throw Failure("getrlimit: errno \(errno)") }
            original = limit
            var lowered = limit
            lowered.rlim_cur = min(limit.rlim_cur, 4_096)
            guard setrlimit(Self.resource, &lowered) == 0 else {
                restore()
                throw Failure("setrlimit: errno \(errno)")
            }
            let source = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard source >= 0 else {
                restore()
                throw Failure("open /dev/null: errno \(errno)")
            }
            held.append(source)
            while true {
                let copy = fcntl(source, F_DUPFD_CLOEXEC, 0)
                if copy >= 0 {
                    held.append(copy)
                    continue
                }
                let code = errno
                guard code == EMFILE, held.count > free else {
                    restore()
                    throw Failure("dup stopped with errno \(code) after \(held.count) descriptors")
                }
                break
            }
            for _ in 0..<free { close(held.removeLast()) }
        }

        deinit { restore() }

        /// How many descriptors the process could open now (each opened, counted and closed).
        func spareDescriptors() -> Int {
            guard let source = held.first else { return 0 }
            var spare: [Int32] = []
            while true {
                let copy = fcntl(source, F_DUPFD_CLOEXEC, 0)
                guard copy >= 0 else { break }
                spare.append(copy)
            }
            for fd in spare { close(fd) }
            return spare.count
        }

        /// Closes the descriptors taken and restores the limit.
        func restore() {
            for fd in held { close(fd) }
            held = []
            if var limit = original {
                _ = setrlimit(Self.resource, &limit)
                original = nil
            }
        }

        struct Failure: Error, CustomStringConvertible {
            let description: String
            init(_ description: String) { self.description = description }
        }
    }
#endif

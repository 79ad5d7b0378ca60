import Foundation
import WebServiceKit
import WebServiceKitJSONRPC
import WebServiceKitTesting
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Batches over a stub transport: the array on the wire, matching by id whatever the order,
/// per-request outcomes, and the answers that fail a batch as a whole.
final class JSONRPCBatchTests: XCTestCase {
    private func perform(_ batch: JSONRPCBatch, answer: StubTransport.Stub, endpoint: JSONRPCEndpoint? = nil)
        async throws(WebServiceError) -> (JSONRPCBatchResponse, StubTransport)
    {
        let (client, stubs) = makeStubClient(fallback: answer)
        let response = try await client.perform(endpoint ?? JSONRPCEndpoint(relativePath: "rpc"), batch)
        return (response, stubs)
    }

    func testBatchBodyAndOutOfOrderMatchingWithMixedOutcomes() async throws {
        var batch = JSONRPCBatch()
        let first = batch.add(.subtract, [42, 23])
        batch.notify(.recordPositional, ["audit", "hi"])
        let count = batch.add(.countCharacters, ["text": "hello"])
        let missing = batch.add(JSONRPCMethod<[Int], Int>("nope"), [])
        let failing = batch.add(.subtract, [1])
        let (response, stubs) = try await perform(
            batch,
            answer: jsonStub(
                #"""
                [{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid params"},"id":4},
                 {"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":3},
                 {"jsonrpc":"2.0","result":{"text":"hello","count":5},"id":2},
                 {"jsonrpc":"2.0","result":19,"id":1}]
                """#))
        XCTAssertEqual(
            sentBody(stubs),
            #"[{"jsonrpc":"2.0","method":"subtract","params":[42,23],"id":1},"#
                + #"{"jsonrpc":"2.0","method":"record","params":["audit","hi"]},"#
                + #"{"jsonrpc":"2.0","method":"count_characters","params":{"text":"hello"},"id":2},"#
                + #"{"jsonrpc":"2.0","method":"nope","params":[],"id":3},"#
                + #"{"jsonrpc":"2.0","method":"subtract","params":[1],"id":4}]"#)
        XCTAssertEqual(stubs.requests.count, 1, "one HTTP request")
        XCTAssertEqual(try response.value(for: first), 19)
        XCTAssertEqual(try response.result(for: count).get(), CharacterCount(text: "hello", count: 5))
        XCTAssertEqual(response.result(for: missing).failure?.jsonRPCError?.code, .methodNotFound)
        XCTAssertEqual(response.result(for: failing).failure?.jsonRPCError?.code, .invalidParams)
        XCTAssertEqual(response.id(for: first), 1)
        XCTAssertEqual(response.id(for: count), 2)
        XCTAssertEqual(response.errors.keys.sorted(), [3, 4], "positions in the batch, the notification counts")
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(first.index, 0)
        XCTAssertEqual(count.index, 2)
    }

    func testMissingDuplicateAndUndecodableResponsesFailOnlyTheirRequest() async throws {
        var batch = JSONRPCBatch()
        let fine = batch.add(.subtract, [3, 1])
        let absent = batch.add(.subtract, [3, 2])
        let twice = batch.add(.subtract, [3, 3])
        let wrongType = batch.add(.countCharacters, ["text": "x"])
        let (response, _) = try await perform(
            batch,
            answer: jsonStub(
                #"""
                [{"jsonrpc":"2.0","result":"not a count","id":4},{"jsonrpc":"2.0","result":0,"id":3},
                 {"jsonrpc":"2.0","result":0,"id":3},{"jsonrpc":"2.0","result":2,"id":1},
                 {"jsonrpc":"2.0","result":99,"id":77}]
                """#))
        XCTAssertEqual(try response.value(for: fine), 2)
        XCTAssertEqual(response.result(for: absent).failure?.jsonRPCResponseError, .missingResponse(id: 2))
        XCTAssertEqual(response.result(for: twice).failure?.jsonRPCResponseError, .duplicateResponse(id: 3))
        guard case .decoding(let failure) = response.result(for: wrongType).failure?.reason else {
            return XCTFail("\(response.result(for: wrongType))")
        }
        XCTAssertTrue(failure.underlying is DecodingError, "\(failure)")
        XCTAssertTrue(failure.description.contains("result"), failure.description)
    }

    func testResultsAreReadFromTheirOwnResponseObjectWhateverTheirStringsHold() async throws {
        var batch = JSONRPCBatch()
        let echo = JSONRPCMethod<[String], [String]>("echo")
        let keys = (0..<300).map { batch.add(echo, ["\($0)"]) }
        // Results whose strings hold the characters that separate and close elements, in an
        // order unlike the requests', with whitespace between the objects.
        let objects = keys.indices.reversed().map { index in
            #"{"id": \#(index + 1), "result": ["\#(index)", "],[{\\\",", "\\\\"], "jsonrpc": "2.0"}"#
        }
        let (response, _) = try await perform(
            batch, answer: jsonStub("[\n" + objects.joined(separator: " ,\n") + "\n]"))
        for (index, key) in keys.enumerated() {
            XCTAssertEqual(try response.value(for: key), ["\(index)", #"],[{\","#, #"\\"#])
        }
    }

    func testErrorsWithoutIDAnswerTheRequestsLeftWithoutResponse() async throws {
        var batch = JSONRPCBatch()
        let answered = batch.add(.subtract, [3, 1])
        let unreadable = batch.add(.subtract, [3, 2])
        let (response, _) = try await perform(
            batch,
            answer: jsonStub(
                #"[{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null},{"jsonrpc":"2.0","result":2,"id":1}]"#
            ))
        XCTAssertEqual(try response.value(for: answered), 2)
        XCTAssertEqual(response.result(for: unreadable).failure?.jsonRPCError?.code, .invalidRequest)
    }

    func testOneErrorObjectForTheWholeBatchFailsTheCall() async {
        var batch = JSONRPCBatch()
        _ = batch.add(.subtract, [3, 1])
        _ = batch.add(.subtract, [3, 2])
        do {
            _ = try await perform(
                batch, answer: jsonStub(#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}"#)
            )
            XCTFail("the server refused the batch")
        } catch {
            XCTAssertEqual(error.jsonRPCError?.code, .parseError)
            XCTAssertEqual(error.statusCode, 200)
        }
        do {
            _ = try await perform(batch, answer: jsonStub(#"{"jsonrpc":"2.0","result":2,"id":1}"#))
            XCTFail("one response cannot answer two requests")
        } catch {
            guard case .unexpectedShape = error.jsonRPCResponseError else { return XCTFail("\(error)") }
        }
        do {
            _ = try await perform(batch, answer: .status(204))
            XCTFail("requests were due answers")
        } catch {
            guard case .emptyBody(204) = error.reason else { return XCTFail("\(error)") }
        }
        do {
            _ = try await perform(
                batch, answer: jsonStub(#"[{"jsonrpc":"2.0","result":2,"id":1},{"result":1,"id":2}]"#))
            XCTFail("an element is not JSON-RPC 2.0")
        } catch {
            XCTAssertEqual(error.jsonRPCResponseError, .unsupportedVersion(nil))
        }
    }

    func testABareResponseAnswersABatchOfOneRequest() async throws {
        var batch = JSONRPCBatch()
        let only = batch.add(.subtract, [3, 1])
        batch.notify(.recordPositional, ["a", "b"])
        let (response, _) = try await perform(batch, answer: jsonStub(#"{"jsonrpc":"2.0","result":2,"id":1}"#))
        XCTAssertEqual(try response.value(for: only), 2)
    }

    func testEmptyBatchIsRefusedBeforeSending() async {
        let (client, stubs) = makeStubClient()
        let rpc = JSONRPCEndpoint(relativePath: "rpc")
        do {
            _ = try await client.perform(rpc, JSONRPCBatch())
            XCTFail("an empty batch is an invalid request")
        } catch {
            guard case .invalidArguments(nil, let reason) = error.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("at least one"), reason)
        }
        let delivered = await withCheckedContinuation { continuation in
            client.perform(rpc, JSONRPCBatch()) { continuation.resume(returning: $0) }
        }
        guard case .invalidArguments = delivered.failure?.reason else { return XCTFail("\(delivered)") }
        XCTAssertTrue(stubs.requests.isEmpty, "nothing was sent")
        // Cancelling the refused call before its failure is delivered delivers the cancellation instead.
        let queue = DispatchQueue(label: "jsonrpc.held")
        let held = WebServiceClient(serviceRoot: client.serviceRoot, transport: stubs, callbackQueue: queue)
        let cancelled = await withCheckedContinuation { continuation in
            queue.suspend()
            held.perform(rpc, JSONRPCBatch()) { continuation.resume(returning: $0) }.cancel(reason: "changed my mind")
            queue.resume()
        }
        guard case .cancelled("changed my mind") = cancelled.failure?.reason else { return XCTFail("\(cancelled)") }
    }

    func testBatchOfNotificationsOnlyExpectsNoBody() async throws {
        var batch = JSONRPCBatch()
        batch.notify(.recordPositional, ["audit", "one"])
        batch.notify(.listMethods)
        let (_, stubs) = try await perform(batch, answer: .status(204))
        XCTAssertEqual(
            sentBody(stubs),
            #"[{"jsonrpc":"2.0","method":"record","params":["audit","one"]},{"jsonrpc":"2.0","method":"system.listMethods"}]"#
        )
        _ = try await perform(batch, answer: .status(200))
        do {
            _ = try await perform(
                batch,
                answer: jsonStub(#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request"},"id":null}"#))
            XCTFail("the server refused the batch")
        } catch {
            XCTAssertEqual(error.jsonRPCError?.code, .invalidRequest)
        }
    }

    func testIDsAreFreshForEachPerformanceAndUniqueInABatch() async throws {
        let (client, stubs) = makeStubClient(fallback: jsonStub("[]"))
        let rpc = JSONRPCEndpoint(relativePath: "rpc", ids: .strings(prefix: "b-"))
        var batch = JSONRPCBatch()
        let key = batch.add(.subtract, [1, 1])
        _ = batch.add(.subtract, [2, 2])
        let first = try await client.perform(rpc, batch)
        let second = try await client.perform(rpc, batch)
        XCTAssertEqual(first.id(for: key), "b-1")
        XCTAssertEqual(second.id(for: key), "b-3")
        XCTAssertTrue(sentBody(stubs, 1)?.contains(#""id":"b-4""#) == true)

        struct Stuck: JSONRPCIDGenerator {
            func next() -> JSONRPCID { 7 }
        }
        do {
            _ = try await client.perform(JSONRPCEndpoint(relativePath: "rpc", ids: Stuck()), batch)
            XCTFail("a repeated id is refused")
        } catch {
            guard case .invalidArguments = error.reason else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(stubs.requests.count, 2)
    }

    func testKeysOnlyReadTheirOwnBatch() async throws {
        var batch = JSONRPCBatch()
        _ = batch.add(.subtract, [1, 1])
        var other = JSONRPCBatch()
        let foreign = other.add(.subtract, [1, 1])
        let (response, _) = try await perform(batch, answer: jsonStub(#"[{"jsonrpc":"2.0","result":0,"id":1}]"#))
        guard case .invalidArguments = response.result(for: foreign).failure?.reason else {
            return XCTFail("\(response.result(for: foreign))")
        }
        XCTAssertNil(response.id(for: foreign))
    }
}

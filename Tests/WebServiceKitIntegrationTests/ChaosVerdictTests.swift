import Foundation
import XCTest

@testable import WebServiceKitChaos

/// Each of the soak's checks (`ChaosVerdict`) on outcomes and server records made by hand: the
/// violation it must find, and the twin it must let pass.
final class ChaosVerdictTests: XCTestCase {
    private func judge(_ outcome: ChaosOutcome, _ records: [String]) throws -> ChaosReport {
        let log = try ChaosServerLog(lines: Data(records.joined(separator: "\n").utf8))
        return ChaosVerdict.judge([outcome], log: log)
    }

    private func record(
        _ nonce: String, method: String = "GET", behaviour: String = "length", body: String = "absent",
        answered: Bool = true, extra: String = ""
    ) -> String {
        #"{"nonce": "\#(nonce)", "method": "\#(method)", "conn": 7, "seq": 1, "behaviour": "\#(behaviour)", "body": "\#(body)", "answered": \#(answered)\#(extra)}"#
    }

    private func assertOnly(
        _ violation: ChaosViolation?, _ report: ChaosReport, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(
            report.violations.keys.sorted(), violation.map { [$0] } ?? [], "\(report)", file: file, line: line)
    }

    func testAnAnswerOfAnotherRequest() throws {
        let outcome = ChaosOutcome(nonce: "r-1", kind: .get, result: .answered(nonce: "r-2", connection: 7))
        assertOnly(.wrongAnswer, try judge(outcome, [record("r-1")]))
        let own = ChaosOutcome(nonce: "r-1", kind: .get, result: .answered(nonce: "r-1", connection: 7))
        assertOnly(nil, try judge(own, [record("r-1")]))
    }

    func testAnExtraResponseByItsRace() throws {
        let outcome = ChaosOutcome(nonce: "r-1", kind: .get, result: .answered(nonce: "extra-r-0", connection: 7))
        for (race, violation) in [("clear", ChaosViolation.wrongAnswer), ("near", nil), ("waiting", nil)] {
            let extra = #"{"extra": "extra-r-0", "nonce": "r-0/extra", "conn": 7, "race": "\#(race)"}"#
            let report = try judge(outcome, [record("r-0"), extra])
            assertOnly(violation, report)
            XCTAssertEqual(report.racedAnswers, race == "waiting" ? 1 : 0)
            XCTAssertEqual(report.nearAnswers, race == "near" ? 1 : 0)
        }
    }

    func testASuccessTheServerNeverAnswered() throws {
        let outcome = ChaosOutcome(nonce: "r-1", kind: .head, result: .answered(nonce: "r-1", connection: 7))
        assertOnly(.successUnanswered, try judge(outcome, []))
        assertOnly(.successUnanswered, try judge(outcome, [record("r-1", behaviour: "stall", answered: false)]))
    }

    func testAPostSentTwiceOrWithoutItsBody() throws {
        let outcome = ChaosOutcome(nonce: "r-1", kind: .post, result: .answered(nonce: "r-1", connection: 7))
        let sent = record("r-1", method: "POST", body: "complete")
        assertOnly(nil, try judge(outcome, [sent]))
        assertOnly(.postTwice, try judge(outcome, [sent, sent]))
        let idempotent = ChaosOutcome(nonce: "r-1", kind: .postIdempotent, result: outcome.result)
        assertOnly(nil, try judge(idempotent, [sent, sent]))
        let headOnly = record("r-1", method: "POST", body: "incomplete", answered: false)
        assertOnly(.headWithoutBody, try judge(idempotent, [headOnly, sent]))
        let wrongBody = record("r-1", method: "POST", body: "complete", extra: #", "bodyOK": false"#)
        assertOnly(.wrongBody, try judge(outcome, [wrongBody]))
    }

    func testAFailureWithoutTheServersCause() throws {
        let lost = ChaosOutcome(nonce: "r-1", kind: .get, result: .failed(.connectionLost("reset"), echo: nil))
        // Never read: an idempotent call should have gone again on a new connection.
        assertOnly(.idempotentStaleFailure, try judge(lost, []))
        // A POST never read, lost: what it must do (and counted).
        let post = ChaosOutcome(nonce: "r-1", kind: .post, result: lost.result)
        let report = try judge(post, [])
        assertOnly(nil, report)
        XCTAssertEqual(report.postsLostToIdleClose, 1)
        // ... but not as a timeout.
        let timedOut = ChaosOutcome(nonce: "r-1", kind: .post, result: .failed(.timedOut, echo: nil))
        assertOnly(.wrongFailure, try judge(timedOut, []))
        // The failure the behaviour implies, and another one.
        assertOnly(nil, try judge(lost, [record("r-1", behaviour: "reset-mid-body", answered: false)]))
        assertOnly(.wrongFailure, try judge(lost, [record("r-1", behaviour: "stall", answered: false)]))
        assertOnly(.wrongFailure, try judge(lost, [record("r-1", behaviour: "length")]))
        let status = ChaosOutcome(
            nonce: "r-1", kind: .get, result: .failed(.status(503), echo: ChaosEcho(nonce: "r-1", connection: 7)))
        assertOnly(nil, try judge(status, [record("r-1", behaviour: "503")]))
        // A 503 of another request's is a wrong answer.
        let other = ChaosOutcome(
            nonce: "r-1", kind: .get, result: .failed(.status(503), echo: ChaosEcho(nonce: "r-2", connection: 7)))
        assertOnly(.wrongAnswer, try judge(other, [record("r-1")]))
    }

    func testAHang() throws {
        let outcome = ChaosOutcome(nonce: "r-1", kind: .get, result: .failed(.hung, echo: nil))
        assertOnly(.hang, try judge(outcome, [record("r-1", behaviour: "stall", answered: false)]))
    }

    func testAStreamsEventsAndEnd() throws {
        func stream(framing: String, cut: Bool, events: Int) -> String {
            #"{"nonce": "r-1", "method": "GET", "conn": 7, "seq": 1, "behaviour": "sse", "body": "absent", "framing": "\#(framing)", "cut": \#(cut), "events": \#(events), "answered": \#(!cut)}"#
        }
        func outcome(_ events: Int, _ end: ChaosFailure?) -> ChaosOutcome {
            ChaosOutcome(
                nonce: "r-1", kind: .sse,
                result: .stream(
                    nonce: "r-1", connection: 7, events: (1...max(1, events)).prefix(events).map { "r-1 \($0)" },
                    end: end))
        }
        assertOnly(nil, try judge(outcome(3, nil), [stream(framing: "chunked", cut: false, events: 3)]))
        assertOnly(.streamEvents, try judge(outcome(2, nil), [stream(framing: "chunked", cut: false, events: 3)]))
        assertOnly(
            .streamEnd, try judge(outcome(3, .connectionLost("")), [stream(framing: "length", cut: false, events: 3)]))
        // Cut: chunked and Content-Length must fail; a body read until the close may end.
        assertOnly(.streamEnd, try judge(outcome(2, nil), [stream(framing: "chunked", cut: true, events: 2)]))
        assertOnly(nil, try judge(outcome(2, .connectionLost("")), [stream(framing: "length", cut: true, events: 2)]))
        assertOnly(nil, try judge(outcome(2, nil), [stream(framing: "until-close", cut: true, events: 2)]))
        // Cut before the client read the head: a failure with no event.
        let early = ChaosOutcome(nonce: "r-1", kind: .sse, result: .failed(.connectionLost(""), echo: nil))
        assertOnly(nil, try judge(early, [stream(framing: "chunked", cut: true, events: 0)]))
        assertOnly(.streamEvents, try judge(early, [stream(framing: "chunked", cut: true, events: 1)]))
    }
}

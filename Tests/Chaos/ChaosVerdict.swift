/// The invariants of the soak, checked call by call against the server's records: what a client
/// must never do, whatever the server does.
public enum ChaosViolation: String, CaseIterable, Sendable, Comparable {
    /// A call got an answer that carries another request's nonce: another call's answer, or an
    /// extra response no request came near (see ``ChaosRecord/race``).
    case wrongAnswer = "a call got another request's answer"
    /// A call succeeded although the server never answered its request.
    case successUnanswered = "success although the server never answered the request"
    /// A POST's body reached the server with another request's nonce.
    case wrongBody = "a POST body carried another request's nonce"
    /// A POST not marked idempotent reached the server twice.
    case postTwice = "a POST delivered twice"
    /// A request head reached the server and its body never did.
    case headWithoutBody = "a request sent as a head whose body never came"
    /// An idempotent call failed with no failure of the server's for it (a stale reused
    /// connection the client did not send it again from).
    case idempotentStaleFailure = "an idempotent call failed with no failure of the server's"
    /// A call failed in another way than the server's behaviour implies (a lost connection told
    /// as a timeout, say), or failed after a whole answer.
    case wrongFailure = "a call failed in another way than the server's behaviour implies"
    /// A stream's events differ from the events the server wrote whole.
    case streamEvents = "a stream's events differ from those the server completed"
    /// A stream ended cleanly where its framing says it was cut, or failed where it was not.
    case streamEnd = "a stream's end differs from its framing's"
    /// A call did not end (the watchdog cancelled it).
    case hang = "a call did not end"

    public static func < (left: Self, right: Self) -> Bool {
        (allCases.firstIndex(of: left) ?? 0) < (allCases.firstIndex(of: right) ?? 0)
    }
}

/// What one round of the soak found.
public struct ChaosReport: Sendable, CustomStringConvertible {
    public var calls = 0
    public var succeeded = 0
    public var failed = 0
    /// The avoidable violations, with up to five examples each.
    public var violations: [ChaosViolation: Int] = [:]
    public var examples: [ChaosViolation: [String]] = [:]
    /// Wrong answers no client can see: an extra response written when the request was already
    /// on its way.
    public var racedAnswers = 0
    /// Extra responses taken for an answer whose request came within the server's grace after
    /// them (most likely written between the client's look at the connection and its write).
    public var nearAnswers = 0
    /// POSTs (not idempotent) lost on a reused connection the server closed as they went out:
    /// failed with a lost connection, as they must (RFC 9112 §9.3.1).
    public var postsLostToIdleClose = 0
    /// Extra responses the server sent, how many of them a request came near (`waiting` or
    /// `near`), and after how many the client closed the connection (it saw them).
    public var extras = 0
    public var racedExtras = 0
    public var extrasSeen = 0
    /// Requests the server read more than once (sent again on a new connection or retried).
    public var resends = 0

    public var violationCount: Int { violations.values.reduce(0, +) }

    mutating func add(_ violation: ChaosViolation, _ example: @autoclosure () -> String) {
        violations[violation, default: 0] += 1
        if examples[violation, default: []].count < 5 { examples[violation, default: []].append(example()) }
    }

    public var description: String {
        var lines = [
            "\(calls) calls: \(succeeded) succeeded, \(failed) failed; \(resends) requests read again; "
                + "\(extras) extra responses (\(racedExtras) met a request, \(extrasSeen) seen by the client), "
                + "answers \(racedAnswers) raced, "
                + "\(nearAnswers) near; "
                + "\(postsLostToIdleClose) POSTs lost to an idle close; \(violationCount) violations"
        ]
        for violation in violations.keys.sorted() {
            lines.append("  \(violations[violation] ?? 0) × \(violation.rawValue)")
            for example in examples[violation] ?? [] { lines.append("      \(example)") }
        }
        return lines.joined(separator: "\n")
    }
}

/// Checks outcomes against the server's records.
enum ChaosVerdict {
    static func judge(_ outcomes: [ChaosOutcome], log: ChaosServerLog) -> ChaosReport {
        var report = ChaosReport()
        report.calls = outcomes.count
        report.extras = log.extras.count
        report.racedExtras = log.extras.values.count { $0.race == "waiting" || $0.race == "near" }
        report.extrasSeen = log.extras.values.count { $0.race == "closed" }
        for outcome in outcomes {
            let records = log.requests[outcome.nonce] ?? []
            if records.count > 1 { report.resends += records.count - 1 }
            checkDelivery(outcome, records, &report)
            switch outcome.result {
            case .answered(let nonce, let connection):
                report.succeeded += 1
                checkAnswer(outcome, nonce: nonce, connection: connection, records, log, &report)
            case .stream(let nonce, let connection, let events, let end):
                if end == nil { report.succeeded += 1 } else { report.failed += 1 }
                if checkAnswer(outcome, nonce: nonce, connection: connection, records, log, &report) {
                    checkStream(outcome, events: events, end: end, records, &report)
                }
            case .failed(let failure, let echo):
                report.failed += 1
                if let echo,
                    !checkAnswer(outcome, nonce: echo.nonce, connection: echo.connection, records, log, &report)
                {
                    continue
                }
                if outcome.kind == .sse, failure != .hung, records.last?.behaviour == "sse" {
                    // The head was sent, then the stream was cut before the client read it.
                    checkStream(outcome, events: [], end: failure, records, &report)
                } else {
                    checkFailure(outcome, failure, records, &report)
                }
            }
        }
        return report
    }

    /// What reached the server: a POST once, and every request whole.
    private static func checkDelivery(
        _ outcome: ChaosOutcome, _ records: [ChaosRecord], _ report: inout ChaosReport
    ) {
        if records.contains(where: { $0.body == "incomplete" }) {
            report.add(.headWithoutBody, "\(outcome.kind) \(outcome.nonce): \(records.map(\.summary))")
        }
        if records.contains(where: { $0.bodyOK == false }) {
            report.add(.wrongBody, "\(outcome.kind) \(outcome.nonce)")
        }
        if outcome.kind == .post, records.count > 1 {
            report.add(.postTwice, "\(outcome.nonce): \(records.map(\.summary))")
        }
    }

    /// Whether the answer is the call's own (else it is counted, raced or a violation).
    @discardableResult
    private static func checkAnswer(
        _ outcome: ChaosOutcome, nonce: String, connection: Int?, _ records: [ChaosRecord], _ log: ChaosServerLog,
        _ report: inout ChaosReport
    ) -> Bool {
        if nonce != outcome.nonce {
            switch log.extras[nonce]?.race {
            case "waiting":
                report.racedAnswers += 1
            case "near":
                report.nearAnswers += 1
            default:
                report.add(
                    .wrongAnswer,
                    "\(outcome.kind) \(outcome.nonce) got \(nonce) (connection \(connection.map(String.init) ?? "?"))")
            }
            return false
        }
        if !records.contains(where: { $0.answered == true || ($0.behaviour == "sse") }) {
            report.add(.successUnanswered, "\(outcome.kind) \(outcome.nonce): \(records.map(\.summary))")
        }
        return true
    }

    private static func checkFailure(
        _ outcome: ChaosOutcome, _ failure: ChaosFailure, _ records: [ChaosRecord], _ report: inout ChaosReport
    ) {
        if failure == .hung {
            report.add(.hang, "\(outcome.kind) \(outcome.nonce): \(records.map(\.summary))")
            return
        }
        guard let last = records.last else {
            // The server never read it: lost on a reused connection the server closed.
            if outcome.kind.isIdempotent {
                report.add(.idempotentStaleFailure, "\(outcome.kind) \(outcome.nonce): \(failure)")
            } else if failure.isKind(of: .connectionLost("")) {
                report.postsLostToIdleClose += 1
            } else {
                report.add(.wrongFailure, "\(outcome.kind) \(outcome.nonce) never read, failed with \(failure)")
            }
            return
        }
        if let expected = last.expectedFailure, expected.isKind(of: failure) { return }
        report.add(.wrongFailure, "\(outcome.kind) \(outcome.nonce): \(failure) after \(records.map(\.summary))")
    }

    private static func checkStream(
        _ outcome: ChaosOutcome, events: [String], end: ChaosFailure?, _ records: [ChaosRecord],
        _ report: inout ChaosReport
    ) {
        guard let last = records.last, last.behaviour == "sse", let written = last.events else {
            report.add(
                .streamEvents, "\(outcome.nonce): \(events.count) events, no stream written: \(records.map(\.summary))")
            return
        }
        let expected = (0..<written).map { "\(outcome.nonce) \($0 + 1)" }
        if events != expected {
            report.add(
                .streamEvents, "\(outcome.nonce): \(events.count) events of \(written) written (\(last.summary))")
        }
        let cut = last.cut ?? false
        let mustFail = cut && last.framing != "until-close"
        if (mustFail && end == nil) || (!cut && end != nil) {
            report.add(.streamEnd, "\(outcome.nonce): ended \(end.map { "with \($0)" } ?? "cleanly") (\(last.summary))")
        }
    }
}

extension ChaosRecord {
    /// A short text of the record, for a violation's example.
    var summary: String {
        var text = "\(method ?? "?") \(behaviour ?? "-") conn \(conn)#\(seq ?? 0) body \(body ?? "-")"
        if let answered { text += answered ? " answered" : " unanswered" }
        if let events { text += " events \(events)\(cut == true ? " cut" : "") \(framing ?? "")" }
        return text
    }
}

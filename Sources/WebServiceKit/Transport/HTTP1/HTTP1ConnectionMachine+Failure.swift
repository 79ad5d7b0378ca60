import Foundation

extension HTTP1ConnectionMachine.Failure {
    /// The error a call of `method` with `timeout` (seconds; 0 or less: none) fails with;
    /// `reported` is the one ``HTTP1ConnectionMachine/Event/failed`` came with.
    func error(method: String, timeout: TimeInterval, reported: (any Error)?) -> any Error {
        switch self {
        case .reported: reported ?? URLError(.unknown)
        case .cancelled: URLError(.cancelled)
        case .timedOutBeforeTheRequest: URLError.timedOutBeforeTheRequest(timeout: timeout)
        case .timedOut(let phase): URLError.timedOut(TimeoutFailure(phase: phase.timeoutPhase, limit: timeout))
        case .connectionLost(let reason): URLError(.networkConnectionLost, reason: reason)
        case .closedBeforeAnswering(let reason): HTTP1Transport.closedBeforeAnswering(method, reason: reason)
        }
    }
}

extension HTTP1ConnectionMachine.Phase {
    /// The phase as a timeout names it to the user.
    var timeoutPhase: TimeoutFailure.Phase {
        switch self {
        case .connecting: .connecting
        case .sending: .sending
        case .waiting: .waitingForResponse
        case .receiving: .receiving
        }
    }
}

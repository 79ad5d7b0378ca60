import Dispatch
import Foundation

extension SizeScalingBenchmark {
    /// What one child reported.
    struct ChildRun {
        /// CPU time of the work, every thread of the child together.
        let cpuSeconds: Double
        let wallSeconds: Double
        let rssGrowthKiB: Double
    }

    enum ChildResult {
        case success(ChildRun)
        /// Crashed, failed or timed out.
        case failure(Outcome)
    }

    /// Runs `executable --size-once ITEM SIZE`, reads its one line of output, and kills it
    /// (SIGKILL) when it runs longer than `timeout` seconds. Its standard error goes where this
    /// process's goes.
    static func runChild(executable: String, item: String, size: Int, timeout: Double) -> ChildResult {
        #if os(Linux)
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else { return .failure(.failed("pipe failed: errno \(errno)")) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
            posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
            let words: [String] = [executable, childFlag, item, String(size)]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            // What this process printed so far goes out before anything the child prints.
            fflush(nil)
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            close(pipeEnds[1])
            guard spawned == 0 else {
                close(pipeEnds[0])
                return .failure(.failed("the child could not be started: \(String(cString: strerror(spawned)))"))
            }
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
            var output = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            var readable = pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0)
            var killed = false
            reading: while true {
                if DispatchTime.now().uptimeNanoseconds > deadline {
                    kill(pid, SIGKILL)
                    killed = true
                    break reading
                }
                let ready = poll(&readable, 1, 100)
                guard ready != 0 else { continue }
                let count = ready > 0 ? read(pipeEnds[0], &buffer, buffer.count) : -1
                switch count {
                case 1...: output.append(contentsOf: buffer[0..<count])
                case 0: break reading  // end of file: the child exits
                default: if errno != EINTR { break reading }
                }
            }
            close(pipeEnds[0])
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { return .failure(.failed("waitpid failed: errno \(errno)")) }
            }
            if killed { return .failure(.timedOut(afterSeconds: timeout)) }
            // WIFSIGNALED / WTERMSIG and WEXITSTATUS, which Swift does not import.
            let signal = status & 0x7f
            if signal != 0 { return .failure(.crashed(signal: signal)) }
            let exitCode = (status >> 8) & 0xff
            let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            let numbers = fields.compactMap { Double($0) }
            guard exitCode == 0, fields.count == 3, numbers.count == 3 else {
                return .failure(.failed("the child exited with \(exitCode); see its message above"))
            }
            return .success(ChildRun(cpuSeconds: numbers[0], wallSeconds: numbers[1], rssGrowthKiB: numbers[2]))
        #else
            return .failure(.failed("the size-scaling measure runs on Linux only (posix_spawn, /proc/self/status)"))
        #endif
    }
}

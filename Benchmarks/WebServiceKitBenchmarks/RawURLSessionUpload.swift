import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The second baseline of the upload measure: the same multipart bytes posted by `URLSession`
/// itself, without WebServiceKit, through a plain `InputStream` subclass (part header, the file
/// read with read(2), close delimiter). It shows how much of the gap to curl is Foundation's.
///
/// `--raw-upload-once URL FILE [plain|delegate|delegate-serial]`: `plain` (the default, the one
/// the measure runs) is a completion-handler task on a session without a delegate; `delegate`
/// gives the session a delegate that only collects the response body (a transport that refuses
/// redirects itself needs one, and then Foundation queues `didSendBodyData` for every 64 KiB);
/// `delegate-serial` runs that delegate on an `OperationQueue` over a serial `DispatchQueue`.
enum RawURLSessionUpload {
    static let childFlag = "--raw-upload-once"
    static let modes = ["plain", "delegate", "delegate-serial"]

    static func childExitCode(for arguments: [String]) -> Int32? {
        guard arguments.count >= 2, arguments[1] == childFlag else { return nil }
        let rest = Array(arguments.dropFirst(2))
        let mode = rest.count == 3 ? rest[2] : "plain"
        guard (2...3).contains(rest.count), let url = URL(string: rest[0]), modes.contains(mode) else {
            let usage = "usage: webservice-bench \(childFlag) URL FILE [\(modes.joined(separator: "|"))]\n"
            FileHandle.standardError.write(Data(usage.utf8))
            return 2
        }
        let path = rest[1]
        let boundary = "RawURLSession-7d1c0b7e5a"
        var request = URLRequest(url: url, timeoutInterval: 600)
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        let name = URL(fileURLWithPath: path).lastPathComponent
        let head = Data(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").utf8)
        let tail = Data("\r\n--\(boundary)--\r\n".utf8)
        guard let stream = FramedFileStream(head: head, path: path, tail: tail) else {
            FileHandle.standardError.write(Data("webservice-bench \(childFlag): cannot open \(path)\n".utf8))
            return 1
        }
        request.httpBodyStream = stream

        // The underlying queue of the `delegate-serial` mode (OperationQueue does not keep it).
        let underlying = DispatchQueue(label: "raw-upload.delegate")
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        let session: URLSession
        let task: URLSessionDataTask
        if mode.hasPrefix("delegate") {
            let delegate = CollectingDelegate(outcome: outcome, done: done)
            var queue: OperationQueue?
            if mode == "delegate-serial" {
                queue = OperationQueue()
                queue?.maxConcurrentOperationCount = 1
                queue?.underlyingQueue = underlying
            }
            session = URLSession(configuration: .default, delegate: delegate, delegateQueue: queue)
            task = session.dataTask(with: request)
        } else {
            session = URLSession(configuration: .default)
            task = session.dataTask(with: request) { data, response, error in
                outcome.set(data ?? Data(), response, error)
                done.signal()
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        task.resume()
        done.wait()
        let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
        session.finishTasksAndInvalidate()
        withExtendedLifetime(underlying) {}
        let (body, response, error) = outcome.get()
        guard error == nil, let http = response as? HTTPURLResponse else {
            FileHandle.standardError.write(Data("webservice-bench \(childFlag): \(String(describing: error))\n".utf8))
            return 1
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
        let firstLine = text.split(whereSeparator: \.isNewline).first ?? ""
        let peak = MultipartUploadBenchmark.highWaterMark(of: "self") ?? 0
        print("\(nanoseconds) \(http.statusCode) \(peak) \(firstLine)")
        return 0
    }

    /// What the task ended with.
    final class Outcome: @unchecked Sendable {  // guarded by `lock`
        private let lock = NSLock()
        private var body = Data()
        private var response: URLResponse?
        private var error: (any Error)?

        func append(_ data: Data) { lock.withLock { body.append(data) } }
        func set(_ data: Data, _ response: URLResponse?, _ error: (any Error)?) {
            lock.withLock { (body, self.response, self.error) = (data, response, error) }
        }
        func finish(_ response: URLResponse?, _ error: (any Error)?) {
            lock.withLock { (self.response, self.error) = (response, error) }
        }
        func get() -> (Data, URLResponse?, (any Error)?) { lock.withLock { (body, response, error) } }
    }

    final class CollectingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // immutable
        let outcome: Outcome
        let done: DispatchSemaphore

        init(outcome: Outcome, done: DispatchSemaphore) {
            self.outcome = outcome
            self.done = done
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            outcome.append(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            outcome.finish(task.response, error)
            done.signal()
        }
    }

    /// `head`, the file's bytes, `tail`: the least an `InputStream` for this body can do.
    final class FramedFileStream: InputStream {
        private let head: Data
        private let tail: Data
        private let descriptor: Int32
        private var offset = 0  // into head, then (after the file) into tail
        private var phase = 0  // 0 head, 1 file, 2 tail, 3 end
        private var status: Stream.Status = .notOpen

        init?(head: Data, path: String, tail: Data) {
            descriptor = Foundation.open(path, O_RDONLY)
            guard descriptor >= 0 else { return nil }
            self.head = head
            self.tail = tail
            super.init(data: Data())
        }

        deinit { _ = Foundation.close(descriptor) }

        override var streamStatus: Stream.Status { status }
        override var hasBytesAvailable: Bool { phase < 3 }
        override func open() { status = .open }
        override func close() { status = .closed }

        override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
            while phase < 3 {
                switch phase {
                case 1:
                    let count = Foundation.read(descriptor, buffer, len)
                    if count > 0 { return count }
                    if count < 0 { return -1 }
                    phase = 2
                    offset = 0
                default:
                    let bytes = phase == 0 ? head : tail
                    let count = min(len, bytes.count - offset)
                    if count > 0 {
                        bytes.copyBytes(to: buffer, from: offset..<(offset + count))
                        offset += count
                        return count
                    }
                    phase += 1
                    offset = 0
                }
            }
            status = .atEnd
            return 0
        }
    }
}

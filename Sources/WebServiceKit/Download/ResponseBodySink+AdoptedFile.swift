import Foundation

/// A body a transport wrote to a file itself (a `URLSession` download task's), taken into the
/// call's ``ResponseBodySink``.
extension ResponseBodySink {
    /// Takes the whole body of the response begun last from a file the transport wrote itself (a
    /// `URLSession` download task's, which Foundation deletes afterwards): a file-bound body's
    /// file is moved to the call's file (its first 64 KiB read back for error handlers); any
    /// other body (a redirect's, a challenge's) is read into memory within the limit.
    func adopt(fileAt location: URL) throws(WebServiceError) {
        try state.withLockResult { (state: inout State) throws(WebServiceError) in
            if let failure = state.failure { throw failure }
            switch state.destination {
            case .none, .adopted, .live: throw Self.notBegun
            case .file(let file, _):
                file.close()
                guard let download else { throw Self.notBegun }
                let (length, prefix) = try download.adopt(location, prefixLength: Self.keptPrefix)
                state.destination = .adopted(length: length, prefix: prefix)
            case .memory:
                let limit = memoryLimit.map { $0 < Int.max ? $0 + 1 : $0 }
                guard let handle = FileHandle(forReadingAtPath: location.path) else {
                    throw .transport(URLError(.cannotOpenFile, reason: "the body's file cannot be opened"))
                }
                defer { try? handle.close() }
                let data: Data
                do {
                    if let limit {
                        data = try handle.read(upToCount: limit) ?? Data()
                    } else {
                        data = try handle.readToEnd() ?? Data()
                    }
                } catch {
                    throw .transport(URLError(.cannotOpenFile, reason: "the body's file cannot be read: \(error)"))
                }
                try Self.admit(Int64(data.count), into: &state, limit: memoryLimit)
                state.destination = .memory(data)
            }
        }.get()
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the process holds of the system, read from `/proc` (Linux; `nil` elsewhere): the
/// resident size, open descriptors and threads. The soak samples it after each round; the memory
/// tests between their runs.
public enum ProcessFootprint {
    /// The resident set size from `/proc/self/statm`, in bytes, after malloc gave the pages it
    /// holds free back to the system (glibc's `malloc_trim`, found at run time), so that it counts
    /// memory in use rather than freed memory kept in the arenas of the threads that freed it.
    public static func residentBytes() -> Int? {
        releaseFreePages()
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Open file descriptors: the entries of `/proc/self/fd` (the listing's own one excluded).
    public static var descriptors: Int? { count("/proc/self/fd").map { $0 - 1 } }

    /// Threads of the process: the entries of `/proc/self/task`.
    public static var threads: Int? { count("/proc/self/task") }

    private static func count(_ directory: String) -> Int? {
        (try? FileManager.default.contentsOfDirectory(atPath: directory))?.count
    }

    private static func releaseFreePages() {
        #if canImport(Glibc)
            typealias Trim = @convention(c) (Int) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }
}

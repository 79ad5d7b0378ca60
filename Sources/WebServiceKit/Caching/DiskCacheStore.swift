import Foundation

/// A store in one directory, one file per response (``DiskCacheFormat``), with a byte limit,
/// evicting the least recently used responses first. The default store of apps: what it keeps
/// survives the process.
///
/// - Files are named by the SHA-256 of the key, and for a response with `Vary` (a variant,
///   RFC 9111 §4.1) that of its ``CacheEntry/variantKey`` after a `-`, so that a key's variants
///   are known from the names alone. Each is written to a temporary file in the same directory
///   and renamed into place, so a reader sees a whole response or none. The directory is `0700`
///   and every file `0600`.
/// - At creation the store lists the directory, so a new process sees what earlier ones stored;
///   the order of use is that of the files' modification times, which a hit refreshes.
/// - A file that is truncated, of another format version, or unreadable is a miss and is
///   deleted. A write that fails (directory gone or unwritable, disk full) stores nothing and is
///   otherwise ignored.
/// - ``byteCount`` is the size of the response files, metadata included (spares not counted).
/// - An evicted file is not deleted but renamed and kept (up to ``spareLimit`` of them, each up
///   to ``spareByteLimit``, named `.wskc-spare-…`) for the next save to write over: a full store
///   then reuses its files instead of deleting one and creating another on every save. Deleting
///   a file that has reached the disk frees its blocks, which on ext4 mounted with `discard`
///   waits for the device (80 µs to 2.5 ms per save on the test machine, by the load of its
///   disk); and on ext4 without a journal, creating a file walks past every inode of its group
///   freed in the last minute (the kernel's `recently_deleted`: about 1 ms per save after 20,000
///   deletions, which a store deleting a file per save keeps renewing). Spares are deleted when
///   the store is released, by ``removeAll()``, and at the next creation.
///
/// One store per directory at a time: a store knows only the files it listed or wrote.
final class DiskCacheStore: CacheStorage {
    private enum Identifier {
        /// The file was listed at creation and has not been read since.
        case unread
        case known(String?)
    }

    private struct Item {
        var byteCount: Int
        var identifier: Identifier
        /// What selecting among the key's variants reads of the file (``selector(of:)``), kept
        /// while the key has several variants, so that a lookup reads only the chosen file.
        var selector: CacheEntry? = nil
    }

    private struct State {
        /// By file name.
        var items: [String: Item] = [:]
        /// The file names from the least to the most recently used.
        var recency = RecencyList<String>()
        /// The file names of each key's variants, by the key's hash (the first 64 characters of
        /// the names), from the least to the most recently used.
        var variants: [String: [String]] = [:]
        var bytes = 0
        /// Names of evicted files kept for reuse, at most ``DiskCacheStore/spareLimit``.
        var spares: [String] = []
        /// How many files the store created (rather than reused): for tests.
        var createdFileCount = 0
    }

    /// The most evicted files kept for reuse: one is enough for saves one at a time; a few more
    /// serve concurrent saves and a large response that evicts several small ones.
    static let spareLimit = 8
    /// The largest evicted file kept for reuse; a larger one is deleted. With ``spareLimit``, the
    /// spares take at most 512 KiB besides the limit.
    static let spareByteLimit = 64 << 10

    /// The directory the files are in.
    let directory: URL
    /// The most bytes (whole files) kept at once.
    let byteLimit: Int
    private let directoryPath: String
    private let state: Locked<State>

    /// Opens the store in `directory`, creating it (and its parents) with permissions `0700`, or
    /// setting them on an existing one, and lists the responses stored there.
    ///
    /// - Throws: The file system's error when the directory cannot be created, is not a
    ///   directory, or its permissions cannot be set.
    init(directory: URL, byteLimit: Int) throws {
        self.directory = directory.standardizedFileURL
        self.byteLimit = max(0, byteLimit)
        directoryPath = self.directory.path
        try Self.prepareDirectory(directoryPath)
        state = Locked(Self.scan(directoryPath))
        state.withLock { evict(&$0) }
    }

    deinit {
        for name in state.current.spares { unlink(path(of: name)) }
    }

    // MARK: CacheStorage

    func response(for key: String, selectedBy selects: (CacheEntry) -> Bool) -> StoredResponse? {
        let primary = SHA256.hexDigest(key)
        return state.withLock { state in
            guard let names = state.variants[primary], !names.isEmpty else { return nil }
            let chosen: String
            if names.count == 1 {
                chosen = names[0]
            } else {
                // Several variants: what selection reads of each decides (kept in the index once
                // read), and only the chosen file is read whole.
                var best: (name: String, entry: CacheEntry)?
                for name in names {
                    let entry: CacheEntry
                    if let known = state.items[name]?.selector {
                        entry = known
                    } else {
                        guard let read = readHead(name, key: key)?.metadata.entry else {
                            discard(name, &state)
                            continue
                        }
                        entry = Self.selector(of: read)
                        state.items[name]?.selector = entry
                    }
                    guard selects(entry) else { continue }
                    if let best, !CacheRules.isMoreRecent(entry, than: best.entry) { continue }
                    best = (name, entry)
                }
                guard let best else { return nil }
                chosen = best.name
            }
            return read(chosen, key: key, selectedBy: selects, &state)
        }
    }

    /// The response in the file `name`, stored under `key`, when `selects` accepts it; the file
    /// becomes the most recently used. A file that does not decode is deleted.
    private func read(_ name: String, key: String, selectedBy selects: (CacheEntry) -> Bool, _ state: inout State)
        -> StoredResponse?
    {
        guard let item = state.items[name] else { return nil }
        let filePath = path(of: name)
        guard let file = FileManager.default.contents(atPath: filePath),
            let response = DiskCacheFormat.decode(file, key: key)
        else {
            discard(name, &state)
            return nil
        }
        state.items[name]?.byteCount = file.count
        state.items[name]?.identifier = .known(response.identifier)
        state.bytes += file.count - item.byteCount
        guard selects(response.entry) else { return nil }
        touch(name, &state)
        // The order of use outlives the process: the next one sorts by modification time.
        _ = utimes(filePath, nil)
        return response
    }

    /// Stores `response`; one whose file would be larger than the whole limit is not kept, and
    /// neither is one that cannot be written. Either way the variant it replaces is gone.
    func save(_ response: StoredResponse, for key: String, replacing previous: CacheEntry?) {
        let name = Self.fileName(for: key, variant: response.entry.variantKey)
        let replaced = previous.map { Self.fileName(for: key, variant: $0.variantKey) }
        // Encoding and writing happen outside the lock; only the rename and the index need it.
        let file = DiskCacheFormat.encode(response, key: key).flatMap { $0.count <= byteLimit ? $0 : nil }
        let temporary = file.flatMap(writeTemporaryFile)
        state.withLock { state in
            if let replaced, replaced != name { discard(replaced, &state) }
            guard let file, let temporary else {
                discard(name, &state)
                return
            }
            // The bound on variants per key: the least recently used others make room.
            let primary = Self.primaryName(of: name)
            while let others = state.variants[primary]?.filter({ $0 != name }),
                others.count >= CacheRules.variantLimit, let oldest = others.first
            {
                discard(oldest, &state)
            }
            guard rename(temporary, path(of: name)) == 0 else {
                unlink(temporary)
                discard(name, &state)
                return
            }
            state.bytes -= state.items[name]?.byteCount ?? 0
            touch(name, &state)
            let several = (state.variants[primary]?.count ?? 0) > 1
            state.items[name] = Item(
                byteCount: file.count, identifier: .known(response.identifier),
                selector: several ? Self.selector(of: response.entry) : nil)
            state.bytes += file.count
            evict(&state)
        }
    }

    func remove(_ key: String) {
        let primary = SHA256.hexDigest(key)
        state.withLock { state in
            for name in state.variants[primary] ?? [] { discard(name, &state) }
        }
    }

    func remove(_ key: String, variant: String) {
        let name = Self.fileName(for: key, variant: variant)
        state.withLock { discard(name, &$0) }
    }

    func removeResponses(identifiedBy prefix: String) {
        state.withLock { state in
            for name in Array(state.items.keys) {
                guard case .some(let identifier) = identifier(of: name, &state) else { continue }
                if identifier?.hasPrefix(prefix) ?? false { discard(name, &state) }
            }
        }
    }

    /// From the least to the most recently used, as the files' order of use was when the call
    /// began. The heads of the files are read outside the lock, so that listing thousands of files
    /// does not hold up the calls. A file replaced meanwhile is read whole, old or new (files are
    /// renamed into place); one that cannot be read is left out, and deleted by its next read.
    func entries(identifiedBy prefix: String?) -> [HTTPCache.Entry] {
        let names = state.withLock { $0.recency.keysFromOldest }
        var entries: [HTTPCache.Entry] = []
        var identifiers: [(name: String, identifier: String?)] = []
        for name in names {
            guard let (header, metadata) = readHead(name, key: nil), let entry = metadata.entry else { continue }
            identifiers.append((name, metadata.identifier))
            guard cacheIdentifier(metadata.identifier, matches: prefix) else { continue }
            entries.append(HTTPCache.Entry(entry, identifier: metadata.identifier, bodyByteCount: header.bodyByteCount))
        }
        state.withLock { state in
            // Only files untouched since the store opened: any other has its identifier known.
            for (name, identifier) in identifiers {
                if case .unread = state.items[name]?.identifier { state.items[name]?.identifier = .known(identifier) }
            }
        }
        return entries
    }

    func entryCount(identifiedBy prefix: String?) -> Int {
        state.withLock { state in
            guard let prefix else { return state.items.count }
            var count = 0
            for name in Array(state.items.keys) {
                guard case .some(let identifier) = identifier(of: name, &state) else { continue }
                if identifier?.hasPrefix(prefix) ?? false { count += 1 }
            }
            return count
        }
    }

    /// The identifier of the file `name`, read from its metadata the first time; `.none` when
    /// the file is unreadable (it is then deleted), `.some(nil)` when it has no identifier.
    private func identifier(of name: String, _ state: inout State) -> String?? {
        switch state.items[name]?.identifier {
        case .known(let known): return .some(known)
        case .unread:
            guard let metadata = readHead(name, key: nil)?.metadata else {
                discard(name, &state)
                return .none
            }
            state.items[name]?.identifier = .known(metadata.identifier)
            return .some(metadata.identifier)
        case nil: return .none
        }
    }

    /// Deletes every response file in the directory, those of other processes included.
    func removeAll() {
        state.withLock { state in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
            for name in Set(names.filter(Self.isEntryName)).union(state.items.keys) { unlink(path(of: name)) }
            for name in state.spares { unlink(path(of: name)) }
            state = State(createdFileCount: state.createdFileCount)
        }
    }

    /// Bytes held now: the sizes of the files.
    var byteCount: Int { state.current.bytes }

    /// How many files the store has created since it was opened; a save into a spare creates
    /// none. For tests.
    var createdFileCount: Int { state.current.createdFileCount }

    /// The names of the evicted files kept for reuse. For tests.
    var spareNames: [String] { state.current.spares }

    // MARK: Files

    /// The name of the file for the variant `variant` (a ``CacheEntry/variantKey``) of `key`:
    /// the SHA-256 of the key in hexadecimal, and for a response with `Vary` a `-` and that of
    /// the variant key.
    static func fileName(for key: String, variant: String) -> String {
        let primary = SHA256.hexDigest(key)
        return variant.isEmpty ? primary : primary + "-" + SHA256.hexDigest(variant)
    }

    /// The name of the file for a response without `Vary` stored for `key`: the SHA-256 of the
    /// key, in hexadecimal.
    static func fileName(for key: String) -> String { fileName(for: key, variant: "") }

    /// The hash of the key a file name is for: its first 64 characters.
    private static func primaryName(of name: String) -> String { String(name.prefix(64)) }

    /// The path of the file for the variant `variant` of `key`.
    func path(for key: String, variant: String = "") -> String {
        path(of: Self.fileName(for: key, variant: variant))
    }

    private func path(of name: String) -> String { directoryPath + "/" + name }

    /// 64 lowercase hexadecimal digits, and for a variant with `Vary` a `-` and 64 more.
    private static func isEntryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func isHex(_ part: ArraySlice<UInt8>) -> Bool {
            part.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        }
        switch bytes.count {
        case 64: return isHex(bytes[...])
        case 129: return isHex(bytes[..<64]) && bytes[64] == UInt8(ascii: "-") && isHex(bytes[65...])
        default: return false
        }
    }

    private static let temporaryPrefix = ".wskc-"
    private static let sparePrefix = ".wskc-spare-"

    /// Creates the directory with permissions `0700`, or sets them on an existing one.
    private static func prepareDirectory(_ path: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: path])
        }
        try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)
    }

    /// The responses in the directory, in the order of their modification times; spares left by an
    /// earlier store and temporary files left by a process that stopped writing more than an hour
    /// ago are deleted.
    private static func scan(_ directoryPath: String) -> State {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directoryPath) else { return State() }
        var found: [(name: String, size: Int, modified: Date)] = []
        for name in names {
            let path = directoryPath + "/" + name
            guard let attributes = try? manager.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let size = (attributes[.size] as? NSNumber)?.intValue,
                let modified = attributes[.modificationDate] as? Date
            else { continue }
            if isEntryName(name) {
                found.append((name, size, modified))
            } else if name.hasPrefix(sparePrefix) {
                unlink(path)
            } else if name.hasPrefix(temporaryPrefix), modified.timeIntervalSinceNow < -3600 {
                unlink(path)
            }
        }
        var state = State()
        for file in found.sorted(by: { ($0.modified, $0.name) < ($1.modified, $1.name) }) {
            state.recency.touch(file.name)
            state.variants[primaryName(of: file.name), default: []].append(file.name)
            state.items[file.name] = Item(byteCount: file.size, identifier: .unread)
            state.bytes += file.size
        }
        return state
    }

    /// Writes `file` to a spare or else a new temporary file (`0600`) in the directory and returns
    /// its path, or `nil` when it could not be written whole. A directory deleted since is
    /// created again.
    private func writeTemporaryFile(_ file: Data) -> String? {
        if let spare = state.withLock({ $0.spares.popLast() }) {
            let sparePath = path(of: spare)
            if Self.write(file, to: sparePath, reusing: true) { return sparePath }
            // Gone or unwritable: a new file is tried, as when there is no spare.
        }
        let temporaryPath = path(of: Self.temporaryPrefix + UUID().uuidString)
        if Self.write(file, to: temporaryPath, reusing: false) {
            state.withLock { $0.createdFileCount += 1 }
            return temporaryPath
        }
        guard errno == ENOENT, (try? Self.prepareDirectory(directoryPath)) != nil else { return nil }
        guard Self.write(file, to: temporaryPath, reusing: false) else { return nil }
        state.withLock { $0.createdFileCount += 1 }
        return temporaryPath
    }

    /// Writes `data` to the file at `path` with permissions `0600`: a new file, or with `reusing`
    /// the existing (spare) one, written over from its start and cut to the length of `data`. On
    /// failure nothing is left at `path` and `errno` tells why.
    ///
    /// A spare is overwritten, not emptied first: emptying frees its blocks (on ext4 mounted with
    /// `discard`, a discard the call waits for) and makes ext4 flush the file at `close`
    /// (`auto_da_alloc`, for files replaced by truncation).
    private static func write(_ data: Data, to path: String, reusing: Bool) -> Bool {
        let flags = reusing ? O_WRONLY | O_NOFOLLOW | O_CLOEXEC : O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC
        let descriptor = open(path, flags, 0o600)
        guard descriptor >= 0 else {
            if reusing {
                let failure = errno
                unlink(path)
                errno = failure
            }
            return false
        }
        // open's mode is filtered by the umask; 0600 is set whatever the umask.
        var written = fchmod(descriptor, 0o600) == 0
        if written {
            written = data.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    offset += count
                }
                return true
            }
        }
        // What is left of the spare's older content past the new end goes.
        if written, reusing { written = ftruncate(descriptor, off_t(data.count)) == 0 }
        let failure = errno
        if close(descriptor) != 0 { written = false }
        if !written {
            unlink(path)
            errno = failure
        }
        return written
    }

    /// The header and metadata of the file `name`, read without its body, or `nil` when it is
    /// unreadable, or not stored under `key` (when given).
    private func readHead(_ name: String, key: String?) -> (
        header: DiskCacheFormat.Header, metadata: DiskCacheFormat.Metadata
    )? {
        guard let handle = FileHandle(forReadingAtPath: path(of: name)) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: DiskCacheFormat.headerByteCount),
            let header = DiskCacheFormat.header(of: head),
            let metadata = try? handle.read(upToCount: header.metadataByteCount),
            let decoded = DiskCacheFormat.metadata(in: head + metadata, header: header, key: key)
        else { return nil }
        return (header, decoded)
    }

    // MARK: Index

    /// Makes the file `name` the most recently used, of the store and of its key's variants.
    private func touch(_ name: String, _ state: inout State) {
        state.recency.touch(name)
        let primary = Self.primaryName(of: name)
        guard state.variants[primary]?.last != name else { return }
        state.variants[primary, default: []].removeAll { $0 == name }
        state.variants[primary, default: []].append(name)
    }

    /// Forgets the file `name`: its size, its place in the order of use and among its key's
    /// variants. A variant left alone needs no selector any more.
    private func forget(_ name: String, _ state: inout State) {
        if let item = state.items.removeValue(forKey: name) { state.bytes -= item.byteCount }
        state.recency.remove(name)
        let primary = Self.primaryName(of: name)
        state.variants[primary]?.removeAll { $0 == name }
        switch state.variants[primary]?.count {
        case 0: state.variants[primary] = nil
        case 1: if let last = state.variants[primary]?.first { state.items[last]?.selector = nil }
        default: break
        }
    }

    /// What selecting a variant reads of `entry` (``CacheRules/VariantSelector``,
    /// ``CacheRules/isMoreRecent(_:than:)``): its method, URL, times, varying request fields and
    /// its `Vary` and `Date` fields, without the other fields, to keep the index small.
    private static func selector(of entry: CacheEntry) -> CacheEntry {
        let kept = entry.responseHeaders.fields.filter { field in
            field.name.caseInsensitiveCompare("Vary") == .orderedSame
                || field.name.caseInsensitiveCompare("Date") == .orderedSame
        }
        return CacheEntry(
            method: entry.method, url: entry.url, status: entry.status, responseHeaders: HTTPHeaders(kept),
            requestTime: entry.requestTime, responseTime: entry.responseTime,
            varyingRequestHeaders: entry.varyingRequestHeaders)
    }

    /// Deletes the file `name` and forgets it.
    private func discard(_ name: String, _ state: inout State) {
        unlink(path(of: name))
        forget(name, &state)
    }

    /// Removes the least recently used files until the rest fit the limit: the oldest of the
    /// ``RecencyList`` each time, not a sort of every file on each save. Each is kept as a spare
    /// while there are fewer than ``spareLimit`` and it is no larger than ``spareByteLimit``,
    /// deleted otherwise.
    private func evict(_ state: inout State) {
        while state.bytes > byteLimit, let oldest = state.recency.oldest {
            if state.spares.count < Self.spareLimit, let item = state.items[oldest],
                item.byteCount <= Self.spareByteLimit
            {
                retire(oldest, &state)
            } else {
                discard(oldest, &state)
            }
        }
    }

    /// Forgets the file `name` and keeps it as a spare, renamed out of the way (a rename keeps
    /// the inode and its blocks; no file is freed). Its bytes stay until a save writes over them
    /// or the spare is deleted; they are not counted in ``byteCount``. A file that cannot be
    /// renamed is forgotten: it is gone already, or the directory with it.
    private func retire(_ name: String, _ state: inout State) {
        let spare = Self.sparePrefix + UUID().uuidString
        if rename(path(of: name), path(of: spare)) == 0 { state.spares.append(spare) }
        forget(name, &state)
    }
}

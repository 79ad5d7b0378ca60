import Foundation

/// The file a ``DiskCacheStore`` keeps one response in.
///
/// ```
/// offset  size  field
///      0     4  magic "WSKC"
///      4     2  format version, big-endian (1)
///      6     4  metadata length M, big-endian
///     10     8  body length B, big-endian
///     18     M  metadata: JSON (``Metadata``), UTF-8
///   18+M     B  body
/// ```
///
/// A file is read back only when it has exactly `18 + M + B` bytes, the magic and version match,
/// the metadata decodes, and the key in it is the one asked for; anything else is a miss.
enum DiskCacheFormat {
    static let magic: [UInt8] = Array("WSKC".utf8)
    static let version: UInt16 = 1
    static let headerByteCount = 18

    /// Everything but the body. Header fields are kept as a list, in order; times are seconds
    /// since `Date`'s reference date (2001-01-01), so that they read back exactly.
    struct Metadata: Codable, Equatable {
        struct Field: Codable, Equatable {
            var name: String
            var value: String
        }

        /// The store's key, checked on reading (the file name is only its hash, and for a
        /// variant that of its secondary key, ``CacheEntry/variantKey``, which the file does not
        /// keep: it follows from ``responseHeaders`` and ``varyingRequestHeaders``).
        var key: String
        var identifier: String?
        var method: String
        var url: String
        var status: Int
        var responseHeaders: [Field]
        var requestTime: Double
        var responseTime: Double
        var varyingRequestHeaders: [String: String]

        init(key: String, response: StoredResponse) {
            let entry = response.entry
            self.key = key
            identifier = response.identifier
            method = entry.method.rawValue
            url = entry.url.absoluteString
            status = entry.status
            responseHeaders = entry.responseHeaders.fields.map { Field(name: $0.name, value: $0.value) }
            requestTime = entry.requestTime.timeIntervalSinceReferenceDate
            responseTime = entry.responseTime.timeIntervalSinceReferenceDate
            varyingRequestHeaders = entry.varyingRequestHeaders
        }

        /// The entry these fields describe, or `nil` when the URL does not parse.
        var entry: CacheEntry? {
            guard let url = URL(string: url) else { return nil }
            return CacheEntry(
                method: HTTPMethod(rawValue: method), url: url, status: status,
                responseHeaders: HTTPHeaders(responseHeaders.map { HTTPHeaders.Field(name: $0.name, value: $0.value) }),
                requestTime: Date(timeIntervalSinceReferenceDate: requestTime),
                responseTime: Date(timeIntervalSinceReferenceDate: responseTime),
                varyingRequestHeaders: varyingRequestHeaders)
        }
    }

    /// The lengths a valid header announces.
    struct Header: Equatable {
        var metadataByteCount: Int
        var bodyByteCount: Int

        var fileByteCount: Int { headerByteCount + metadataByteCount + bodyByteCount }
    }

    // MARK: Writing

    /// The whole file for `response` stored under `key`, or `nil` when the metadata cannot be
    /// encoded.
    static func encode(_ response: StoredResponse, key: String) -> Data? {
        guard let metadata = try? JSONEncoder().encode(Metadata(key: key, response: response)) else { return nil }
        var file = Data(capacity: headerByteCount + metadata.count + response.body.count)
        file.append(contentsOf: magic)
        appendBigEndian(version, to: &file)
        appendBigEndian(UInt32(metadata.count), to: &file)
        appendBigEndian(UInt64(response.body.count), to: &file)
        file.append(metadata)
        file.append(response.body)
        return file
    }

    private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    // MARK: Reading

    /// The lengths announced by the first ``headerByteCount`` bytes of `bytes`, or `nil` when
    /// they are too few, the magic is wrong or the version is not ours.
    static func header(of bytes: Data) -> Header? {
        guard bytes.count >= headerByteCount else { return nil }
        let start = bytes.startIndex
        guard bytes[start..<start + 4].elementsEqual(magic),
            readBigEndian(UInt16.self, bytes, at: start + 4) == version
        else { return nil }
        let metadataCount = readBigEndian(UInt32.self, bytes, at: start + 6)
        let bodyCount = readBigEndian(UInt64.self, bytes, at: start + 10)
        // A body length that does not fit an Int (or overflows the sum) is corruption, not a file.
        guard bodyCount <= UInt64(Int.max / 2) else { return nil }
        return Header(metadataByteCount: Int(metadataCount), bodyByteCount: Int(bodyCount))
    }

    /// The metadata in `bytes`, the start of a file with `header`, or `nil` when it does not
    /// decode or is not that of `key` (when given).
    static func metadata(in bytes: Data, header: Header, key: String?) -> Metadata? {
        let start = bytes.startIndex + headerByteCount
        guard bytes.endIndex - start >= header.metadataByteCount,
            let metadata = try? JSONDecoder().decode(
                Metadata.self, from: bytes.subdata(in: start..<start + header.metadataByteCount)),
            key.map({ $0 == metadata.key }) ?? true
        else { return nil }
        return metadata
    }

    /// The response stored in `file` under `key`, or `nil` when the file is not exactly a
    /// response of this format stored under that key.
    static func decode(_ file: Data, key: String) -> StoredResponse? {
        guard let header = header(of: file), file.count == header.fileByteCount,
            let metadata = metadata(in: file, header: header, key: key), let entry = metadata.entry
        else { return nil }
        let bodyStart = file.startIndex + headerByteCount + header.metadataByteCount
        return StoredResponse(
            entry: entry, body: file.subdata(in: bodyStart..<file.endIndex), identifier: metadata.identifier)
    }

    private static func readBigEndian<T: FixedWidthInteger>(_: T.Type, _ bytes: Data, at index: Int) -> T {
        var value: T = 0
        for byte in bytes[index..<index + MemoryLayout<T>.size] { value = value << 8 | T(byte) }
        return value
    }
}

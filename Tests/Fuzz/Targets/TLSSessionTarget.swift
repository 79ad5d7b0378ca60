#if canImport(CWebServiceKitSystem)
    import Foundation

    /// ``TLSSession``, the TLS layer's pump over memory buffers, against a server session in the
    /// same process (OpenSSL opened at run time, a certificate `Scripts/fuzz` made with openssl in
    /// `WEBSERVICEKIT_FUZZ_TLS_DIR`).
    ///
    /// Input: a mode byte (its value modulo 16), then the mode's bytes. The modes that end the
    /// pair (and cost a new handshake) are the rarer ones.
    /// - Mode 0-13 (**records cut anywhere**): the rest is plaintext the server sends (up to 32 KiB
    ///   a run, at least one byte), written in pieces whose sizes come from the input, then
    ///   `close_notify` for 12 and 13; the records reach the client in cuts whose sizes come
    ///   from the input, and the client reads after each cut. The client must read exactly the
    ///   plaintext, in order, then `.closed` when `close_notify` was sent and `.needsInput` when
    ///   not; after `receiveEnd()` without `close_notify`, a read is the typed `broken` failure.
    /// - Mode 14 (**damaged records**): the server's records with one byte changed (position and
    ///   value from the input): the client reads some prefix of the plaintext and then fails with a
    ///   typed failure (never garbage: TLS authenticates every record), or reads it all when the
    ///   change hit nothing that matters (never, with AEAD: it is checked).
    /// - Mode 15 (**anything instead of a server**): a fresh client's handshake is fed the rest as
    ///   the server's bytes, in cuts: it never succeeds (no valid server signs with our CA's key),
    ///   and ends in a typed failure or waits for more.
    ///
    /// The established pair persists between runs (a handshake costs a millisecond); a run that
    /// breaks it makes a new one for the next.
    enum TLSSessionTarget {
        final class Pair: @unchecked Sendable {  // used by the fuzzer's one thread
            var client: TLSSession?
            var server: TLSSession?
        }

        static let pair = Pair()

        static let contexts: (client: TLSContext, server: TLSContext)? = {
            guard let directory = getenv("WEBSERVICEKIT_FUZZ_TLS_DIR").map({ String(cString: $0) }),
                let library = try? OpenSSLLibrary.shared.get()
            else { return nil }
            do {
                let authority = try X509Certificate(
                    derOrPEM: Data(contentsOf: URL(fileURLWithPath: "\(directory)/cert.pem")))
                let client = try TLSContext.client(
                    trust: .init(policy: .onlyCertificateAuthorities([authority])), library: library)
                let server = try TLSContext.server(
                    chainFile: "\(directory)/cert.pem", keyFile: "\(directory)/key.pem", library: library)
                return (client, server)
            } catch {
                return nil
            }
        }()

        static func run(_ bytes: [UInt8]) {
            guard let contexts else {
                fatalError("the TLS fuzz target needs OpenSSL and WEBSERVICEKIT_FUZZ_TLS_DIR (Scripts/fuzz makes it)")
            }
            var input = FuzzInput(bytes)
            let mode = input.byte() % 16
            if mode == 15 { return hostileServer(&input, contexts.client) }
            guard let (client, server) = established(contexts) else {
                return fuzzCheck(false, "an in-memory handshake failed")
            }
            if mode == 14 { return damaged(&input, client: client, server: server) }
            cut(&input, client: client, server: server, closes: mode >= 12)
        }

        /// The pair, made and handshaken when there is none.
        static func established(_ contexts: (client: TLSContext, server: TLSContext)) -> (TLSSession, TLSSession)? {
            if let client = pair.client, let server = pair.server { return (client, server) }
            guard let client = try? TLSSession(context: contexts.client, role: .client(host: "localhost")),
                let server = try? TLSSession(context: contexts.server, role: .server)
            else { return nil }
            for _ in 0..<10 {
                guard let clientDone = try? client.handshake() else { return nil }
                move(client, to: server)
                guard let serverDone = try? server.handshake() else { return nil }
                move(server, to: client)
                if clientDone, serverDone, !client.hasOutput, !server.hasOutput {
                    // The server's session tickets, read now so that they are not part of a run.
                    _ = try? read(client)
                    pair.client = client
                    pair.server = server
                    return (client, server)
                }
            }
            return nil
        }

        static func move(_ from: TLSSession, to: TLSSession) {
            from.takeOutput().withUnsafeBytes { to.receive($0) }
        }

        /// The buffer reads go into (one thread runs the fuzzer).
        nonisolated(unsafe) static var buffer = [UInt8](repeating: 0, count: 4096)

        /// What `session` can decrypt now, and how the read ended.
        static func read(_ session: TLSSession) throws -> ([UInt8], TLSSession.ReadResult) {
            var bytes: [UInt8] = []
            while true {
                let result = try buffer.withUnsafeMutableBytes { try session.read(into: $0) }
                guard case .bytes(let count) = result else { return (bytes, result) }
                fuzzCheck(count > 0 && count <= buffer.count, "a read of \(count) bytes")
                bytes += buffer[..<count]
            }
        }

        /// The server's plaintext, its records cut where the input says; the pair is dropped at the end
        /// when `close_notify` went, or when the connection was ended.
        static func cut(_ input: inout FuzzInput, client: TLSSession, server: TLSSession, closes: Bool) {
            let pieceByte = Int(input.byte())
            let cutByte = Int(input.byte())
            let plaintext = Array(input.rest().prefix(32_768))
            guard !plaintext.isEmpty else { return }
            // At most 64 writes and about 2,048 cuts a run, so that a run stays short.
            let pieceSize = max(pieceByte * 64 + 1, plaintext.count / 64)
            var start = 0
            while start < plaintext.count {
                let end = min(plaintext.count, start + pieceSize)
                do {
                    try plaintext[start..<end].withUnsafeBytes { try server.write($0) }
                } catch {
                    return fuzzCheck(false, "the server could not write: \(error)")
                }
                start = end
            }
            if closes { server.close() }
            let records = server.takeOutput()
            let cutSize = max(cutByte + 1, records.count / 2_048)
            var received: [UInt8] = []
            var last = TLSSession.ReadResult.needsInput
            var offset = 0
            while offset < records.count {
                let end = min(records.count, offset + cutSize)
                records[offset..<end].withUnsafeBytes { client.receive($0) }
                offset = end
                do {
                    let (bytes, result) = try read(client)
                    // Only what is new is compared: the cuts may be a byte each.
                    fuzzCheck(
                        received.count + bytes.count <= plaintext.count
                            && bytes.elementsEqual(plaintext[received.count..<received.count + bytes.count]),
                        "the client read bytes the server never sent")
                    received += bytes
                    last = result
                } catch {
                    return fuzzCheck(false, "the client failed on intact records: \(error)")
                }
            }
            fuzzCheck(received == plaintext, "the client read \(received.count) of \(plaintext.count) bytes")
            guard closes else {
                fuzzCheck(last == .needsInput, "without close_notify the read ended with \(last)")
                return
            }
            fuzzCheck(last == .closed, "after close_notify the read ended with \(last)")
            pair.client = nil
            pair.server = nil
        }

        /// The server's records with one byte changed: a typed failure, never bytes that were not sent.
        static func damaged(_ input: inout FuzzInput, client: TLSSession, server: TLSSession) {
            let position = Int(input.integer(UInt16.self))
            let change = input.byte() | 1
            let plaintext = Array(input.rest().prefix(16_384))
            guard !plaintext.isEmpty else { return }
            try? plaintext.withUnsafeBytes { try server.write($0) }
            var records = server.takeOutput()
            records[position % records.count] ^= change
            records.withUnsafeBytes { client.receive($0) }
            // The pair cannot go on after a damaged record, whatever happens here.
            pair.client = nil
            pair.server = nil
            do {
                let (bytes, _) = try read(client)
                fuzzCheck(bytes == Array(plaintext.prefix(bytes.count)), "a damaged record gave other bytes")
                fuzzCheck(bytes.count < plaintext.count, "a damaged record read whole")
            } catch let failure as TLSFailure {
                fuzzCheck(failure.kind == .broken, "a damaged record failed as \(failure.kind)")
            } catch {
                fuzzCheck(false, "an untyped failure: \(error)")
            }
        }

        /// A fresh client fed anything as the server's part of the handshake.
        static func hostileServer(_ input: inout FuzzInput, _ context: TLSContext) {
            guard let client = try? TLSSession(context: context, role: .client(host: "localhost")) else {
                return fuzzCheck(false, "a client session could not be made")
            }
            let cutSize = Int(input.byte()) + 1
            let bytes = input.rest()
            var offset = 0
            repeat {
                do {
                    let done = try client.handshake()
                    fuzzCheck(!done, "a handshake with no real server succeeded")
                } catch {
                    // Typed throws: a TLSFailure, whose kind says it.
                    fuzzCheck(error.kind != .unavailable, "the client failed as unavailable: \(error)")
                    return
                }
                _ = client.takeOutput()
                let end = min(bytes.count, offset + cutSize)
                bytes[offset..<end].withUnsafeBytes { client.receive($0) }
                offset = end
            } while offset < bytes.count
            client.receiveEnd()
            do {
                _ = try client.handshake()
                fuzzCheck(false, "a handshake with no real server succeeded at the end")
            } catch {
                fuzzCheck(error.kind != .unavailable, "the client failed as unavailable: \(error)")
            }
        }
    }
#endif

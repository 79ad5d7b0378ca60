import Foundation
import XCTest

@testable import WebServiceKit

/// MD5, SHA-256, SHA-512 and SHA-512/256 against published vectors, and incremental hashing against
/// one-shot hashing.
final class HashingTests: XCTestCase {
    // MARK: - Published vectors

    /// RFC 1321 appendix A.5, the complete test suite.
    func testMD5RFC1321TestSuite() {
        let suite: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            (
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
                "d174ab98d277d9f5a5611c2c9f419d9f"
            ),
            (
                "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a"
            ),
        ]
        for (message, expected) in suite {
            XCTAssertEqual(MD5.hexDigest(message), expected, "MD5(\"\(message)\")")
        }
    }

    /// FIPS 180-4 examples (NIST CSRC "Examples with Intermediate Values": SHA256.pdf).
    func testSHA256NISTVectors() {
        XCTAssertEqual(
            SHA256.hexDigest("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            SHA256.hexDigest(Self.message448),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(
            SHA256.hexDigest(Self.millionA), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// FIPS 180-4 examples (NIST CSRC "Examples with Intermediate Values": SHA512_256.pdf).
    func testSHA512_256NISTVectors() {
        XCTAssertEqual(
            SHA512_256.hexDigest("abc"), "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23")
        XCTAssertEqual(
            SHA512_256.hexDigest(Self.message896),
            "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a")
    }

    /// FIPS 180-4 examples (NIST CSRC "Examples with Intermediate Values": SHA512.pdf).
    func testSHA512NISTVectors() {
        XCTAssertEqual(
            SHA512.hexDigest("abc"),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        XCTAssertEqual(
            SHA512.hexDigest(Self.message896),
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
                + "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    /// One million "a" for the digests without a NIST long-message figure here. Generated with
    /// `python3 -c "import hashlib; print(hashlib.new(NAME, b'a' * 1000000).hexdigest())"` for
    /// NAME in md5, sha512_256, sha512.
    func testMillionAGeneratedVectors() {
        XCTAssertEqual(MD5.hexDigest(Self.millionA), "7707d6ae4e027c70eea2a935c2296f21")
        XCTAssertEqual(
            SHA512_256.hexDigest(Self.millionA), "9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21")
        XCTAssertEqual(
            SHA512.hexDigest(Self.millionA),
            "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
                + "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    // MARK: - Digest authentication examples

    /// RFC 2617 §3.5: user Mufasa, password "Circle Of Life", GET /dir/index.html with qop=auth.
    func testRFC2617DigestResponseExample() {
        let ha1 = MD5.hexDigest("Mufasa:testrealm@host.com:Circle Of Life")
        let ha2 = MD5.hexDigest("GET:/dir/index.html")
        XCTAssertEqual(ha1, "939e7578ed9e3c518a452acee763bce9")
        XCTAssertEqual(ha2, "39aff3a2bab6126f332b942af96d3366")
        let response = MD5.hexDigest("\(ha1):dcd98b7102dd2f0e8b11d0f600bfb0c093:00000001:0a4f113b:auth:\(ha2)")
        XCTAssertEqual(response, "6629fae49393a05397450978507c4ef1")
    }

    /// RFC 7616 §3.9.1: the same exchange with MD5 and with SHA-256. (The SHA-512-256 example of
    /// §3.9.2 is left out: its published userhash and response do not reproduce, see erratum 4897.)
    func testRFC7616ExampleResponses() {
        func response<H: HashFunction>(_: H.Type) -> String {
            let ha1 = H.hexDigest("Mufasa:http-auth@example.org:Circle of Life")
            let ha2 = H.hexDigest("GET:/dir/index.html")
            let nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
            let cnonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
            return H.hexDigest("\(ha1):\(nonce):00000001:\(cnonce):auth:\(ha2)")
        }
        XCTAssertEqual(response(MD5.self), "8ca523f5e9506fed4657c9700eebdbec")
        XCTAssertEqual(response(SHA256.self), "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1")
    }

    // MARK: - Incremental hashing

    /// Feeding a message in chunks of every awkward size gives the one-shot digest.
    func testIncrementalChunksMatchOneShot() {
        // Small chunks over 40 000 bytes (hundreds of blocks); 1 MiB chunks over 1 MiB + 300 bytes (one
        // whole chunk, then a partial one).
        let small = Self.pattern(count: 40_000)
        let smallChunkSizes = [1, 55, 56, 63, 64, 65, 127, 128, 129]
        let large = Self.pattern(count: (1 << 20) + 300)
        let largeChunkSizes = [1 << 20]
        assertChunkedMatchesOneShot(MD5.self, message: small, chunkSizes: smallChunkSizes)
        assertChunkedMatchesOneShot(SHA256.self, message: small, chunkSizes: smallChunkSizes)
        assertChunkedMatchesOneShot(SHA512.self, message: small, chunkSizes: smallChunkSizes)
        assertChunkedMatchesOneShot(SHA512_256.self, message: small, chunkSizes: smallChunkSizes)
        assertChunkedMatchesOneShot(MD5.self, message: large, chunkSizes: largeChunkSizes)
        assertChunkedMatchesOneShot(SHA256.self, message: large, chunkSizes: largeChunkSizes)
        assertChunkedMatchesOneShot(SHA512.self, message: large, chunkSizes: largeChunkSizes)
        assertChunkedMatchesOneShot(SHA512_256.self, message: large, chunkSizes: largeChunkSizes)
    }

    /// Chunks of changing sizes, so partial blocks start at every offset.
    func testIncrementalMixedChunkSizesMatchOneShot() {
        let message = Self.pattern(count: 10_000)
        func check<H: HashFunction>(_: H.Type) {
            let sizes = [0, 1, 55, 56, 63, 64, 65, 127, 128, 129, 3, 200, 17]
            var hasher = H()
            var offset = 0
            var turn = 0
            while offset < message.count {
                let end = min(offset + sizes[turn % sizes.count], message.count)
                hasher.update(message[offset..<end])
                offset = end
                turn += 1
            }
            XCTAssertEqual(hasher.finalize(), H.hash(message), "\(H.self)")
        }
        check(MD5.self)
        check(SHA256.self)
        check(SHA512.self)
        check(SHA512_256.self)
    }

    /// Every message length from 0 to 200 bytes covers the padding cases around the 64- and
    /// 128-byte blocks (length field fits in the last block, or needs another one).
    func testEdgeLengthsAgainstHashlib() {
        let pattern = Self.pattern(count: 200)
        for length in 0...200 {
            let message = Array(pattern[..<length])
            XCTAssertEqual(MD5.hexDigest(message), EdgeVectors.md5EdgeVectors[length], "MD5, \(length) bytes")
            XCTAssertEqual(
                SHA256.hexDigest(message), EdgeVectors.sha256EdgeVectors[length], "SHA-256, \(length) bytes")
            XCTAssertEqual(
                SHA512_256.hexDigest(message), EdgeVectors.sha512Slash256EdgeVectors[length],
                "SHA-512/256, \(length) bytes")
        }
    }

    // MARK: - API behaviour

    /// Arrays, slices, Data, strings and non-contiguous sequences all hash the same bytes.
    func testInputKindsAgree() {
        let text = "Digest auth-int body: ünïcødé, and more than one block of it. " + String(repeating: "x", count: 150)
        let bytes = Array(text.utf8)
        let expected = SHA256.hash(bytes)
        XCTAssertEqual(SHA256.hash(text), expected)
        XCTAssertEqual(SHA256.hash(Substring(text)), expected)
        XCTAssertEqual(SHA256.hash(Data(bytes)), expected)
        XCTAssertEqual(SHA256.hash(bytes[...]), expected)
        XCTAssertEqual(SHA256.hash(bytes.lazy.map { $0 }), expected)
        XCTAssertEqual(SHA256.hash(AnySequence(bytes)), expected)

        let large = Self.pattern(count: 10_000)
        XCTAssertEqual(MD5.hash(AnySequence(large)), MD5.hash(large), "copying path across several chunks")

        var hasher = SHA256()
        hasher.update(text.prefix(10))
        hasher.update(Data(text.utf8.dropFirst(10)))
        XCTAssertEqual(hasher.finalize(), expected)

        bytes.withUnsafeBytes { raw in
            var rawHasher = SHA256()
            rawHasher.update(UnsafeRawBufferPointer(rebasing: raw[..<7]))
            rawHasher.update(UnsafeRawBufferPointer(rebasing: raw[7...]))
            XCTAssertEqual(rawHasher.finalize(), expected, "raw buffers")
        }
    }

    /// `finalize()` resets the hasher; empty updates change nothing.
    func testFinalizeResetsAndEmptyUpdates() {
        var hasher = MD5()
        hasher.update("abc")
        XCTAssertEqual(HexEncoding.lowercase(hasher.finalize()), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(hasher.finalizeHexDigest(), "d41d8cd98f00b204e9800998ecf8427e")
        hasher.update([UInt8]())
        hasher.update("")
        hasher.update("a")
        hasher.update(Data())
        XCTAssertEqual(hasher.finalizeHexDigest(), "0cc175b9c0f1b6a831c399e269772661")

        var copy = SHA512_256()
        copy.update("ab")
        var fork = copy
        copy.update("c")
        fork.update("d")
        XCTAssertEqual(copy.finalize(), SHA512_256.hash("abc"), "values are independent copies")
        XCTAssertEqual(fork.finalize(), SHA512_256.hash("abd"))
    }

    func testDigestSizesAndHexFormat() {
        XCTAssertEqual(MD5.hash("x").count, MD5.digestByteCount)
        XCTAssertEqual(SHA256.hash("x").count, SHA256.digestByteCount)
        XCTAssertEqual(SHA512.hash("x").count, SHA512.digestByteCount)
        XCTAssertEqual(SHA512_256.hash("x").count, SHA512_256.digestByteCount)
        XCTAssertEqual([MD5.digestByteCount, SHA256.digestByteCount, SHA512_256.digestByteCount], [16, 32, 32])
        XCTAssertEqual([MD5.blockByteCount, SHA256.blockByteCount, SHA512_256.blockByteCount], [64, 64, 128])
        XCTAssertEqual(HexEncoding.lowercase([0x00, 0x0f, 0xa0, 0xff, 0x5c]), "000fa0ff5c")
        XCTAssertEqual(HexEncoding.lowercase([UInt8]()), "")
    }

    // MARK: - Helpers

    private static let message448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
    private static let message896 =
        "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
        + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
    private static let millionA = [UInt8](repeating: 0x61, count: 1_000_000)

    /// Byte i is (i × 37 + 11) mod 256, the pattern the edge vectors were generated from.
    private static func pattern(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    }

    private func assertChunkedMatchesOneShot<H: HashFunction>(
        _: H.Type, message: [UInt8], chunkSizes: [Int], file: StaticString = #filePath, line: UInt = #line
    ) {
        let oneShot = H.hash(message)
        for chunkSize in chunkSizes {
            var hasher = H()
            message.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let end = min(offset + chunkSize, raw.count)
                    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                    offset = end
                }
            }
            XCTAssertEqual(hasher.finalize(), oneShot, "\(H.self), chunks of \(chunkSize)", file: file, line: line)
        }
    }
}

/// Digests of the first n bytes (n = 0…200, one entry each) of the pattern byte[i] = (i × 37 + 11) mod 256.
/// Produced with Python's hashlib:
///
///     python3 -c "
///     import hashlib
///     p = bytes((i * 37 + 11) % 256 for i in range(200))
///     for name in ('md5', 'sha256', 'sha512_256'):
///         print([hashlib.new(name, p[:n]).hexdigest() for n in range(201)])"
private enum EdgeVectors {
    static let md5EdgeVectors: [String] = [
        "d41d8cd98f00b204e9800998ecf8427e",
        "13c8ffd977013703a701cf8e11deac65",
        "a22664edce89fafc28f264d313c39d51",
        "876d16c575f9d3d7f51f12fef37237eb",
        "8fafec3f63fff3c667f522a464ff0b10",
        "ab0d81a93adb4de000327a84e462d9e9",
        "2c43ac382a0ad2a1d6657e2c2b4d6fba",
        "b30f114de808d724f9fae7700f68c4ba",
        "2b8a86f29b92e531d94623c7843bed1a",
        "95c2ed65ca29e1b982021cedc5654f6c",
        "99d6be027b5eca48fc2eeaf1412b8268",
        "2de797b36b7546c5d6e83d8a1d203e38",
        "90d36c8b9478fe6d846fbe5536267e63",
        "72b725910ba0b281512cec0deda317de",
        "5aa3e22a002e4300b0e7791a9e51ceb3",
        "d58e0093dcb633d2398902489f1da5b7",
        "887b610071c85b140d8615f5cec4875e",
        "e7765f3b25ce638ea7a2ace6a6cfcbfb",
        "58fc5081241047b0a3704c13908dcb26",
        "a9c4f199c4044a0093cece2e1824deed",
        "e3dcda38f7df3562170040f5a0e54f3f",
        "71f81e17b6ba77b2c06253cb077f4720",
        "888cae7d247433a476d3e7d2d78487ca",
        "3b76b80a7fe2cbd10768754c18a66c4e",
        "643a40836fd0c8e8bc4def49bf49d69f",
        "5e9d0715149cc5a1b5b4b454acf318bb",
        "af4f91fd528337ffa4b4219bb96b1733",
        "529ec2cb68b6ba664d2995de62bf5feb",
        "85fb24ec1fbc2c5b57ffd8a1db41dda4",
        "832c3de6a6fb13020b514b6fc3bb2f00",
        "4abe60ea68bc263e62f28e6a56c4aca3",
        "3657c259aba7eedfaf3957b2d5e2cc1f",
        "8e2c0cba10572c7b479aca4e43974fb4",
        "3959458490195df012beb252137ae32d",
        "e30fa5a136b629a6acde4f465019a7bf",
        "253e04f646ee661614430e1faf5b80e5",
        "e691ba3cc6a848b17bf543a32011f9a7",
        "1762a8d30a4889479b2a50c0da1fd8b7",
        "167b49a741a9706c94087a3a07cf2bd5",
        "055290dd1977289cb13e2b125b25f9c4",
        "cc93b85051cd0b9d0a5d27171e36c8bc",
        "4c5abcfcb9498bfe71d9137522a26845",
        "ac4578723a613841b01ae2335b676878",
        "714195b35c6b5362cc57acf5ffc11717",
        "ca1701ff6867a4284ed6c97baea7e37d",
        "8be72a1b3c794ce583062ec08b95662e",
        "c2b009db00ccc18ef61ef96ef92485ae",
        "78b7deb364dd67acc8754997e9de2583",
        "d51c4c4dfde1ef449674d4c68ecc0015",
        "91154209668205198bd622e1a62ec59c",
        "a6a4a198732007a71146105fa4853ab2",
        "8732f6f5df6b46df1a0204a408828fb6",
        "af632f5c0676f00a47b305d1a013807d",
        "e192cfa09a29ccb8522cf4c67e3f3943",
        "5e5534f470ef1d65657807ed96610693",
        "d872aa0473a24da995ce4ac518ade767",
        "e23567645846677c205de80f9779081b",
        "1fe5e4a27e12484d7203d0b60c21c51f",
        "496c1fa53bb99ae398aa131ced2180d9",
        "3788ef2f95eee1791e29c134589d25a7",
        "4ac2483217717835220f6aeef7fb9c71",
        "377169c1005e5304bbb6b4f3213324c4",
        "fb973e262a6b29c6569aacf1f7fbc798",
        "4775b66278a8fc132ff80923378216cd",
        "71e123b70c7aa64826fcfe472694cd1c",
        "5949948f26e35203661075214faa3966",
        "a98798c0bd6121b8600eb7f3585bd13f",
        "c230bf3134e7e7331a0cdbaf31e4e6ee",
        "147a846b45ebf9ff8e6fd7d3c2384bed",
        "9c41aa150a7586ab06e7368aee11b3fe",
        "b13441584b79a54d081a208931c0bc14",
        "6cab733ac73421d082d01d26c3870913",
        "a6d36774de81858e2bbe7fd11c17aa94",
        "ce95231d6fb384a4b144857c98eb3c98",
        "c2d2d34718bb004253cebe00ba073ba2",
        "faa88ec878827a894ea202233edce128",
        "a54ae5f7b2a39be44caef08edd12801f",
        "abdd17232601abceafd22bf266aa1c56",
        "8b5cb9494fc08143c22002153eece7e2",
        "5038b320bed7f61080e4472eb3fecb5c",
        "69f249d7115e9edb365803fa6afde291",
        "16608662c506dab8d1fc477a1954ba4d",
        "063fd9337677ca2753e140abea796918",
        "61230e707babd3898ce271b83d6ba0e4",
        "a1897a9e715b085468b2eaad74538dc3",
        "8cf49daffcf9fbc95d5596d3c39a1fc0",
        "6bd4835b64c08520ba65a7a189c72db5",
        "c2121987aefc1290a1cd5a714268ea9d",
        "5786abe8f4efe4731b4a3bc51b3602c6",
        "8b3280ef2ec53f608f8e6485e6303506",
        "d0685c7539cbdb036e84e4cab7335c7f",
        "30390813653a730977f2b159a33b3b40",
        "ffc7e3dbe1cbc77d035fc6fc4d75ba06",
        "d5d01e5afe3b0dfda70b3aa9ce33a2b1",
        "c7c7a13f7c51cad673dbfc6cf8631065",
        "fecf4d2d23a8cb13b4923de5558b0abd",
        "a1e1b33d2f30960725706d3bf80a2af3",
        "6b18b53325c59261e6ada45150896416",
        "7afa7019a64ad5f020f4428f28d762d3",
        "1f9afafca086827122ccea8b27158799",
        "5b9c57d4cba3367b9c65b22a80e88bca",
        "6ed76ad5ab24b053bdd2bb8e84b5ab8f",
        "3d2601b39fe07c1fb1157f74ffcc1070",
        "249885d39069e13c1573aaa3511ed050",
        "cccc0e6cc65f97ea23ee201d7dc2aa47",
        "971cf68e9eb427bfaf17ad6027e3aa0f",
        "7386af36aa00839fa82d65f4393b3ac2",
        "c6ee1ef61c9e3f61e6893ba1639be269",
        "41e6975bd6425cc1d81b0235480ad1db",
        "2e3ed0913028fcad6bb314cd65d5d380",
        "5a642a6688a5111f902c07d24d917435",
        "971d0e793c1b82b4ade7bd998916b4da",
        "0940460d6eb047e4dc1442f81f696669",
        "71b58eb1aebe1c7a4fbe1dca809939bd",
        "6e7a4735ebbc4441b88a786072bb2e23",
        "94f9a3589d0eeb04b8d76175a28ec139",
        "401ed53da8486f08925598a75e15019c",
        "60641004c92d3fd724ce329b86b692ea",
        "b8eb7b96d9672e6200a4abf511457282",
        "87f72c7241c5fe218bb4df8c0aba3232",
        "bf240b8b7407fba3805adeec63a03b77",
        "c51004ed1ef4271c82106468a13fe8cf",
        "e3c630417415f51588089c65aab9c5ad",
        "d2968ad8dfc3c448319c3f416d6355e1",
        "a6f820c06167fbcfc5632d376c7f9cbd",
        "a268e9c5fca2f6424f919af519dbae1e",
        "f7c3825a26578ffba075a8bd6b0239e0",
        "520bdc2dbab7c25d64263ffb242d9e98",
        "3e93b378458b77da96b2357c3bda8cc2",
        "d1ae06bbf9128955a34bedb6231eee62",
        "8a2682a4b1a920cccc7c09422b233d76",
        "98d2f0fa2c907bd6c7463c7763675743",
        "145e1673d06e80239d1089ab105b1b33",
        "930d703dfaba91dfabdf8bb6bf3eb8d6",
        "6e5e8b50dd0e40473f4e0557f5838440",
        "92c67f8eca8400b8636fb90c244bafd9",
        "a67dac48a8b9c94e7e58fe89ac0764d4",
        "a69f0c700a4b1e5b8dd66c9fabe34596",
        "3fdd8b0b1fc506d77562e024837d2762",
        "093caa1d6af2e0ca402c1db51def3ac9",
        "0197beef7718549a09da4d1066ae558c",
        "ed5c0acd4a87317ef3d662aa2da92d4c",
        "a5d8f269e3f06a7b487ec28a99bff215",
        "e28e63943bc99769d7664a2704e337b4",
        "a4a44e7f1257f2ca67b41401c6e58bd5",
        "cec721bde63a961cbd0d719111cfc45e",
        "762324f48bc9b19271064d241dafa61d",
        "6330c7ed9708f9ebf6362ce554270dc9",
        "edf55768122bd50322ceb5dcc8e06f3e",
        "b55d97a154d6c398a9d4e43cb806e5d0",
        "aedf3d3fe5f35b7b5403c8a4c30e4506",
        "508f2b21dd0bd0e0add17cdd1793e816",
        "78af56e9cc064671dd2e8a698f46c1ae",
        "37724fa318cdbf7b372bcef9f3035b95",
        "feb1d52712cd5dc1cde2421b9d806696",
        "f71e92333362d48a36c00950d281aae7",
        "7020620ef58cbd5bbefe979290fa9fc9",
        "ee7c7794cfc4841e304df950538199c4",
        "4cf1e63baa68ef8d75943bbc5cc48ec0",
        "08d346d3d56a247c995e850ed25be61d",
        "c08941d284390c789fc29977dfddd3d7",
        "3f559503dfbc8f68604e63cc196df5e4",
        "4023f5aea2af48639f3d5f760e4793bf",
        "227c2c0f1083150613e02a402315bc63",
        "3baf99412d041c89b21e8a666f04e8d3",
        "a9b457128e4f422ac4739fd91de1d775",
        "a56bb3d4722d1f80fe5d860736e34fd9",
        "589becb4d2fe32b2aa10f87877186362",
        "1fc67f67bff29728cca0fc8ef1b21233",
        "7dc14b27183752528516423245d645e5",
        "be8a02f578f997ea202a3c61d81b119c",
        "d82173514d26cb962f4fd8c0fcc29ba5",
        "b1607ec5f30af32ac5998326b9224629",
        "789c3579592bb5afc3dcfaeaa9a77f40",
        "ad8c0076b212f6f30c3f3e5ace2db6cf",
        "de56e022579d82ea45604b9fd680c6ce",
        "5fd4bccc06a627ceccf050144559608a",
        "46aa3eb2e0e6f299a4d22439408b720d",
        "b6722bfbb735cd92aa66f6b03c893d33",
        "934f71f981951aab385539a88ff22728",
        "5b9761ccc8b09b1c68e24a9044464065",
        "4aa891b63ba2a7ebef45cb58a3bcf03a",
        "af9699ad6596254567774370953f9328",
        "00d2240d4076f12d616e7e74c26f84cd",
        "0d9aa1048d1d49cbe89998800740fa0d",
        "6437cd1f14a79127b09ea990850a0ed6",
        "b19a938e83eeea2f622ec9dcd724f8c3",
        "18dca0977f4726e275daf0eeb8f9b86a",
        "6187cac669a6926383acd3e68b379a04",
        "53db4e1f23268e1dedb7844dcf44e7f2",
        "f07bbfc274c0cd2a81989d0814fbd76f",
        "d45b8f6bdccc54889bff3e672b9c0fd5",
        "5b0fe2b09edfd68ad926e227f8ca3b2f",
        "19fbad9830684a243dd9192571941823",
        "e5ef717488c251f7b69511f6f069c7f0",
        "dcc51916ce09dd43f022c6c79df14ae7",
        "6df274d12db2fe612db9317f58a05ec3",
        "0a61049db0ab0efe6a093a4320a9217d",
        "b30055a00d09d84e0c439c4935811391",
        "bf3d86f1edde3dc101019296247020ca",
        "f9914cd8b67085ceb02d1eba3ff2dc0c",
    ]

    static let sha256EdgeVectors: [String] = [
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "e7cf46a078fed4fafd0b5e3aff144802b853f8ae459a4f0c14add3314b7cc3a6",
        "cdc63a6325d5fa92515578c0b418e6eeec1c6d085937a24fc43c2126ea517457",
        "b39fad1a1075f64570b3226d339ea818f9c66ecd2f1c59fd8b9c5a32b54c513f",
        "eedb9976fbc850679de37a930e6685d5d7db6ea7c723af34df528aa8b6fa46df",
        "b0876eace1394020b22cb0718294dd328ac1dc6bae00af2f064289022c86281a",
        "801da61dbcec49313c8da83ee4a11a12ab0a33d3acfef1cfe1661be0d5564751",
        "e759cdfe6d8119afd0dccf1b85394ff66d02636fd01db3189dae43e91e3c1385",
        "ada1a184226d6b2fd6a3728f3c5411d6651f387a6365d84fee8972f8fe55dba9",
        "5e0f483e871e0f84851ecd8b9ed0001677c4bf98638ab260d85ed264258c6904",
        "775297092df92dfd16a87620e0608f71e11b14b156c58d20846ab7b197d83eb7",
        "08fabd05da8d4962bb9f3ba1a1393ef41d38cbe575d5764715a966adb6da2d97",
        "dd3fd284d8cc574a76de2481f20213f443ba8f939e41b9855023901e4b508f73",
        "f9a3612d255e62d4ea5f0b94b5543bf0c0efb9f9acc1e759ad574ab269a9edba",
        "66c694f29564ed1be238f0cc7d5783a386be4598254f35bf2357cd372d2b3d5e",
        "09792492cd2b1db99c9726d9e94640a1b7fd99dce348acbdcd55daba1c7e7bf2",
        "cd7d620a0588e54dd46e114a6f4ae5212c82e48abe5a13703649a745861a0c60",
        "d6ef72ccf1dc07afb3074967c93919b8c410f0b633fec60ee3c7233441ceff44",
        "f903fae92d4e901c983f528192521f6dc333063cb3989d0e140b5bf9296fa6c3",
        "9a20ae798f2ad83bda7888c59ffd303dfe46b0d64a82ecb6b760be0f6f88d89c",
        "74da03933ab6fc62c7871c2994af988ff99b7f064737c81af8e81aceddaf57b6",
        "90ce7915f1f22d079093aa50265dd48754aa017d4ef23d5cafc06102d55002d6",
        "a0407fc482a072d7cc0035a8e3e7330654cf0762a474810fa109679ad1d02412",
        "4d556bf9c23323e0aba17945aad3a832e0f67dfe4d2222d6244c28c599c9312f",
        "23c7b48100a142072d8f750d7bb2e34d72cc46e6ac263c54a1a0b36fec0aa5da",
        "26c285015de52171ecaee093dff3f497dd3c0f12e4f484cebb3c35c05d54c510",
        "934d8a4d5356f43aedf493cc31a3e482df2df9eb2bcca87b5cd237972d023980",
        "a05ecc61ba4d79334e8cf64416940dee178907d88b5f63b194bb114057c472b8",
        "3dc7de8e7e5e2a49680248f1513fd2552a1be410681820abb813ab934c8b1ec0",
        "1a4959dca1af8f260fc0d66a18b58b59c21b23aca05a019eae35cf9e4bbca2c9",
        "c582303daf20ec31db865226561c32ff015ce49f00254dbb056a5d7544fb9b66",
        "0cc420417cb6a768e632bf1be8d1f197c9c0e9dd1dd2021e3bd37c46cee0516f",
        "83b7a8ed859053c81d818870fab1f8b1ae44d06a98a9665d369a8fd7d2838ded",
        "e19474c88a4056ba021fa047becc8366c59b3a933931d508ec4543450731132f",
        "9dad872820622ff8d5851eafd45e7dafd4ee3e22adece4a5f029668011f5c1ee",
        "97b4af583dbc8199a534122a55cc10d1a6c01de7138ee62cf5e5e71e6cddff23",
        "de547933205679b70215773345d0509b37c2028c25cbb2f58a7fe5c4943b0bdb",
        "c33aef5769fc88357a5805ef4e4d171ce91fdacf03d93c7826a944d4a725d11b",
        "cc539ac958c16c43b9071ae6191fd25f2839167b546e351dd503e0195404f4a5",
        "cfc1ad90c5803aed16496c24a6ef2669c3f71384bc6b32ed810583ec757e143c",
        "76def75856e5d73ece011b058b02d205991a48f0fcf8b7ddcc24005d57759b23",
        "c3e0156169b2a77559942d6c83f3910d0967752ee41c3db7d66ae8ce86f2e69e",
        "602d057fc3af303e2c318d681f05e1e7acbe07bdc9129434eac90b1c6739075d",
        "3396a0e8fca1de6d61bd8325a5c35e30c32e0c99b25e7b7e86a893103c77400e",
        "adef897bed495fd4f175556c1cfa9818dd7ea28e205be2c074f7673e428f1d46",
        "20b886fee380b8f643ff3839dfdfe82579f427e391fa15ecf926a5852ffca93b",
        "5012a47af354ee8d1fe54280e8da11b17c5b98dd39a8e86f2a82acbee6b1d2b9",
        "4c8c50af8719072140fd82c583ad0972136d3962ea3f70ee3b611d11acd386ad",
        "a6250da1e7ca144af7fdac8fd737c2e88e87cc08e232b16b53452227a56d5dde",
        "d08cf7eb5abf6b84dfc0187e137a8929855f59cccd4bcf5911f7912bf44a86f2",
        "32a1cfde77b79bf95b4ec12614851574efe58f62ff2513943fb58b003bce2b1e",
        "4eae55438a1f230e75259856b44bf3c4265fa98ab1c61813e1c5b8c63ff4f885",
        "a200151966c341bcae5526e4e9cb6c344b9231c4468b159d5d90ee56963ffb4a",
        "a41ad7999ea32fb38095ca92f1c54848aebd573b9a2922f572f684b1da8f5ac5",
        "0b35cded48f546833dc4e93133ffc3d7e05c7e41842f4accc39c6e04204c8dde",
        "2900465fcb533e05a158fd2b3be0e5e3b03740d83060aa3580e0d98a96bf2384",
        "31454ff48ef36af2f08fd511bdc37d9d5855ac23e992e5ff5445cb6b7674a674",
        "bcc0a5d3791b985b7550e04ca660a6c63a589ba1edd2283c8e110e5b515df124",
        "625f50f0c121a43afb524b104e3edf8eacf001ffd8795ac11609f458bb4c9003",
        "5a85bd878ca7ff9e9a89748f613bf443cf10d199662c21e7115fca98262fa411",
        "35d6f8129baac2bc4427ae4f5d831acde4a59233146da0e0524cd6b445ff6982",
        "de1025bf69990152626ae709c870a15a907a1775ecf669fb3d4955a4ee23a3da",
        "88908d0c7953bf0924d1e1e6f494578300aab9c32e4312f1e733832ff57d8bff",
        "5f6401b96532c36de4e65beec0409b69b1d181864c8009b7a04f43e5d56350d1",
        "94eb5de4943613fd048dc93393ab06877405faa39c11f53e9386083339833e7e",
        "fc518669b6eb4b4dd91827ecacef86689c725bd5bab888fd3b26dbb196eec954",
        "65d7b2dbf0f1402f1c5e0d31165ae5a2660417bb118185f8e802ff2433b10b61",
        "1751e734f4b375b9a87d788441da4e2054858e8a29ea3039579dd765f778c3c6",
        "82ca07354ec5f5f758372e2dc930e31aa6c6b4f488233e4e4333e6e3c373966e",
        "487875324c347b6baccc0e7b7c7e4a0e68e34f932cbb32b23b259c98af778f2c",
        "54600d51dc1bbf04fb01cd5120f7797e4f5b974e224c8963865d1ecad1bf6d3c",
        "2da56abe0ee37a408a94693d95f7af5e9774f0659a3c2593b33df5fb0a236e35",
        "f1ea2423d41c019f186e07091035dfdd3627392a51584d753295a86810066c61",
        "d3d699995b8dca504d20bdaf82d9ef8bc2f7bf3a2126eb7192a6e831f5b4babb",
        "085013af5c88bd1be39327fe36180ec513e4614bba72213b5709b490746ad03a",
        "bdfbaedb8843d8edbaf7ac25816e72e56410fcf73c03b88deb5bd6588a0e1bce",
        "afe11f0eeb094a486d48cc0487b69db3c7613ac5f504f4b6c634dc68064a5c19",
        "6f01858ea26c389578b8a5e009a3a31d8f0935e2825678ddd15139cffcd60eb5",
        "c32a314d01b530f4da04e1ee760e31c53753c90a32112f2a2f986051dd3e0d0c",
        "3e4ebacf675f162f656e4ad287e9851c295c07157e40345d00d450bfdfa06c74",
        "8afeccf31bf9f73cd8af1a4c0288ad4f0bb8e1d0774d48632c4ef1b5df82e779",
        "ddae3bfe09abd5afa42033db7b96cf8a28d19888c510d070135fe530b95de166",
        "87bc08d52cbd184319ab15d724cbc176b5c170a8e9006b822fe9d8cfd5429544",
        "48e6ff5b741939d250244be71835ccf9990e2ad25bf9c8421a478e5c6c05f864",
        "baa4f92a8a93935d5f99d9d47f04358eb56cda3fd880048c2b3da2b107450757",
        "aca8968db74fbd68c294dd826d1e7dcca58e321b505dc96eeebd5ac2f2c15636",
        "d3431be4fd07bc8d9fdaedbdc9584defa07ef03a34517d7e689180d429fcc144",
        "dd6ac441d2d8e74e32c2079f14e1763b52b177fac3f4833ae3896339d9c15341",
        "c51092ae9e5f2311f8cca2cd082a0c47dcef80524d7b9e497b92c4b6c287425f",
        "90202925504853497e21fdaad3d18a4caa0d3da1f25796fbfc221181cd5589aa",
        "38516949889807994420f40558eafc48753d4a99ec33d6a04045cf1d2e527b57",
        "6dd8ebcf9bdae6f557891ee487229ab4c37abc9bd5987c463935084c321eac0a",
        "2f4ac2663ceea0e9dd22721d110b2d6a565e000b1069436c7e723ca09a9af2f6",
        "f56327665603462dd71e534d972a4f9d2f4fb1b389c9a30affe8a99f1fcd7d37",
        "eeb364ed535ddee1ae978899ff0958363a8f3b27447baed3906bbf2bf225f93a",
        "47b36f08053588e6added63bcd14bec0c3017ef2e11cbf22fcb900863d70e02a",
        "88e785f8ea2039c6d181b4f501ac3f4458b904dea280fe66f2d590d7c098db25",
        "60919a22a1cff77e01622c9ff12b4e87852d978b9d3f6eec3790adacee05da13",
        "4169a946e6e90dc9125004dc10ee2f2ccd0bdb719c06099255e22ea34e3589f5",
        "de7c1ec4aa814a4bca044a6392f2d084b1247c751f859b0cc940e531e6c393bb",
        "5fb5d4b7ace49f5eac37422b8e1db12bab83cdbc2b7123abb61457e19c050d4c",
        "ef70de4d49e091d72d4cbf7c44c68d697564536a3dca09d5f18f11cf51652ccd",
        "ad2bfc2ba2bacc4924c52ef70ca127df712796bec9dbced853b9df366ee67e06",
        "9ae38e0d0111478e163e01ff1ee3b67272ab39b341165f217eafa18eacad09b8",
        "76701c4459d8d58fe7a0f16f5699e6074de6ca12005df1008ff618b4764c2818",
        "70ef868078a5640f4e1c8b7afd900329ea332be2a6a3f8e57dfeaf9f084e1b26",
        "237384e7b0fded9f4f7844f68892645380a022602c935668d7797365bf053a22",
        "f3d5506a70f4dbf96e095e15ecb257b1899ede36265815e781092f0ad5f04392",
        "0c0f21f9639bdc2404e10917555a5c62dc019032545343f5ea24d78d68e4b5c0",
        "dffe27d7c312f2e63c9183e4fdc0efb2ccddc29eb64789e34d4c701c8d6cca06",
        "65a81a885728692a22ddc6b961a4ea59c361e2e02de2bb27dfcdf41cd8dcd0d4",
        "aeca4f5a02aead30b044df2ce00b97f2f4874c25352eaa1916a1831819dcc3dd",
        "cec7a189fcea0a38f025f11208b1bd2b12ec291ff00ec5448a325c5c8db0c7ac",
        "cf1a963953155c44d16895e04631102a3e8c239321e045b9a62d71eac1c4a67a",
        "2ebc22005dfccb2af091d0f0b3131a44fccc4040ee238f94fa245759c08fb14f",
        "cd738c4986011502c886997e292dbf0d25ee5553903e367570ca86c269915dc5",
        "fb1b5da476c8834f72ac306a34864d8fceb08b88b625d8f40ccb54332ac92a98",
        "ae8dd3e46094282f5a992327888c1305d5291c5025a4bf6cfc3fb2f8bbfd36e5",
        "f3283313d4f923cd7202ee64fa023aa6daa492bc7838b9f970d24a9f8cc62a93",
        "b0dc41b1a384e2f1203f0351b38fbeaafceef577ce1191d5bfc25da39f721eae",
        "5df24dd802ac26132ce608dcb5f09841eef039ee0f152acf98d26d17fe4e88e6",
        "5ed5a129bb49444fe2585d785920135a02f64350edf57c5f3ce7605b86f39039",
        "8419642ca144c4337525ba61c1f2d3d291449fd49c86eaa902ea1eb756865794",
        "b9b8bc6127b8c9e1396cc2081b5181edc2a264746b6038b094e49b7ea8a98a46",
        "3dc980ced4e4687929dd079c84fe8e6e4b3d6a80435a68bb3ad4bb860ea63b80",
        "7e4f5abad35b869cb65368b12294c008848db0e48c513f6eab6c768daabe73ab",
        "8513afe4abd1c76b2e4959fa30344f1c85bb8acbbf0284f161aa47fbf459e483",
        "0fe729ff19257bd6fec853acc2ea355f6b34b58e6c0f684c3e188fcdfcd9baae",
        "0aedd4856f8eba0963627336ad5144a9a7dbe12498e6066f0165fc97d8ddee4c",
        "4f1757ae4bffbae86d775b831765b75af154d52f7deaa46dd378051a2d3ad57f",
        "d35b74124cb85cfac62bfeaf3a9771efab3e0ef88fc43702c35a6efe09467cc1",
        "59af9661a687e63d741474741e090bc7af5eeca69f4312482a7b4b1a3d3607d9",
        "607bc92ce6fbdc49f884f946265f5e110da4b415fa967851a96f7c35de492c8a",
        "3bbddcc5dde759dfaf9dfbe64137f91fd360cd50e9801fd288db3e0c9f25796c",
        "40ef446abfe35ccabe226df76d58554769f3acee48d79700c03755e5fe9457d5",
        "04334c8eae2c6af8053fe8b44325a6d5354f0e3baac1881681e425acc58c4ac4",
        "ffaf7a9992cb4e7b6dd67667c96d176e4f228ac4276857f740ed4b6e98cadf7c",
        "bc3e21f61bdc9dd0975ae1a98ead6c60c61ae958fdeb94770ab5d44c487667eb",
        "8a7bc92641600f71ed1577575d31e1391f9bf76a4316a9b944f9fb0b8c0a0ed1",
        "fab8afc66644380140c5a35534d61e78f2e07bd19dd3d4dd5e944d7b86ec8a03",
        "5a28bfa762a5c9cd6d623db1eb0486631e46258eff669fdb87883eae755761c5",
        "e611aaeac5fe16e9fd578f6c0e5129dabcb8dab958d10d41d84a32262916e410",
        "500ba1a033cdc9f73cdb57f6509a2dc674cf0bf17f5afe0bab30a393b8d45468",
        "cb3c8494e0ac93d6d35b77acbf381893e6d3811be1a7b0d9e6e095a458637f98",
        "84ceb5dbd49cdaadfe39e38e63ed03298fe7b79f5041708b0d731db7a39d8dbd",
        "e99523c507ea18ced405e98dbc4b29c4d32bf6af7a4af4eb1452a2257df0d013",
        "ecd8c026064cdc231580c16e0b9b8df833db047d9ca1ef5778cf065a6d08db2e",
        "e648219379e2a46d1b3a21c435058f835034e7c2f25d737dabfc1f914d8e0cb2",
        "3cfc16b7faf0ebb28eb687f04d11cea7de53146716933afbf685e1f77402dcc3",
        "812a0882b62693af4201432ce191bdac6e21baaf656cb702a01cd633e3709b98",
        "5a4dc528f77fb11e6e1490de3d476fb67f9a5ccd5f0c0d95e0db3fd99e85a887",
        "eb15d01e22723f2f80ef076fb5b4ee3e7350fe5a6a89cc9c0a816690e624ce15",
        "ed57f1fd6af9c2a627f43a6d5ea26860b8191b0ed71d4ce14644e385e7d933d4",
        "e8a117085f7ee7c1b065907d9c5e7536a21faed5b15f0067c8e36e09eef16649",
        "9b5c4cbb8e8d3245d237baf44b466c62ed5fe80c916a63deb5103fe7003ca2e7",
        "00378e8d59f4dc790e7945c84194f4028a80f42589369f3459d733940d2324ff",
        "584f88d24cd9d725615c667165d27c05452d6a7e0fafa82f8571bff3a616d640",
        "d36b4dfbcd930d345e5707f903fcb78bc3c8fc3e004b0ea7e68d414df5e2f959",
        "764896e1e0481a04b0c00076b032afe27750d91e8228a42d1c47fe9b1a8cf812",
        "e9c839006dcde46d4c29fe92bc0068d5f594177d66d3f68634b647deed995d65",
        "b0b6f680d8d42d963e83942468ec6de7c2fb194463df9be9e9bf7e702cd3eee6",
        "2e2f80d7d19aed98a0e378e493f1fd117c0ff8c8f084e9cafddaf59c28117768",
        "769292cde76b02251b59010513368f2b43cbae5e4c17e53c3e82e7e24c08c42e",
        "3412cf08084500b907f11ee297b5d66989b28ee8ffa7c4694911a24b31088006",
        "678d99bc866b9b2d673ad469e51067f25b8d02fd7e607165f0a4d7c18a51d17a",
        "7c4453d05efd6342a664f5e4650ff9a13645cb0947777283c223551473ae494c",
        "7cfbe657083f068e0877c80e1920e63ea8374f6eba0a36dfed6893386a07c4bf",
        "dbe0ce98f294f2575e21c8ad9cea3c4c2ee89d97600dc87c06a91f3912bad382",
        "f7cd60bcd1d7117bf0110d9a5b938bbd505d15c38022928d4a21e2c469cfa30b",
        "c0574525e77cea4a3aff6b563c95eb83affcec6de295ffbc35598bf654bab09b",
        "c924bd2978d8153b9bf43aea65e435e191a459add1810a04e15ce1735fb9a3de",
        "49ebded81b5b15adb06e1ad37d3e8c52d29c94c20e5002949fd081a79491b5dd",
        "834b2001847f33e6928f2b8fd27e3379aa3adfc34b358a9a4723d0464ae0b945",
        "d96c64f734ad10cb337e5fd3a1947ecac9ccacf6973fa497b6f811d6f4aaa1e3",
        "71f4ba692669f02ae200561f087dbf41ad392458e3556a449d1da6da6057d95e",
        "eec8c6d845760018c6c29600a28bbf6d242912dc8fe5c0e8d9ecc763565f8064",
        "c589742f4361ca1a64f332181a10c2efc1909c7b67d0ae5d4a7335dbd5512b6c",
        "8952be7e69d20eab9651be313b48f0e5d920bf63f2dfab02eee15f0c3deb7476",
        "25464dcd331fb6dfc31735cdcc5a7f5e187b512084f52ff442b5cc617e29a3bf",
        "b193896b8884d1d3c311aee7cd68f972a3d95250e5b51e2a0d135ff3b3f05fd4",
        "2f76a7e4b230918b173bb7dbeeaae62c12b1e3264f677d6512c928d13c22da04",
        "887fa2014a1efd23f8a19f3cd782bc7b47c944cc461a8c2a7b64b617b9b4bf7f",
        "ae605c0a78f50bee219950d7fab8842d4bbe7608f08f127a8a8beae42c245b6e",
        "f02d75586ed6601b4df292c0621e19522bdd32ba4ecd709d2c3e04f612e76130",
        "91e6c9af893df592ddfb4ff96f6a5a2c245235da64ff10c1ff58b5535e4fd836",
        "b96cdf70048d716f9eab5e0b27bfb6ee029df2a5cc5a86708e84a7d51fe1e88c",
        "734ce24e51b27e8579ecc25c9459ee6e6f1874ce5debaa40e2439b3de0465fe8",
        "e9bea9c2df82fcc983bee06610a0ee849d2cb07cc4e19c9150b5fffc9ff44a98",
        "ef2d447fae40370b6f2f6ddd4ea873da814338a6b90529a56e872a88a53dd5bb",
        "7d24376ffe22dd43f87dcf66ec1df395bb7d22a2f50cb13e86e5d8acb9ce671a",
        "b60c7cef4395b89301fe7c4f684d4c89c51488b15928efeb2d2607ef6d4a7112",
        "af3693744312c85b48ece39c2b1826d4ce6cd8aa7ff0db2709f1e95b95364077",
        "0dc88f7329df669b2e5baf95676c6a50dfb5c1f618c853eba2f9090ee6b03a0d",
        "0310be0872eec1a03d7d96f571958490aa7372f42ad1e48ce30864694f5c0f6d",
        "6c1a2c4d71dea71e7be8f44cc08f99de6547aa6960c098109ba4bc04b9f8a861",
        "abd0e453e2a1636de71b7f7d482aa56d840e63c703c97475e1337198c11f5d94",
        "b1aaccb4b2421d9a06e15a6a4628342a146b5c4612454e0be912a2687d138fbb",
        "69cbb4795a53047e722fb166ead9ffe1615fec32182838cb4cfb13a66afb56c8",
        "42f812c04b984bfe3913de20be7ffe2714d6ae180cf5cc1c81f5e96dd3cc5c88",
        "d0a580f253c929226ccd5cd94b3ff2c636d93d0d302dbe5e802f7f0071eb542c",
        "5e48d64839a8bff5e2471507af6a49f9990817df437857f4a2007df41266e1b5",
    ]

    static let sha512Slash256EdgeVectors: [String] = [
        "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a",
        "6238c7caa345ada50b3aa6c344568f9a50b9af1b6ec9c865b1c1020c0d4aa0cb",
        "beffd9e7a3f24a7c527158ac197c4b6259ceb6ae7f86f8f4fb303309c4d6e352",
        "1d5ea9617d509781d017e8b9439d987365c303443e8ada8284972bacc12b129a",
        "564d37e2177767e55fd139d91ab60be7289eac3ca289c66055a70cb9270815c4",
        "d740acb58830beaa405e892b1003db515307f87d73f4e19cb2139b73bc4eb624",
        "c0917096aa73f2a5262600be2df4a882b5799dd46e5e352b21dc1460b06eeb1c",
        "d3b10534210251cd4081f42d8218aa065d7b4b8cf003fbe3164df2a0a6c46c24",
        "9d53af4802119362319d9596da1d1d1c3f54b110724d801a19c97c9eab01c08f",
        "6907905c61d6a2f02e2a29cc1f6bcd8a1ba9e7ede96753697cd4a9a5c15b2927",
        "4ff3b029540ebcd6b81ffbcb67aa6d6b5df16e093df75e5afbb0656546035564",
        "746db0f3d0d74533ac144a8e82a5fe84b5cae22e40999e08ff43a4b28d846c62",
        "c51df322611aa98b78428ede37b4502da8eba7ac0910ba95e5c5f4dd78e08999",
        "bc2815d0e339630c9b3d62dc1d2febf4b1c3bf1b4c91d0761a34c6ef48dd2fea",
        "bffbbc6de8f087d3739b62d6f9107c584f4287c2b51a74c88f2da3003a7fac90",
        "fed1d8fef60abf13d20cfb2ed9f49ac032a717f5df99ca3c867a8f1fcebb321e",
        "082744bfb15992460abec6d3d1be585d9e2d156aad7c4efd00fc8a3045df415d",
        "3a61817bb28474be4f40fb4f9bc65c7e3045b7ea50b468f32bf4a87d1dac3559",
        "1b5d75166213e1a6ba59034e8584db4b370f8ea98c0b1b040815793724acf42b",
        "0ada3df0943ba3f522aca8f6abb6c916859ce7457108ad6ed82dedb73c5042d6",
        "39cba364b4f35d6689156345488e6c5e6c042ff6b4e1926fc3551cee384b2655",
        "3f7c986b05e46afd43e1b7256e38ad960439b41c526568a4c5a0442a2c6bb26e",
        "5dd976cf67e5207272064c35541fa8b56cfb4f1293ab5bf176d75115e2efd884",
        "b452f663ed9b53f1d45856fe8a7252f60427b4a38a5410e6ba3dfc8e1db0751f",
        "ee9350bbf9ed22ef020b7fcca560c0d3002db80356730bdb4297c9fd9fb4ba2c",
        "06326ca44cc5f3cef08f901efe9c6df21daa7a2252c39810ccf44317917d752a",
        "873a82efa5b867dd5f6468e15295195a344c5639c2ea08b6983f538b5dadf8aa",
        "6a900bcf5dbda2eff35508e1d357aacbb036d514f37fb4279db84acd9ff627ff",
        "e22e88a4c11c83354e457b2925f505e069cb1b38df017355a0696ddf24f37491",
        "fb4a3172c5956069c27c9c212fe119e4e0b311e389819f7784144490b08f9dcf",
        "f41afdb7cb6613a5bcc44a9066af974d67a19b2c9f01ad8297ccd1b3ea31f58f",
        "f21b2bc926534134776b1b3d5ac9844dd90ef9bc7ef214bcad7cfa048da27430",
        "f83fdb295b81369557e6671fd63ff051659107a931a80da516cc85c6e74d595b",
        "e1819da01e3f6cc0dda8ee9e749b209b4f0dffa126c79342cfbbd13f7c3bc468",
        "52251b5eb43e30e4f23ff066a2ca4ac6404a244025d503e0ae3ce56e922e4286",
        "05631a4958d4bc4b44abc6acc239b3eaad16431aab92f4502495603ab0580c4e",
        "2bc75d1f4e7f330d146f5ecf66519d7ed1bd8fec5cb69af0d1b6fd714e8198e5",
        "1cbe107b6a1704a6fdaeadeda972c96b64aa6987cb7c574f6d18f41fc5148ef6",
        "c602ffb78acbe514b8062ae58d2495937e85a38e1042ec92f92b2f1ee8f854a2",
        "27883ea50511f2aaa7792b1e1288cbac089e224609d0988b298c5976170b9350",
        "5fd8afd1d40982281e1b684da9ed0f60debbce8402102fcc378bc20559714bc3",
        "ceefd822c39454cc9604146d2ced673a244cf8f9fe74b43ebfa71069b3320546",
        "d5b4e49f43a6b85748affaff08f042f87a3dd1dc83719c73f4a83b5aa7c3bd51",
        "ca3980b181fe8bb81463441514d20a50985f4a19dd2b784bbe3fe373e728e7ea",
        "34149cd2974bebd7ab0c327ff02d57a38a1a2fa16e1812588d0f6024eda6d6b5",
        "d790ad9f5e4e912f3cf0195fe6e4fd717b97ed09ce951c3cfdf8e015b7d012bf",
        "9cbec5d1bd56c666fb66b156ee3336348a2c2e43eaf7399ded02eaf9ed6c31f8",
        "b21cf9b9edd402694ebb08fc7b01afd531cfc1d8422ae6e46ef0ba41a10d013b",
        "2fc1914c40349baced547a73359e1b0c80b23b38ed31a9a2a6001e9361471bac",
        "b8d797cd594d68fa696610994c7b2a658229d4787653cd9228ee56efc7384ff2",
        "0e76cc86e44a4f3df920be1330512e1812e24ad8f9045d4c20f9d08c1d83468f",
        "0705736ef8b9a7b20d6f37a4cc34415bc4d1039bb1ced34d72c16ae30398c037",
        "406bb9edb241de47b5f722bd87f8fd1de99e9dc4e65352389ad3606a3caba177",
        "d9af8d1e7ca49f549d20b9ba2a8bbf81b9f1c70b879bdc41eed4ad888b806896",
        "361c2e303c1d46dca2cc6f124c2d1a197a18576a2f5bc18cda944de708497201",
        "37e5a79eaed1c7ac106cf3675a201b7fe070d0ce3ff6e57323daad7ebb3bc784",
        "15afb3f08af95216a5babf4c3ee2144c119e2c7284ccbe67c67ebfc45dbce46f",
        "f4df41735ca72ddb4bb2b52ee94125dce4a3302b2f8e8dc8660d0c4b59d244a9",
        "d5606e23f214b79c825ee51e7152c799609dd1875261a7d140aa4c4ac1feb689",
        "d17bda2ce22a13bb5af66a38550f3f74f69dbdfb5dba1235cbcc1129a32707e0",
        "40959442737512af7ad0cd6afe589298a2899a436e7ca17d4b995b4f489a3a32",
        "3457ccf630c7bb1be859d8569964d3916ac416c756194af2bf98c70d84f7fd0c",
        "f972e3a115d74f77e06b97ff7081df1b195058e44f88ba8017774a63746f2577",
        "b6e1ebb0da1dade8ed2920313d3add513cffa2ec6860f1a924176f9eca59b289",
        "94b455d35e641fb88543f7dc795bd580562a9348deec2614c8637d036c772bee",
        "bbfe1d3d695242b8b0d42797abef1097b5b3a59f6153b939913d25fa9f6c532c",
        "a3a39c994aefddd96c6aa673c4f8e101bd1fb75be88a16901a963e9273221780",
        "db7c40a088d0a5add6192108cddcc522e9f729f5cf05630ca4050e0c508d77af",
        "ea94c223e409471c53fc3594c464f8541bf87d7f46f54f17b2f172c43264fd78",
        "113dd6b57e28bcbddd401843ebf046d8515a9d7d3ee498e3532b4b5e53b1f4bc",
        "123831e247709aba9a86d188b1301a5c725f5a32985750b372fd45e21c6a9da1",
        "b9cd73b5a9b463c129ad1e2bac956525a27dd6b98829532920f6882593a16093",
        "ca380659a6e7c9631b3a2055b35a4e8d028b02077150eed44ab4ea104d7c4a98",
        "7e71adf91d5a4cc1e1f1586d7b6ee6fa4ead705fa45fb3635829f649d4af52b5",
        "cb617e19403a3aa59123fe7f115382048deec4292361c5d1c29e65c194203bc2",
        "aa3684309d3618686c4f204f31bc26a0ce88c4c89bb63927c0b7002478ebdd17",
        "3eb929eae84f8713711db010699a501a0544e3547c226ca471e19d34a95889f7",
        "10da94e93198760e2b45aaaad8ffbe18ef1c3cd4aea3b72171bffe02ed55574a",
        "0ad7ed81b599f8a5ca0e77499888a0179b9893269536fb6784047ac04555e6e0",
        "b2e4c0ec0054e829dd629e17929c4a7d8311b0f68fc30ad2c82a3ca2a0f56fca",
        "ddfe7ef32d9dd563e7eded5c92cbcddab715c73873fc8d67ada661d46606ead5",
        "09b7b97d7ba47339911859237604c7786210fed1cee313e88e6ff8632109428f",
        "9763fbbf32da4d9cd9f0be34e399d7493c3d49023d99fe41bb70919c9ecab864",
        "83a5ca7fbb3220c2cc5fcc3c49a18b309991707c6406744c16e36f81e68a01c8",
        "0c5c7920e99ee81de840a837d6f2d16b2c8c8083adbcdac0339aed1cf523ed18",
        "1c33149576786df1ce30cd89d259e6d51b66e296dc95dc90c96f18baf1eaa8f2",
        "6449929f3bbc5a2e424a8cdce2b14b865230e3b8fec81dd4c95d11045c242683",
        "90882ede6845a32f581e0310d1e77cec82fc1ff766f2e01887c5f5775b4c096d",
        "3fd34924bc302a99954195239adf3942b0e583bc7423c54d558c4a87741a1eba",
        "7c6915848801d9a4362e720a640ea2cef256177601e69ab93b3a1ff833d6a995",
        "1bbad4029f50063c9b1cfd66e82dcc81c1de2f9d021fba070826af15752e6604",
        "cc92455503eef690fd97b6d38a36b2e0f02fe5740f5d1190b3306aa6381f8283",
        "e24e335b7af2ae8f3f22ca5593c76d779a3da220ed5fd008d3ee97a6b8d3d64e",
        "91db0f0af48d7fb2a5631da7f21d453b6438dfcb2e32cdf47e53315406e8ddbc",
        "b35fcf3a776a4e8103d5028b3a17828ca5af631a589e9bd8921107fe3a065241",
        "755698474268e88f25ee43a0801fb2b8ec6eb2af78094c0fd696bf2be106a259",
        "cb0539f77a19ff996980bc332c27748312e7d04b1cd9939634143cb15cd54ea9",
        "b43d09ea57a777b6338e0147a9ce2e47c2db536ab0c170f56bfd7ba78ccb20c8",
        "3ae5241e1f471e9e49a1277e74432652c87201ce9f1f4c4195542080c4f1c732",
        "bd86ea4db2a1cf55d620261857f651f8332478807c797fb8562d8878f98de8b5",
        "de27be4aa383b800d60b97c27de37d5ec674069ddd4169c85588e53d17a38597",
        "b5d6d0fb7158779d71f9996b70d4c92cebd84da654f47340d82803c0b063ec48",
        "7b75d4212600bc8b7c41e636cbafb971ae32e80f3849057fafb7fcf58d86e14e",
        "765f5eb4979451be2c5f518f451d1dcfd721b94a352f712485d9c69c6124873f",
        "716a137e6c877e714bf997533a29eddf4c3d98aae97e928ce3c205e1a32d6e0e",
        "51538b0ec01e263da4d190e4f499344c9ccf331547898cb2ebebd9366aa75466",
        "f92cb0081a89e6de0ad547be5177382eff61ec154d099a767326a7cb22447c54",
        "fae2fc65fe669072f1494520c5288d161c876254910e2010d913648bc17c62c9",
        "1b33db1f6faf20f61ab560faf9bd4e0ba40136d802842353d7a155867d58cc12",
        "d142c718dc8c8c7f9d20fdfa5dd3f0e9c862b581aa898113b8cf57d7847df215",
        "1ad3936d69f44724ae318a876c75e5cfc7d3fca56629ef91cd21315650716b2d",
        "84d71ab5b507d9440277cc05cdde25e57e396e3a880ee24b0009fade06bc4cd7",
        "ff0114959575adb2a8a59ddecba0e51855b385eb4a24017c923a0998062698f2",
        "6e09ccd59bbc6db31f3dc167a7d95248a2ddfc20148acea547d90d8fe5116378",
        "642984e384ff6456e09a4237026066a5f1e2d3faf86a4574d60c085588723466",
        "aa8e20247fa2e2584be245d908fb65293cc081f551251f034ccefd5bb02789f3",
        "7bfbf8f6945050e6ef60f13ab6490e9faafd675caf63732c7e2bb34a9143dfc1",
        "aa3891100da8b6f5aa459c4f7850262ce8632948f56ece00a8ff9890c38dadcc",
        "6264a5a513f1a3e0736f1282c0f2101ccf3ecbc2ea7d6b742ac53c3d65fee148",
        "e8c78b7e31bdfc4727c787025af6aec8d6269da3da32d2bc682d6f896a0f5bed",
        "5cc218144edef664b76eee472295df25da4b5b2bd6a4d72943c12d47d6b13b63",
        "931cf3d562ad6af6806f9ff1702610a653bea3c2c57a4a0ecd622d7446037f1c",
        "e7ed8c6f6e3707286ba02db3f04d534ccd4db79e402fe5382e5aad739514b835",
        "2305177fa24c30abdf27058bd8bafbd368e8cf6d61a033cb90410dd85b7d5c28",
        "c7cbe1db63b2aecf9725f4731247e988f92b548a5eb204cb9cd734f23d2719f4",
        "7cee0b7b3073206154c0c7b17fa30e71fac0d0d777fb062247be22c034a3e376",
        "1ccb4f5c833b7c768bb91767c52faad76512922c43acb229d1f5832932e8d24c",
        "fceee8db128448e9d902b746eb7cc3fe08be09d0a08d7b7643d0a478a91a5568",
        "aa399434cc7ac88f2a667659396d5e9659ccbdc53d8f0d0c9ccd78dbfd970921",
        "345de9019055b4b8037c75bc5a9d282bc721f58c26506e28d3b4380cd9cc0ac0",
        "adf5cfe9090392aa136274137063522bfc76e017cd0cc8db7de17cce374d39ac",
        "d190be192dc129770876e799132aa6fff2cdd31f68efa20cec156524353c18fa",
        "76e773fd92de35d8053ed34eb45a375cfc0f6f677df9b276eca4a7f1ad5cbf76",
        "3cce49cf1d414fda7409d29b3641bf0becf390805ecca30991bb86187a31986c",
        "8544eee55ee3e3eb6c8af22d5612f9110c9e35c299c642ed0ff6a8f3ca38fac7",
        "03b291bf4a9539753d688e71083f2fbec14ac698590247213a8f5cbc06e604f0",
        "32e9442809b5cab10a3931a7209e12cedd2fd3adf077d982bf581c7606e57f2c",
        "5f88bf34c074c4811ad032fc1d59b91a2edd835b7aa6233cb18727005bb2dbf6",
        "af7e9efa6a32354c7493051b461583182bbf930df488eb4eebe86b16148a9509",
        "c36f69fe6e2b2246db000ced97257ca3a4a8eafaa97dd770ae953aa6b7452ed5",
        "f54e46a325b5cf9d9d6ad2231dd68beda5ee7643fa2d32836ee9f845b108b34a",
        "94706d7cd816870c3bf096c6fd832583389b27670e985f833028f6d9cabcd6e1",
        "670aacb9588328889dae856190fc91e9eb65c953a9f52a6d7d608031288bc880",
        "1fcc07f0dcfae10293905c0ad04613928fff1ff27020de4da7fa6bb0663ce171",
        "ebd30ed651ba2eedf1e350451832174e1701ebd7f8c2d072568aaaabc712fd0c",
        "4016798d6d5a3ceed72bf3cefaa3d1a44591ab1a0366078e91ee9f1913e734e9",
        "65adc20e82fe659a4e38cef761d7b4f0ec74eb2f69cc12dec9d26db74a12ef8f",
        "1faa3764f05ecae89938d67f9be9363fdcd6bc36a41d4601662d7bfb122c814f",
        "58847210fe6fd6c148986ed6a19818ec717ea2a94b5324338c468397a7460762",
        "a4e549502f87b1f233fd66e872cb43c59f36b27b0b1f27a01c5cc5440bf591f7",
        "1f483b5e5b7aea9087f7af3c2bdfa47428d1114d0653b2010311c146d27f147a",
        "c2c98a5a27e4bde3048f8e480f7a14712f598997bb2b4bf3b75a31bcaa0f4c05",
        "88411fac4a3a04958cc52a520803ac8080c7a1fc06216206a07fc6734c94f67d",
        "58393d75eb07aa778a76d29e1578183d3dfba23749ee7912fa8b7e78f7a1781a",
        "03ba539ab7c437e39158adb83b8545cf473974168bc3df1d849ba348bad3c7cc",
        "443405e8151e54be9ee54f3ec770451b03da74b349cd01e67f63b6fc9903da23",
        "14bfb76a58e221eb498b6320608f26b29347127c32309ff767d88e1ab6abe219",
        "28c34c0e088560cb7a3772a9a3d9d4769950640b4510dea12502d7f2440d04af",
        "ba0b1dc4f31dbcd9aa1f84da44982c6b29ee1b6d0aac3906c5b03170cd2d0c80",
        "fdd4f3d59ae52c5b63d674e813df4069bc1b302504c7e1f92792d359078dbe19",
        "3d8e1241561086fc5c68ddaf38bac11f8c491d9a7912df75aaec97d2379193ff",
        "24a857dc37d3fb36775237456f0c6d5e393b95aca4dd155c7ebcff35f8f36a99",
        "52ec89a6dd8d19d35b2d120b959bca37a9c2e2b0ca847ad15533703413fcb622",
        "5e52eb243861cae0fa35d97317e48fc6c03691c35c15aec5c876ee811b9ce7db",
        "59aa5709be1f7f21ba6afd483642a815941582e4fd970c51de266ee077bbf2ad",
        "7bd9b2fb5b6a00aba9b6c48e116e221bedce232c375c35f88729d8bb02413310",
        "246e9eab6b53d2d59912887dc5f717a132ec4b0961bfa1d91c9864f63b2a2493",
        "ebaacefc76b4933ebf92ddadfc531e6c374ea339735f6fa54b518bb45f2f6724",
        "8ab53e07dc1590819c12d7fa379e2209d773d96ef86af63937d2ac30f13e404f",
        "422842233fdbbc702f043ef478a4106f052fe1db2034edbff5a528b629575fde",
        "c49c2395b7f7327c1591abd79bc2b375479e00d6927a40785cfcbb0e06707166",
        "48d78b7811cb2cd1b2ec40567cfdd92ecd478a502553afa6ed488a8979e598e2",
        "cabe8cad5c59e90e0a4149d77ed1338ecec9e369cfec8ec14fe0032c0cdb180d",
        "0af830b19ee98959c1d94e0d0e043da20b55ecd4788ee37e403d5465d3690d8d",
        "df9c7e7be1de95bcfee1ecbdc25bd4d9de262978f149d5b98dc1ce2003c270d6",
        "e7e281a082061b2a6445e22370acb9a67b491bf5476f6bed25de9befae9819e3",
        "2a2a7006ab9ebbe39924ecd56c631454149cb4775a18a905fadbb7c5e3b22d90",
        "126a0e1ad5a29e77475d5c3e9508e549b5aa733a0c37e1df165af163f2642d0c",
        "d56b841b0f9dc52c0b697a7d4ee7e0dfc20809286c55b361835b74ed226db783",
        "568f04396b3d5a2d43113bafc4e617b7695f68b93fc81e091ad30647e2e5c90b",
        "5bcb5dcef37c2b85512f72c36483f23d2f83e4be6a69d9083262746af44bbf6b",
        "86b608abeb8465ff6a47ba98db3c7faf1282a48361f91b4655c171baec45489c",
        "3cd3f1f9910539cadd537369f309f954b215a319afbd5264fde1d87ebc55d953",
        "bc7eff008ddf7488a8d779e4713d37ef1c1a84ab04798ece35ebc221623c482a",
        "9781fd907299adce7294a5210fee83daa25e1f31b7011033d43e97f61a876c0e",
        "9a1e21e8b8686840336f1822bdb6b107b1ac7dbb18dfaee23dd697e147f53314",
        "356fa46ec101054f6b479a8a76c485c384944be17418892772734679574bf028",
        "438973317741c4baf8e9d4de9f031c364bc4e9c745765bca011ab279fa58ed60",
        "a41c8ecb04aad6e64effabc0ebcef6151cc7f039841b339820ac5fc1ccefa8a9",
        "19f7486d1b2abd49710ce0c9f120104853df5512f5fad45212db0f1396de1fed",
        "39ec3700409775ad804001076b031304c8c07b0b668481ceee1c267e9f3a14f0",
        "ce1ffd4f0fd4565cf4e8ef0f33ac3cce5ca10fef7451eab9163cee6b04e0b372",
        "6fb668e1e3ab528e48003f09eba131b1e793a4720540efee2f028978b2c11796",
        "69c4e1c5543423bf1e982c4b8b64d439a7d117dd4d7cb4c5f9ff97b0523cb5c0",
        "631cd1a09a1a794b89f1b6023498eff3d69896835d281f8cc410822df2d375d5",
        "1e95af8b26c61d2b4c32e489fed2448acbf56ec6007b2d54b48300b8c58ce5a0",
        "9cd78f13015f75b59fc9b0b504d02a5781de7d6475d98c30e03e6df78a67a2ea",
        "5b6186fe2f6910c053fbc58dae2977bd1e008b1e28f86aebd8244ffb83bef316",
        "ebf372ed0d46648464625c8058b5abae256cbe16ccbb21ddf8b6306375775f7a",
        "462c2fb8d12bc6e2fba4a86712bf715b4620aea3d6fb2582f79fb318f8e3d9af",
        "ecc048bdb5643b0d77dd179f8aab6644614855c33ab8ee1ff9fe6d6a7ae4b437",
    ]
}

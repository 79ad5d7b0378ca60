import Foundation
import WebServiceKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Server trust: certificate failures with their own codes, and a pinning policy, which this
/// platform either enforces or refuses outright (never ignores).
func demonstrateTrust(selfSigned: URL?, unknownCA: URL?) async {
    let ok = WebServiceCall<String>(relativePath: "ok")
    for (what, root) in [("a self-signed leaf", selfSigned), ("a leaf of a private CA", unknownCA)] {
        guard let root else { continue }
        do {
            _ = try await WebServiceClient(serviceRoot: root).perform(ok)
            print("\(what): trusted (unexpected)")
        } catch {
            let code = if case .transport(let urlError) = error { "\(urlError.code)" } else { "-" }
            print("\(what): refused, \(code), \"\(error.serverTrustFailureReason ?? "\(error)")\"")
        }
    }
    do {
        let policy = try ServerTrustPolicy.pinning(
            [PublicKeyPin(base64: "3zICqjg+fGHUKUHHBPUt32o7eLWz8rm1JMVqYls+Eck=")],
            backup: [PublicKeyPin(base64: "IRTNwsYNhw4kysGvlMN97nwXGr5h0VSDSTTXzXypWwM=")])
        _ = try WebServiceClient(serviceRoot: URL(string: "https://api.example.com/")!, serverTrust: policy)
        print("a client pinning two keys: made; its calls check the pins")
    } catch {
        print("a client pinning two keys: not made here, \(error)")
    }
    do {
        _ = try ServerTrustPolicy.pinning(
            [PublicKeyPin(base64: "3zICqjg+fGHUKUHHBPUt32o7eLWz8rm1JMVqYls+Eck=")], backup: [])
    } catch {
        print("pinning without a backup pin: \(error)")
    }
}

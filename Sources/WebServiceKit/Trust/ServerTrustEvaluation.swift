#if canImport(Security)
    import Foundation
    import Security

    extension ServerTrustPolicy {
        /// Evaluates the server's `trust` for `host` (Apple platforms: the session's
        /// server-trust challenge): the system's SSL policy for the host name, this policy's
        /// certificate authorities as further anchors, then its pins against the validated chain.
        /// Returns `nil` when the server is trusted, the error to fail the call with otherwise.
        func failure(evaluating trust: SecTrust, host: String) -> URLError? {
            guard let refused = refusal(evaluating: trust, host: host) else { return nil }
            return URLError(refused.code, userInfo: [NSLocalizedDescriptionKey: refused.reason])
        }

        /// Why `trust` is refused for `host`: the code (as URLSession's own for the same failure)
        /// and the reason; `nil` when it is trusted.
        private func refusal(evaluating trust: SecTrust, host: String) -> (code: URLError.Code, reason: String)? {
            let applied = self.policy(forHost: host)
            SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, host as CFString))
            if !applied.additionalCertificateAuthorities.isEmpty || !applied.usesSystemRoots {
                var anchors: [SecCertificate] = []
                for certificate in applied.additionalCertificateAuthorities {
                    guard let anchor = SecCertificateCreateWithData(nil, certificate.der as CFData) else {
                        return (
                            .serverCertificateUntrusted,
                            "a certificate authority of the policy could not be read by Security"
                        )
                    }
                    anchors.append(anchor)
                }
                SecTrustSetAnchorCertificates(trust, anchors as CFArray)
                // The system's roots stay trusted along with the added anchors, unless the policy
                // trusts only its own.
                SecTrustSetAnchorCertificatesOnly(trust, !applied.usesSystemRoots)
            }
            var error: CFError?
            guard SecTrustEvaluateWithError(trust, &error) else {
                guard let error else { return (.serverCertificateUntrusted, "the certificate chain is not trusted") }
                let code: URLError.Code
                switch Int32(truncatingIfNeeded: CFErrorGetCode(error)) {
                case errSecCertificateExpired: code = .serverCertificateHasBadDate
                case errSecCertificateNotValidYet: code = .serverCertificateNotYetValid
                case errSecNotTrusted: code = .serverCertificateHasUnknownRoot
                default: code = .serverCertificateUntrusted
                }
                return (code, (error as any Error).localizedDescription)
            }
            let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
            guard let reason = applied.pinRefusal(validatedChain: chain.map { SecCertificateCopyData($0) as Data })
            else { return nil }
            return (.serverCertificateUntrusted, reason)
        }
    }
#endif

import AFGetSupport
import FoundationEssentials

/// An SSH server's host key judged as OpenSSH judges it: against the user's known_hosts, or
/// against a pinned fingerprint. A key that is unknown, changed or not the pinned one is
/// refused (exit 5) naming the host and the key's SHA-256 fingerprint, so the user can check it
/// against what the server's owner publishes.
public enum SSHHostKey {
    /// What known_hosts says of the server's key (libcurl's `curl_khmatch`).
    enum KnownHostsMatch: Equatable {
        case matches
        case differs
        case absent
    }

    /// `SHA256:` and the unpadded base64 of the key's SHA-256, as `ssh-keygen -l` prints it.
    static func fingerprint(of key: UnsafeRawBufferPointer) -> String {
        let digest = RunningDigest(.sha256)
        if let base = key.baseAddress { digest.update(base, key.count) }
        return "SHA256:" + unpadded(Data(digest.bytes()).base64EncodedString())
    }

    /// `--ssh-host-key-sha256`'s value, read as `ssh-keygen -l` shows it or as curl takes it:
    /// with or without `SHA256:` and `=` padding. Nil when it is not 32 bytes of base64.
    public static func pin(_ argument: String) -> String? {
        var text = Substring(argument)
        if text.hasPrefix("SHA256:") { text = text.dropFirst("SHA256:".count) }
        let bare = unpadded(String(text))
        let padding = String(repeating: "=", count: (4 - bare.count % 4) % 4)
        guard let hash = Data(base64Encoded: bare + padding), hash.count == 32 else { return nil }
        return "SHA256:" + bare
    }

    /// Why the key with `fingerprint` is refused for `host` (`[host]:port` off port 22), or nil
    /// when it is trusted: it is the pinned one, or known_hosts has it.
    static func refusal(
        fingerprint: String, host: String, pinned: String?, match: KnownHostsMatch, knownHosts: String?
    ) -> TransferFailure? {
        if let pinned {
            guard fingerprint != pinned else { return nil }
            return TransferFailure(.connection(.sshHostKeyNotPinned(host: host, fingerprint: fingerprint, pinned: pinned)))
        }
        let file = knownHosts ?? "known_hosts"
        switch match {
        case .matches:
            return nil
        case .differs:
            return TransferFailure(.connection(.sshHostKeyChanged(host: host, fingerprint: fingerprint, knownHosts: file)))
        case .absent:
            return TransferFailure(.connection(.sshHostKeyUnknown(host: host, fingerprint: fingerprint, knownHosts: file)))
        }
    }

    /// How known_hosts names a host: `[host]:port` off the standard port.
    static func knownHostsName(host: String, port: Int) -> String {
        port == 22 ? host : "[\(host)]:\(port)"
    }

    private static func unpadded(_ base64: String) -> String {
        String(base64.reversed().drop(while: { $0 == "=" }).reversed())
    }
}

import AFGetSession
import AFGetSupport
import ArgumentParser
import FoundationEssentials
import Glibc

/// How FTP and SSH servers are reached (downloads and uploads): FTP's TLS and data
/// connection, the SSH key offered and how the server's host key is trusted.
struct RemoteFileOptions: ParsableArguments {
    @Flag(name: .customLong("ftp-ssl"), help: "ftp:// URLs must switch to TLS (AUTH TLS) for login and data, or fail.")
    var ftpRequiresTLS = false

    @Flag(name: .customLong("ftp-active"), help: "FTP data connections from the server to afget (PORT) instead of passive mode.")
    var ftpActive = false

    @Option(
        name: .customLong("ssh-key"),
        help: ArgumentHelp(
            "Private key for sftp:// and scp:// (default: the first ~/.ssh/id_*; an ssh-agent is tried too).",
            valueName: "file"), completion: .file())
    var sshKey: String?

    @Option(
        name: .customLong("ssh-host-key-sha256"),
        help: ArgumentHelp(
            "The SSH server's host key must have this SHA-256 fingerprint (as ssh-keygen -l shows it); "
                + "known_hosts is then not read.", valueName: "base64"))
    var pinnedHostKey: String?

    /// The settings, with the key file checked and the usual places looked in; a key that
    /// cannot be read or a malformed fingerprint is a usage error.
    func settings(createsDirectories: Bool = false) throws(TransferFailure) -> RemoteFileSettings {
        var pin: String?
        if let pinnedHostKey {
            guard let read = SSHHostKey.pin(pinnedHostKey) else {
                throw TransferFailure(.input(.hostKeyPinMalformed(pinnedHostKey)))
            }
            pin = read
        }
        if let sshKey { try FileChecks.readable(sshKey, toDo: .readTheSSHKey) }
        let ssh = Self.home + "/.ssh/"
        let usualKey = ["id_ed25519", "id_ecdsa", "id_rsa", "id_dsa"].map { ssh + $0 }.first { access($0, R_OK) == 0 }
        return RemoteFileSettings(
            ftpRequiresTLS: ftpRequiresTLS, ftpActive: ftpActive, sshKey: sshKey ?? usualKey,
            knownHosts: ssh + "known_hosts", pinnedHostKey: pin, createsDirectories: createsDirectories)
    }

    /// The user's home: HOME, else the password database's.
    private static var home: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return "" }
        return String(cString: directory)
    }
}

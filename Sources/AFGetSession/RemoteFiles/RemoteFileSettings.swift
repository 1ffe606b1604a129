/// How files on FTP and SSH servers are reached (`ftp://`, `ftps://`, `sftp://`, `scp://`):
/// FTP's TLS and data connection, SSH's key and host-key checks, and what an upload may create.
public struct RemoteFileSettings: Sendable, Equatable {
    /// `--ftp-ssl`: an `ftp://` URL must switch to TLS (AUTH TLS) for login and data, or fail;
    /// `ftps://` is TLS from the first byte whatever this says.
    public var ftpRequiresTLS: Bool
    /// `--ftp-active`: the server connects back for data (PORT/EPRT) instead of passive mode.
    public var ftpActive: Bool
    /// The private key offered to SSH servers (`--ssh-key`, else the first `~/.ssh/id_*`);
    /// an ssh-agent and a password are tried as well.
    public var sshKey: String?
    /// The known_hosts file an SSH server's key must be in (`~/.ssh/known_hosts`), unless pinned.
    public var knownHosts: String?
    /// `--ssh-host-key-sha256`: the server's key must have this SHA-256 fingerprint (base64,
    /// as `ssh-keygen -l` shows it after `SHA256:`); known_hosts is then not consulted.
    public var pinnedHostKey: String?
    /// `--create-dirs`: an upload creates the directories its URL names that are missing.
    public var createsDirectories: Bool

    public init(
        ftpRequiresTLS: Bool = false, ftpActive: Bool = false, sshKey: String? = nil, knownHosts: String? = nil,
        pinnedHostKey: String? = nil, createsDirectories: Bool = false
    ) {
        self.ftpRequiresTLS = ftpRequiresTLS
        self.ftpActive = ftpActive
        self.sshKey = sshKey
        self.knownHosts = knownHosts
        self.pinnedHostKey = pinnedHostKey
        self.createsDirectories = createsDirectories
    }
}

import AFGetRequest
import AFGetSupport
import CCurl
import CurlCore
import Glibc

/// A transfer of a file on an FTP or SSH server: libcurl's own protocol instead of HTTP, set up
/// and answered here so that the rest of the engine (body handlers, limits, the rate, stalls)
/// works as for HTTP. Curl thread only, as the rest of `TransferContext`.
extension TransferContext {
    /// Once per handle: the protocol the URL names and nothing else, the file's time asked
    /// for (MDTM, an SFTP stat), FTP's TLS and data connection, SSH's key and host-key check.
    func configureRemoteFile(_ context: UnsafeMutableRawPointer) {
        let url = request.url
        let settings = options.remoteFiles
        easy.set(CURLOPT_FILETIME, true)
        if url.scheme == "ftp" && settings.ftpRequiresTLS {
            easy.set(CURLOPT_USE_SSL, Int(CURLUSESSL_ALL.rawValue))
        }
        if settings.ftpActive { easy.set(CURLOPT_FTPPORT, "-") }
        if settings.createsDirectories {
            easy.set(CURLOPT_FTP_CREATE_MISSING_DIRS, Int(CURLFTP_CREATE_DIR_RETRY.rawValue))
        }
        if url.isSSH {
            if let key = settings.sshKey { easy.set(CURLOPT_SSH_PRIVATE_KEYFILE, key) }
            // libcurl asks the key callback only when a known_hosts file is named; one that does
            // not exist makes every key unknown, which is what it is.
            easy.set(CURLOPT_SSH_KNOWNHOSTS, settings.knownHosts ?? "/nonexistent/known_hosts")
            easy.setSSHKeyCallback(hostKeyCallback)
            easy.set(CURLOPT_SSH_KEYDATA, pointer: context)
        }
    }

    /// Per attempt: where the body starts and, for a split's segment, ends (SCP cannot seek),
    /// and the user an SSH server is logged in as when neither the URL nor `-u` names one: netrc's
    /// login for the host when `--netrc` gives one, else the local user, as ssh(1) does.
    ///
    /// A part is asked for as a continue is (FTP's REST, an SFTP seek), to the file's end:
    /// libcurl then reports the bytes left, which with the offset is the file's size — what a
    /// segment is checked against. libcurl's own bounded range (`CURLOPT_RANGE "a-b"`) reports
    /// only the range's length, so a replaced file of another size would go unseen; instead the
    /// body handler ends the transfer at the segment's end, as it would an HTTP range, and FTP's
    /// data connection (an SFTP handle) is closed there, as libcurl closes it after its own range.
    func prepareRemoteAttempt() {
        let range = request.url.scheme == "scp" ? nil : RemoteFileAnswer.requestedRange(of: request)
        remoteOffset = range?.offset ?? 0
        remoteEnd = range?.end
        easy.set(CURLOPT_RESUME_FROM_LARGE, offset: remoteOffset)
        let since = RemoteFileAnswer.modifiedSince(of: request)
        easy.set(CURLOPT_TIMECONDITION, Int((since == nil ? CURL_TIMECOND_NONE : CURL_TIMECOND_IFMODSINCE).rawValue))
        easy.set(CURLOPT_TIMEVALUE_LARGE, offset: since ?? 0)
        // A user set here makes libcurl skip netrc altogether: with `--netrc` naming a login for
        // the host, setting the local user sent neither that login nor its password, and a
        // password login from netrc always failed. The user is left to libcurl's netrc then.
        if request.url.isSSH, !request.url.hasUser, options.credentials == nil, !netrcNamesUser,
            let user = Self.localUser
        {
            easy.set(CURLOPT_USERNAME, user)
        }
    }

    /// What libcurl learnt of the file so far, as an answer; `remaining` when known otherwise.
    private func remoteAnswer(remaining known: Int64? = nil) -> RemoteFileAnswer {
        let length = easy.info(offset: CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
        let modified = easy.info(offset: CURLINFO_FILETIME_T)
        return RemoteFileAnswer(
            offset: remoteOffset, end: remoteEnd, remaining: known ?? (length >= 0 ? length : nil),
            modified: modified >= 0 ? modified : nil, now: Int64(time(nil)), scheme: request.url.scheme)
    }

    /// The file's first bytes arrived: its head is judged now, before any is written. False
    /// aborts the transfer.
    func startRemoteBody() -> Bool {
        let answer = remoteAnswer()
        if let failure = answer.unverifiablePart {
            abort(because: failure)
            return false
        }
        return completeHeaders(as: answer.head)
    }

    /// libcurl finished without a byte of body: an empty file, a continue with nothing left
    /// (FTP says "already completely downloaded"), a file not newer than a conditional
    /// request's time, or an upload. Its head is put together now.
    func remoteTransferEnded() {
        guard isRemoteFile, !headersComplete else { return }
        // A continue that ended cleanly without a byte had nothing left: libcurl found the file's
        // size equal to the offset (it then reports the whole size as the length, not the 0 left).
        // A new download without a byte is an empty file, or short of its announced length.
        let remaining: Int64? =
            request.body != .none ? nil : remoteOffset > 0 ? 0 : max(0, easy.info(offset: CURLINFO_CONTENT_LENGTH_DOWNLOAD_T))
        var answer = remoteAnswer(remaining: remaining)
        answer.notModified = easy.info(CURLINFO_CONDITION_UNMET) == 1
        _ = completeHeaders(as: answer.head)
    }

    /// libcurl's failure in afget's terms where a remote file makes it mean more: a continue
    /// (or a split's range) from beyond the file's end means the file is now shorter than that;
    /// an FTP server that refuses REST cannot send a part of a file, which, as an HTTP server
    /// ignoring ranges, ends the split (one connection goes on) or starts a continue over.
    func remoteFailure(_ result: CURLcode) -> TransferFailure? {
        guard isRemoteFile, remoteOffset > 0 else { return nil }
        switch result {
        case CURLE_BAD_DOWNLOAD_RESUME:
            return TransferFailure(.resume(.nowShorter(than: remoteOffset, askedPart: remoteEnd != nil)))
        case CURLE_FTP_COULDNT_USE_REST:
            return TransferFailure(.resume(.refusedREST))
        default:
            return nil
        }
    }

    /// libcurl's question about the server's host key: trusted when pinned or in known_hosts,
    /// else the transfer fails naming the host and the key's fingerprint.
    func judgeHostKey(_ found: UnsafePointer<curl_khkey>?, _ match: curl_khmatch) -> Int32 {
        let reject = Int32(CURLKHSTAT_REJECT.rawValue)
        // libcurl hands the server's key as raw bytes with their length.
        guard let found, let key = found.pointee.key, found.pointee.len > 0 else { return reject }
        let fingerprint = SSHHostKey.fingerprint(of: UnsafeRawBufferPointer(start: key, count: found.pointee.len))
        let known: SSHHostKey.KnownHostsMatch =
            match == CURLKHMATCH_OK ? .matches : match == CURLKHMATCH_MISMATCH ? .differs : .absent
        let settings = options.remoteFiles
        guard
            let refusal = SSHHostKey.refusal(
                fingerprint: fingerprint, host: SSHHostKey.knownHostsName(host: request.url.host, port: request.url.port),
                pinned: settings.pinnedHostKey, match: known, knownHosts: settings.knownHosts)
        else { return Int32(CURLKHSTAT_FINE.rawValue) }
        abort(because: refusal)
        return reject
    }

    /// Whether the netrc file this request reads (`--netrc`, `--netrc-file`) has a login for its
    /// host (applyIdentity gives the file to libcurl on the first origin; SSH has no redirects,
    /// so no other).
    private var netrcNamesUser: Bool {
        guard let netrc = options.netrcFile else { return false }
        return NetrcLogin.login(for: request.url.host, inFile: netrc) != nil
    }

    /// The login name of the user running afget.
    private static var localUser: String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}

private let hostKeyCallback: afc_sshkey_callback = { _, _, found, match, user in
    Unmanaged<TransferContext>.fromOpaque(user!).takeUnretainedValue().judgeHostKey(found, match)
}

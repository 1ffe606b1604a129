/// A flag as curl, wget or aria2c use it, found on an afget command line (`PeerHabits`), and
/// the one line that answers it: afget's way to say the same thing. Every such line is worded
/// here.
struct PeerHabit: Equatable {
    /// The commands whose options a command line is read against.
    enum Command: String {
        case download, resume, request, upload
    }

    enum Kind: Equatable {
        /// wget's `-O FILE`, `--output-document FILE`.
        case outputFile
        /// wget's `-O -`, `-qO-`.
        case outputToStandardOutput
        /// wget's `-t N`, `--tries N`: every attempt, the first included.
        case tries(Int?)
        /// wget's `-N`, `--timestamping`.
        case timestamping
        /// wget's `-nc`, `--no-clobber`.
        case noClobber
        /// curl's `-C -`, `--continue-at`.
        case continueAt
        /// curl's `-s`, `--silent` (afget's `-s N` splits a download).
        case silent
        /// curl's `-S` (show errors) or wget's `-S` (server response).
        case showError
        /// curl's `-f`, `--fail`.
        case fail
        /// aria2c's `-x N`, `--max-connection-per-server N` (afget's `-x` is a proxy).
        case connectionsPerServer(String)
        /// aria2c's `-k SIZE` (afget's `-k` is `--insecure`).
        case minSplitSize(String)
        /// curl's `-c FILE` (afget's `-c` is `--continue`).
        case cookieJar
        /// curl's `-b`.
        case cookie
        /// `-k` beside wget's flags: wget's `-k` converts links.
        case insecureIsNotConvertLinks
        /// wget's `--no-check-certificate`.
        case noCertificateCheck
        /// wget's `-r`, `-p`, `-np`, ... outside the download command; `maxTime` for wget's
        /// `-m` (afget's `--max-time`), its `--mirror`.
        case crawl(maxTime: Bool)
        /// wget's `-H` (afget's `-H` is a header).
        case spanHosts
        /// wget's `-A LIST` on a recursive download's line (afget's `-A` is a user agent).
        case acceptList(String)
        /// curl's body options (`--data`, `--json`, `-F`) outside `afget request`: the option.
        case requestBody(String)
        /// curl's `-X METHOD`, `--request METHOD`.
        case method(String?)
        /// curl's `-T FILE`, `--upload-file FILE`.
        case uploadFile
        /// wget's `-T SECONDS`, `--timeout SECONDS`.
        case timeout
        /// curl's `-I`, `--head`.
        case head
        /// wget's `-U AGENT`.
        case userAgent
        /// curl's `-Z`, `--parallel`; aria2c's `--max-concurrent-downloads`.
        case parallel
        /// wget's `--retry-connrefused`.
        case retryRefused
        /// curl's `--parallel-max-host`.
        case maxPerHost
        /// wget's `--directory-prefix`.
        case directoryPrefix
        /// `-j8`: a value written against its option, which afget's parser does not take.
        case attachedValue(letter: Character, value: String)
    }

    /// The flag as typed, with the value that shows what it meant (`-x 4`, `-O page.html`).
    let typed: String
    let kind: Kind

    /// Flags that only wget gives that meaning: beside one, a `-k` is wget's too.
    var isWget: Bool {
        switch kind {
        case .outputFile, .outputToStandardOutput, .tries, .timestamping, .noClobber, .noCertificateCheck, .crawl,
            .timeout, .userAgent, .retryRefused, .directoryPrefix, .spanHosts, .acceptList:
            true
        default:
            false
        }
    }

    /// The line for the usage error, after "afget: ".
    func line(in command: Command) -> String {
        "\(typed): \(advice(in: command))"
    }

    private func advice(in command: Command) -> String {
        switch kind {
        case .outputFile where command == .request:
            "afget request saves the body with -o FILE"
        case .outputFile:
            "wget's -O FILE is -o FILE in afget (afget's -O is curl's: name the file after the URL, as it does anyway)"
        case .outputToStandardOutput:
            "wget's -O - (the body to standard output) is -o - in afget"
        case .tries(let count?) where count >= 1:
            "wget counts every attempt, afget's --retry only those after the first: --retry \(count - 1)"
        case .tries:
            "wget's tries are --retry N in afget: N attempts after the first (default 5)"
        case .timestamping:
            "wget's timestamping is --on-exists update in afget (fetched again only when the server's copy is newer)"
        case .noClobber:
            "afget never replaces a file that exists unless told to: it is skipped (--on-exists skip, the default); leave it out"
        case .continueAt:
            "afget continues its own downloads by itself (the same command, run again, picks up where it stopped); "
                + "-c also continues a file another tool left short, once the server confirms it"
        case .silent where command == .request:
            "afget request prints only the body, failures and retries already; leave it out"
        case .silent where command == .upload:
            "curl's silent mode is -q in afget"
        case .silent:
            "curl's silent mode is -q in afget (afget's -s N splits a download over N connections)"
        case .showError:
            "afget always shows failures, with -q too (curl's -S); -v shows the response headers (wget's -S)"
        case .fail where command == .request:
            "afget request exits 8 on a status outside --accept-status already, after printing the body; leave it out"
        case .fail where command == .upload:
            "afget exits 8 on an HTTP error status already; leave it out"
        case .fail:
            "afget exits 8 on an HTTP error status already, and never saves the error page as the file; leave it out"
        case .connectionsPerServer(let count):
            "aria2c's connections per server are -s \(count) in afget (afget's -x is a proxy URL, as curl's)"
        case .minSplitSize(let size):
            "aria2c's -k SIZE is --min-split-size \(size) in afget (afget's -k is curl's --insecure)"
        case .cookieJar where command == .download:
            "curl's cookie jar is --cookie-jar FILE in afget (afget's -c is wget's --continue)"
        case .cookieJar:
            "curl's cookie jar is --cookie-jar FILE in afget"
        case .cookie:
            "curl's -b is --cookie 'NAME=VALUE' in afget (--cookie-jar FILE reads cookies from a file)"
        case .insecureIsNotConvertLinks:
            "afget's -k is curl's --insecure (certificates are not checked); wget's -k is --convert-links in afget"
        case .noCertificateCheck:
            "wget's --no-check-certificate is -k (--insecure) in afget"
        case .crawl(true):
            "wget's -m is --mirror URL in afget (afget's -m SECONDS is --max-time)"
        case .crawl(false):
            "a recursive download is afget's download command: afget -r URL"
        case .spanHosts:
            "wget's -H is --span-hosts in afget (afget's -H is curl's: a header)"
        case .acceptList(let list):
            "wget's -A is --accept \(list) in afget (afget's -A is curl's: the user agent)"
        case .requestBody(let option) where option == "--json":
            "a JSON body is for afget request: afget request POST URL --json name=value"
        case .requestBody(let option) where option == "-F" || option.hasPrefix("--form"):
            "a form is for afget request: afget request POST URL name=value field@FILE (a file makes it multipart)"
        case .requestBody:
            "a request body is for afget request: afget request POST URL -d DATA"
                + (command == .download ? " (in a download, -d is --dir)" : "")
        case .method(let method):
            "the method comes first in afget request: afget request \(method ?? "METHOD") URL"
        case .uploadFile:
            "an upload is afget upload FILE URL"
        case .timeout:
            "wget's timeout is --connect-timeout SECONDS and --stall-timeout SECONDS in afget"
        case .head:
            "afget request -i HEAD URL prints the status line and headers"
        case .userAgent:
            "wget's -U is -A (--user-agent) in afget"
        case .parallel:
            "transfers at once are -j N in afget (4 by default)"
        case .retryRefused:
            "wget's --retry-connrefused is --retry-refused in afget"
        case .maxPerHost:
            "curl's --parallel-max-host N is --max-per-host N in afget"
        case .directoryPrefix:
            "wget's --directory-prefix is -P DIR (--dir) in afget"
        case .attachedValue(let letter, let value):
            "write -\(letter) \(value): afget takes an option's value as the next word"
        }
    }
}

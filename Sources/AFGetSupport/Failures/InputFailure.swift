/// Something the user gave afget that it cannot use: an option's value, a line of a list, a
/// Metalink document, a checksum file. Each is a usage failure (exit 2).
///
/// Cases carry what the user gave as it is to be shown: a name or URL without its password, a
/// header's first word rather than the whole argument (which may be a secret).
public enum InputFailure: Sendable, Equatable {
    // MARK: A list's lines (`-i`)

    /// A list's line that is not valid UTF-8.
    case notUTF8
    /// An indented option line with no URL line above it.
    case optionWithoutURL
    /// An option line without "=".
    case optionNotKeyValue(String)
    /// `dir=` with nothing after it.
    case directoryEmpty
    /// An option key a URL's line does not take.
    case unknownOption(String, known: [String])
    /// `out=x` (say) written on the URL's line instead of below it.
    case optionBesideURL(String)
    /// `out=` (or a Metalink `<file>`'s name) that is absolute, climbs with `..` or names a directory.
    case notRelative(key: String, path: String)
    /// The list could not be read.
    case listUnreadable(errno: Int32)
    /// The list is larger than afget reads into memory.
    case listTooLarge
    /// A Metalink document named beside other sources on one line.
    case documentNotAlone
    /// `out=` below a Metalink document's line.
    case documentOut
    /// `checksum=` below a Metalink document's line.
    case documentChecksum
    /// `header=` below a Metalink document's line.
    case documentHeader
    /// An option key a Metalink document's line does not take.
    case documentUnknownOption(String)

    // MARK: Destinations a batch's items claim

    /// Two lines ("FILE:LINE" or URLs) of different URLs would write one file.
    case sameDestination(earlier: String, later: String)
    /// Two lines of one URL would write one file with different `checksum=` or `header=` lines.
    case sameDestinationOtherOptions(earlier: String, later: String)
    /// `--report` names the input list.
    case reportIsList(report: String)
    /// `--report` names the file of an item (its "FILE:LINE" or URL).
    case reportIsDownload(report: String, item: String)
    /// `--report` names the file of the item this failure is of.
    case reportIsThisItem(report: String)
    /// A path holding a control character (`byte`), which resume data cannot record.
    case pathHasControlCharacter(path: String, byte: UInt8)
    /// A file name afget's own working files end in (.afpart, .afresume, .aftmp).
    case workingFileName(String)
    /// An argument of `afget continue` that is neither a directory nor a resume file.
    case notResumeData(suffix: String)
    /// `--url` with other than one resume file (how many there were).
    case replacementURLNeedsOneResumeFile(found: Int)

    // MARK: Metalink documents

    /// A document larger than `limit` bytes.
    case documentTooLarge(limit: Int)
    case documentEmpty
    /// libxml2's words for why the document is not XML.
    case notWellFormedXML(String)
    case notMetalink4(namespace: String)
    case describesNoFile
    case fileWithoutName
    /// An element (`size`, `pieces`) given twice in one `<file>`.
    case elementTwice(String)
    /// What should be digits is not (`what`: "<size>", "<pieces> length", "priority").
    case notACount(what: String, text: String)
    /// A `priority` outside 1 to `lowest`.
    case priorityOutOfRange(String, lowest: Int)
    case noURL
    /// Only URLs afget cannot fetch.
    case noFetchableURL([String])
    /// Piece hashes that do not cover `size` bytes in pieces of `length`.
    case piecesDoNotFit(count: Int, size: Int64, length: Int64)
    case piecesOfLengthZero
    /// The document could not be read.
    case documentUnreadable(errno: Int32)

    // MARK: Checksums (`checksum=`, `--checksums` files)

    /// `checksum=` text without "=".
    case checksumNotAlgorithmAndHex(String)
    case checksumAlgorithmUnknown(String)
    /// A checksum of `algorithm` that is not `digits` hex digits.
    case checksumLength(algorithm: String, digits: Int)
    /// A `--checksums` file that could not be read.
    case sumsUnreadable(path: String, errno: Int32)
    /// A `--checksums` file larger than `limit` bytes.
    case sumsTooLarge(path: String, limit: Int)
    /// A sums file's line in neither format.
    case notSumsLine
    /// A coreutils line whose hash has a length (in hex digits) no algorithm has.
    case hashLengthUnknown(Int)
    case noSeparatorAfterHash
    case noNameAfterHash
    /// A tagged line whose tag is no algorithm afget checks.
    case tagUnknown(String)
    /// A tagged line (`tag`) without "(NAME) = HASH".
    case taggedLineMalformed(tag: String)
    case noNameInParentheses
    /// A tagged line's hash that is not `digits` hex digits.
    case taggedHashLength(tag: String, digits: Int)
    case loneBackslash
    /// A backslash followed by `byte`, which coreutils does not write.
    case unknownEscape(UInt8)
    /// A name that is only `./` and slashes.
    case nameNamesNoFile
    /// A file named again with another hash of `algorithm` (its first `line`).
    case anotherHash(name: String, algorithm: String, line: Int)

    // MARK: Requests: URLs, items, headers, bodies

    /// A URL without a scheme; `remoteFiles`: FTP and SFTP are accepted as well as HTTP.
    case notAURL(remoteFiles: Bool)
    case unsupportedScheme(String, remoteFiles: Bool)
    case urlTooLong(length: Int, limit: Int)
    /// libcurl's words for why the URL is malformed.
    case malformedURL(String)
    /// An FTP or SFTP URL ending in "/".
    case urlNamesDirectory
    /// An `s3://` URL that names no bucket and key afget can read back (a query, a user, a port).
    case s3URLMalformed
    /// An `s3://` prefix (ending in `/`) in a list: prefixes are listed from the command line.
    case s3PrefixInList
    /// `--s3-endpoint` or `AWS_ENDPOINT_URL` that is not an http(s) URL of a host alone.
    case s3EndpointMalformed(String)
    /// A file larger than S3 takes in one object (10 000 parts of at most 5 GiB).
    case s3ObjectTooLarge(size: Int64, limit: Int64)
    /// A line of `~/.aws/credentials` or `~/.aws/config` that is no section, setting or comment.
    case awsFileLine(path: String, line: Int)
    /// `--profile` or `AWS_PROFILE` names a profile neither file has.
    case awsProfileMissing(String)
    /// An access key without its secret, or a secret without its key (`which` is there).
    case awsKeyHalf(which: String)
    case requestTooLarge(size: Int, limit: Int)
    case itemMalformed(String)
    /// An `name:=JSON` item whose value is not JSON, with the JSON parser's words.
    case itemJSONInvalid(item: String, value: String, said: String)
    case itemNamesNoFile(String)
    /// `name@path` items with another body format (`--json`, say).
    case fileFieldsNeedMultipart(format: String)
    case rawBodyWithItems
    /// `name@path` items with a method whose parameters go in the query.
    case fileFieldsWithoutBody(method: String)
    /// A body that its format cannot hold, in the encoder's words.
    case bodyUnrepresentable(String)
    /// A header argument without a colon, by its first word: the rest may be a secret.
    case headerWithoutColon(firstWord: String)
    case headerNameNotToken(firstWord: String)
    case headerLineBreak(name: String)
    case headerControlCharacter(name: String)
    case acceptStatusMalformed(String)
    case acceptTypeMalformed(String)
    case contentLengthNotCount(String)
    case contentLengthTwice(Int64, Int64)
    case contentLengthWithTransferEncoding
    case contentLengthMismatch(announced: Int64, body: Int)
    /// A `Content-Length` less than the body's bytes other than standard input.
    case contentLengthBelowBody(announced: Int64, body: Int)
    /// Standard input ended after `received` of the `announced` bytes.
    case standardInputShort(received: Int, announced: Int)
    /// A file to upload that is not a regular file (a directory, a device).
    case notRegularFile
    /// A request body's file (`@path`) that is not a regular file.
    case bodyFileNotRegular(path: String)

    // MARK: Options

    case cookieJarNotFile(String)
    case hostKeyPinMalformed(String)
    case publicKeyPinsEmpty
    case publicKeyPinMalformed(String)
    case certificateNotBase64(path: String)
    case notCertificates(path: String)

    // MARK: Recursive downloads

    /// A regular expression (`--accept-regex`, `--reject-regex`) regcomp(3) refused, in its words.
    case patternInvalid(option: String, pattern: String, said: String)

    var code: String {
        switch self {
        case .notUTF8: "line-not-utf8"
        case .optionWithoutURL: "list-option-without-url"
        case .optionNotKeyValue: "list-option-not-key-value"
        case .directoryEmpty: "list-dir-empty"
        case .unknownOption: "list-option-unknown"
        case .optionBesideURL: "list-option-beside-url"
        case .notRelative: "name-not-relative"
        case .listUnreadable: "list-unreadable"
        case .listTooLarge: "list-too-large"
        case .documentNotAlone: "document-not-alone"
        case .documentOut, .documentChecksum, .documentHeader, .documentUnknownOption: "document-option-unknown"
        case .sameDestination: "same-destination"
        case .sameDestinationOtherOptions: "same-destination-other-options"
        case .reportIsList: "report-is-list"
        case .reportIsDownload, .reportIsThisItem: "report-is-download"
        case .pathHasControlCharacter: "path-control-character"
        case .workingFileName: "working-file-name"
        case .notResumeData: "not-resume-data"
        case .replacementURLNeedsOneResumeFile: "url-needs-one-resume-file"
        case .documentTooLarge: "metalink-too-large"
        case .documentEmpty: "metalink-empty"
        case .notWellFormedXML: "metalink-not-xml"
        case .notMetalink4: "not-metalink"
        case .describesNoFile: "metalink-no-file"
        case .fileWithoutName: "metalink-file-without-name"
        case .elementTwice: "metalink-element-twice"
        case .notACount: "metalink-not-a-count"
        case .priorityOutOfRange: "metalink-priority-out-of-range"
        case .noURL: "metalink-no-url"
        case .noFetchableURL: "metalink-no-fetchable-url"
        case .piecesDoNotFit: "metalink-pieces-do-not-fit"
        case .piecesOfLengthZero: "metalink-pieces-length-zero"
        case .documentUnreadable: "metalink-unreadable"
        case .checksumNotAlgorithmAndHex: "checksum-not-algo-hex"
        case .checksumAlgorithmUnknown: "checksum-algorithm-unknown"
        case .checksumLength: "checksum-length"
        case .sumsUnreadable: "sums-unreadable"
        case .sumsTooLarge: "sums-too-large"
        case .notSumsLine: "sums-line-unknown"
        case .hashLengthUnknown: "sums-hash-length-unknown"
        case .noSeparatorAfterHash: "sums-no-separator"
        case .noNameAfterHash, .noNameInParentheses, .nameNamesNoFile: "sums-no-name"
        case .tagUnknown: "sums-tag-unknown"
        case .taggedLineMalformed: "sums-tagged-line-malformed"
        case .taggedHashLength: "sums-hash-length"
        case .loneBackslash, .unknownEscape: "sums-escape-unknown"
        case .anotherHash: "sums-another-hash"
        case .notAURL: "not-a-url"
        case .unsupportedScheme: "scheme-unsupported"
        case .urlTooLong: "url-too-long"
        case .malformedURL: "url-malformed"
        case .urlNamesDirectory: "url-names-directory"
        case .s3URLMalformed: "s3-url-malformed"
        case .s3PrefixInList: "s3-prefix-in-list"
        case .s3EndpointMalformed: "s3-endpoint-malformed"
        case .s3ObjectTooLarge: "s3-object-too-large"
        case .awsFileLine: "aws-file-line"
        case .awsProfileMissing: "aws-profile-missing"
        case .awsKeyHalf: "aws-key-half"
        case .requestTooLarge: "request-too-large"
        case .itemMalformed: "item-malformed"
        case .itemJSONInvalid: "item-json-invalid"
        case .itemNamesNoFile: "item-names-no-file"
        case .fileFieldsNeedMultipart: "file-fields-need-multipart"
        case .rawBodyWithItems: "raw-body-with-items"
        case .fileFieldsWithoutBody: "file-fields-without-body"
        case .bodyUnrepresentable: "body-unrepresentable"
        case .headerWithoutColon: "header-without-colon"
        case .headerNameNotToken: "header-name-not-token"
        case .headerLineBreak: "header-line-break"
        case .headerControlCharacter: "header-control-character"
        case .acceptStatusMalformed: "accept-status-malformed"
        case .acceptTypeMalformed: "accept-type-malformed"
        case .contentLengthNotCount: "content-length-not-count"
        case .contentLengthTwice: "content-length-twice"
        case .contentLengthWithTransferEncoding: "content-length-with-transfer-encoding"
        case .contentLengthMismatch, .contentLengthBelowBody: "content-length-mismatch"
        case .standardInputShort: "standard-input-short"
        case .notRegularFile, .bodyFileNotRegular: "not-regular-file"
        case .cookieJarNotFile: "cookie-jar-not-file"
        case .hostKeyPinMalformed: "host-key-pin-malformed"
        case .publicKeyPinsEmpty: "public-key-pins-empty"
        case .publicKeyPinMalformed: "public-key-pin-malformed"
        case .certificateNotBase64: "certificate-not-base64"
        case .notCertificates: "not-certificates"
        case .patternInvalid: "pattern-invalid"
        }
    }

    var words: String {
        switch self {
        case .notUTF8: "the line is not valid UTF-8"
        case .optionWithoutURL: "option line without a URL before it"
        case .optionNotKeyValue(let option): "option \"\(option)\" is not key=value"
        case .directoryEmpty: "dir= is empty"
        case .unknownOption(let key, let known): "unknown option \"\(key)\" (\(known.joined(separator: ", ")))"
        case .optionBesideURL(let option): "\(option) goes on its own line below the URL, indented"
        case .notRelative(let key, let path):
            "\(key)=\(path) must be a relative file name, without .. and not ending in / or ."
        case .listUnreadable(let code): "cannot read the list: \(describeErrno(code))"
        case .listTooLarge: "cannot read the list: too large"
        case .documentNotAlone: "a Metalink document is named alone on its line (its files' other sources are in it)"
        case .documentOut: "out= names one file; a Metalink document names each of its files (dir= sets where)"
        case .documentChecksum: "checksum= checks one file; a Metalink document gives each of its files' hashes"
        case .documentHeader: "header= is not used on a Metalink document's line; -H sets headers for the run"
        case .documentUnknownOption(let key): "unknown option \"\(key)\" (a Metalink document's line takes dir=)"

        case .sameDestination(let earlier, let later):
            "\(earlier) and \(later) would both write this file; give one of them out= or -o, or add --on-conflict rename to number the later one"
        case .sameDestinationOtherOptions(let earlier, let later):
            "\(earlier) and \(later) fetch the same URL into this file with different checksum= or header= lines; keep one of them"
        case .reportIsList(let report): "--report \(report) is the input list, which the report would replace; name another file"
        case .reportIsDownload(let report, let item): "--report \(report) is where \(item) is downloaded; name another file"
        case .reportIsThisItem(let report): "--report \(report) is where this item would be downloaded; name another file"
        case .pathHasControlCharacter(let path, let byte):
            "\(path): the path contains a control character "
                + "(0x\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16, uppercase: true))), which resume data cannot record; "
                + "choose another name"
        case .workingFileName(let name):
            "\(name): a name ending in .afpart, .afresume or .aftmp would be taken for afget's own files of another "
                + "download; choose another name with -o or out="
        case .notResumeData(let suffix): "not a directory or a \(suffix) file"
        case .replacementURLNeedsOneResumeFile(let found): "applies to exactly one resume file (found \(found))"

        case .documentTooLarge(let limit): "larger than \(limit >> 20) MiB: not a Metalink document"
        case .documentEmpty: "empty: not a Metalink document"
        case .notWellFormedXML(let said): "not well-formed XML: \(said)"
        case .notMetalink4(let namespace): "not a Metalink v4 document (no <metalink> of \(namespace))"
        case .describesNoFile: "describes no file"
        case .fileWithoutName: "a <file> without a name"
        case .elementTwice(let element): "<\(element)> given twice"
        case .notACount(let what, let text): "\(what) \"\(text.prefix(40))\" is not a count"
        case .priorityOutOfRange(let text, let lowest): "priority \(text) is not 1 to \(lowest)"
        case .noURL: "no <url>"
        case .noFetchableURL(let urls): "no URL afget can fetch (\(urls.prefix(3).joined(separator: ", ")))"
        case .piecesDoNotFit(let count, let size, let length):
            "\(count) piece hashes for \(size) bytes in pieces of \(length)"
        case .piecesOfLengthZero: "<pieces> of length 0"
        case .documentUnreadable(let code): "cannot read it: \(describeErrno(code))"

        case .checksumNotAlgorithmAndHex(let text): "checksum \"\(text)\" is not ALGO=HEX (sha-256, sha-512, sha-1 or md5)"
        case .checksumAlgorithmUnknown(let name): "unknown checksum algorithm \"\(name)\" (sha-256, sha-512, sha-1 or md5)"
        case .checksumLength(let algorithm, let digits): "\(algorithm) checksum must be \(digits) hex digits"
        case .sumsUnreadable(let path, let code): "--checksums \(path): \(describeErrno(code))"
        case .sumsTooLarge(let path, let limit): "--checksums \(path): larger than \(limit >> 20) MiB"
        case .notSumsLine: "not a checksum line: expected \"HASH  NAME\" or \"ALGO (NAME) = HASH\""
        case .hashLengthUnknown(let digits):
            "a hash of \(digits) hex digits is none of MD5 (32), SHA-1 (40), SHA-256 (64) or SHA-512 (128)"
        case .noSeparatorAfterHash: "expected two spaces, or a space and *, between the hash and the name"
        case .noNameAfterHash: "no file name after the hash"
        case .tagUnknown(let tag):
            "\"\(tag.prefix(20))\" is not an algorithm afget checks (MD5, SHA1, SHA256, SHA512)"
        case .taggedLineMalformed(let tag): "expected \"\(tag) (NAME) = HASH\""
        case .noNameInParentheses: "no file name between the parentheses"
        case .taggedHashLength(let tag, let digits): "a \(tag) hash must be \(digits) hex digits"
        case .loneBackslash: "the escaped name ends in a lone backslash"
        case .unknownEscape(let byte):
            // A byte that would not show as itself is left out: the backslash alone says where.
            "\(byte < 0x80 && !TerminalText.isASCIIControl(byte) ? "\\\(Character(Unicode.Scalar(byte)))" : "\\")"
                + " in the escaped name is not an escape coreutils writes (\\\\, \\n, \\r)"
        case .nameNamesNoFile: "the name names no file"
        case .anotherHash(let name, let algorithm, let line): "\(name) has another \(algorithm) hash on line \(line)"

        case .notAURL(let remoteFiles): "not a URL: it must start with \(Self.schemes(remoteFiles: remoteFiles))"
        case .unsupportedScheme(let scheme, let remoteFiles):
            "\(scheme): URLs are not supported: \(remoteFiles ? "afget fetches" : "afget request speaks") "
                + "\(Self.schemes(remoteFiles: remoteFiles)) URLs"
        case .urlTooLong(let length, let limit): "URL too long: \(length) bytes, more than a request can carry (\(limit))"
        case .malformedURL(let said): "malformed URL: \(said)"
        case .urlNamesDirectory: "a directory (the URL ends with /): afget downloads files; name one in the directory"
        case .s3URLMalformed:
            "not an S3 object: write s3://BUCKET/KEY, the key as a URL path (? as %3F, # as %23, % as %25)"
        case .s3PrefixInList: "an s3:// prefix (ending in /) is listed from the command line: afget s3://BUCKET/PREFIX/"
        case .s3EndpointMalformed(let given): "S3 endpoint \"\(given)\" is not an http:// or https:// URL of a host alone"
        case .s3ObjectTooLarge(let size, let limit):
            "\(size) bytes is more than an S3 object holds (\(limit) bytes: 10 000 parts of 5 GiB)"
        case .awsFileLine(let path, let line): "\(path):\(line): not a [section], a name = value line or a comment"
        case .awsProfileMissing(let profile):
            "AWS profile \"\(profile)\" is in neither ~/.aws/credentials nor ~/.aws/config"
        case .awsKeyHalf(let which):
            "\(which) is set without the other half of the key (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY)"
        case .requestTooLarge(let size, let limit):
            "the URL and headers come to \(size) bytes, more than a request can carry (\(limit))"
        case .itemMalformed(let item): "item \"\(item)\" is not name=value, name==value, Name:value, name:=JSON or field@path"
        case .itemJSONInvalid(let item, let value, let said): "item \"\(item)\": \(value) is not valid JSON (\(said))"
        case .itemNamesNoFile(let item): "item \"\(item)\" names no file"
        case .fileFieldsNeedMultipart(let format): "file fields (name@path) need a multipart body, not --\(format)"
        case .rawBodyWithItems: "a raw body (-d, --data-binary, --json DATA, ...) cannot be combined with body items"
        case .fileFieldsWithoutBody(let method): "\(method) requests carry no body, so file fields (name@path) cannot be sent"
        case .bodyUnrepresentable(let said): said
        case .headerWithoutColon(let word): "header \"\(word)\" has no colon; use \"Name: value\""
        case .headerNameNotToken(let word): "header name \"\(word)\" is not a valid HTTP token"
        case .headerLineBreak(let name): "header \"\(name)\" contains a line break"
        case .headerControlCharacter(let name): "header \"\(name)\" contains a control character"
        case .acceptStatusMalformed(let text): "--accept-status \"\(text)\": expected codes and ranges such as 200-299,304"
        case .acceptTypeMalformed(let pattern):
            "--accept-type \"\(pattern)\": expected a media type such as application/json or text/*"
        case .contentLengthNotCount(let value): "Content-Length: \(value) is not a byte count"
        case .contentLengthTwice(let first, let second): "Content-Length is given twice, as \(first) and \(second)"
        case .contentLengthWithTransferEncoding: "Content-Length and Transfer-Encoding cannot both be sent"
        case .contentLengthMismatch(let announced, let body):
            "Content-Length: \(announced) does not match the body's \(body) bytes"
        case .contentLengthBelowBody(let announced, let body):
            "Content-Length: \(announced) is less than the body's \(body) bytes besides standard input"
        case .standardInputShort(let received, let announced):
            "standard input ended after \(received) of the \(announced) bytes Content-Length announces"
        case .notRegularFile: "not a regular file"
        case .bodyFileNotRegular(let path): "\(path) is not a regular file"

        case .cookieJarNotFile(let jar): "--cookie-jar \(jar): the jar is read and saved as a file; name a file"
        case .hostKeyPinMalformed(let pin):
            "--ssh-host-key-sha256 \"\(pin)\" is not a SHA-256 fingerprint (43 base64 characters)"
        case .publicKeyPinsEmpty: "--pin-pubkey needs at least one sha256//BASE64 pin"
        case .publicKeyPinMalformed(let pin): "--pin-pubkey \"\(pin)\" is not sha256// followed by a base64 SHA-256 hash"
        case .certificateNotBase64(let path): "\(path): a PEM certificate is not valid base64"
        case .notCertificates(let path): "\(path) does not hold X.509 certificates (PEM or DER)"

        case .patternInvalid(let option, let pattern, let said):
            "\(option) \"\(pattern)\" is not a POSIX extended regular expression: \(said)"
        }
    }

    /// The schemes a URL may have: HTTP's for `afget request`, FTP's and SSH's too for a download
    /// or an upload.
    private static func schemes(remoteFiles: Bool) -> String {
        remoteFiles ? "http://, https://, ftp://, ftps://, sftp:// or scp://" : "http:// or https://"
    }
}

import AFGetRequest
import AFGetSupport
import CurlCore
import FoundationEssentials

/// The contents of `DEST.afresume`: an XML property list with NSURLSession's resume-data keys
/// where one fits and afget's own under `AFGet…` (DESIGN.md §4). Never holds secrets.
public struct ResumeData: Sendable, Equatable {
    public static let currentVersion = 1
    /// More than a pebibyte of progress is not a real download: the file is corrupt.
    static let absurdByteCount: Int64 = 1 << 50

    public var url: String
    public var bytesReceived: Int64
    /// The ETag as the server wrote it, strong or not (`EntityValidators`).
    public var entityTag: String?
    /// The Last-Modified value, as the server wrote it.
    public var lastModified: String?
    /// Whether `lastModified` may go in `If-Range` (else it is only compared).
    public var lastModifiedIsStrong = true
    /// The part file's name (no directory).
    public var tempFileName: String
    public var version = ResumeData.currentVersion
    public var destination: String
    public var expectedLength: Int64?
    /// A segmented download's segments (`-s`); empty for one connection, where `bytesReceived`
    /// says where to continue.
    public var segments: [Segment] = []
    /// The request's own headers ("Name: value"), replayed by `afget resume`; never one that
    /// may hold a secret.
    public var headers: [String] = []
    /// The file takes the name the server gives (`-J`), so `afget resume` names it so too.
    public var takesServerName = false
    /// A file from several sources: their URLs (without passwords), `url`'s first; empty for one.
    public var sources: [String] = []
    /// Which source wrote which bytes of the part file (empty when not recorded: older resume
    /// data, or a file from one source).
    public var sourceRanges = SourceRanges()

    public init(
        url: String, bytesReceived: Int64, validators: EntityValidators, tempFileName: String,
        destination: String, expectedLength: Int64?, segments: [Segment] = [], headers: [HTTPHeader] = [],
        takesServerName: Bool = false, sources: [String] = [], sourceRanges: SourceRanges = SourceRanges()
    ) {
        self.sources = sources
        self.sourceRanges = sourceRanges
        self.segments = segments
        self.takesServerName = takesServerName
        self.headers = headers.filter { !HeaderMasking.mayHoldSecret($0.name) }.map { "\($0.name): \($0.value)" }
        self.url = url
        self.bytesReceived = bytesReceived
        entityTag = validators.entityTag
        lastModified = validators.lastModified
        lastModifiedIsStrong = validators.lastModifiedIsStrong
        self.tempFileName = tempFileName
        self.destination = destination
        self.expectedLength = expectedLength
    }

    /// The bytes the part file holds, as recorded: the segments' written parts, else the first
    /// `bytesReceived`.
    public var heldRanges: [Range<Int64>] {
        guard !segments.isEmpty else { return bytesReceived > 0 ? [0..<bytesReceived] : [] }
        return segments.heldRanges
    }

    public var validators: EntityValidators {
        EntityValidators(entityTag: entityTag, lastModified: lastModified, lastModifiedIsStrong: lastModifiedIsStrong)
    }

    enum Key {
        static let url = "NSURLSessionDownloadURL"
        static let bytesReceived = "NSURLSessionResumeBytesReceived"
        static let entityTag = "NSURLSessionResumeEntityTag"
        /// An ETag that is weak or not plain ASCII, so never sent: percent-escaped, compared.
        static let comparedEntityTag = "AFGetComparedEntityTag"
        /// The Last-Modified is too close to the response's Date to go in If-Range.
        static let lastModifiedIsWeak = "AFGetLastModifiedIsWeak"
        static let serverDate = "NSURLSessionResumeServerDownloadDate"
        static let tempFileName = "NSURLSessionResumeInfoTempFileName"
        static let version = "NSURLSessionResumeInfoVersion"
        static let destination = "AFGetDestination"
        static let expectedLength = "AFGetExpectedLength"
        static let segments = "AFGetSegments"
        static let headers = "AFGetRequestHeaders"
        static let takesServerName = "AFGetTakesServerName"
        static let sources = "AFGetSources"
        static let sourceRanges = "AFGetSourceRanges"
    }

    /// The XML property list, keys in sorted order (as Foundation writes them).
    public func propertyList() -> Data {
        func integer(_ value: some BinaryInteger) -> Parameter { .number(String(value)) }
        var members: [Parameter.Member] = [
            .init(Key.url, .string(url)),
            .init(Key.bytesReceived, integer(bytesReceived)),
            .init(Key.tempFileName, .string(tempFileName)),
            .init(Key.version, integer(version)),
            .init(Key.destination, .string(destination)),
        ]
        if let entityTag, EntityValidators.isStrongEntityTag(entityTag) {
            members.append(.init(Key.entityTag, .string(entityTag)))
        } else if let entityTag {
            members.append(.init(Key.comparedEntityTag, .string(Self.escaped(entityTag))))
        }
        if let lastModified { members.append(.init(Key.serverDate, .string(lastModified))) }
        if lastModified != nil && !lastModifiedIsStrong { members.append(.init(Key.lastModifiedIsWeak, .bool(true))) }
        if let expectedLength { members.append(.init(Key.expectedLength, integer(expectedLength))) }
        if !segments.isEmpty {
            members.append(
                .init(
                    Key.segments,
                    .array(
                        segments.map { segment in
                            .dictionary([
                                .init("done", integer(segment.done)), .init("end", integer(segment.end)),
                                .init("start", integer(segment.start)),
                            ])
                        })))
        }
        if !headers.isEmpty { members.append(.init(Key.headers, .array(headers.map { .string($0) }))) }
        if takesServerName { members.append(.init(Key.takesServerName, .bool(true))) }
        if !sources.isEmpty { members.append(.init(Key.sources, .array(sources.map { .string($0) }))) }
        if !sourceRanges.runs.isEmpty {
            members.append(
                .init(
                    Key.sourceRanges,
                    .array(
                        sourceRanges.runs.map { run in
                            .dictionary([
                                .init("end", integer(run.end)), .init("source", .string(run.source)),
                                .init("start", integer(run.start)),
                            ])
                        })))
        }
        return PropertyListValue.xmlData(members)
    }

    /// Reads and checks resume data; the error says what is wrong with it.
    public init(propertyList data: Data) throws(ResumeDataError) {
        let dictionary = try PropertyListValue.dictionary(in: data)

        func string(_ key: String, required: Bool = true) throws(ResumeDataError) -> String? {
            guard let value = dictionary[key] else {
                if required { throw ResumeDataError("\(key) is missing") }
                return nil
            }
            guard case .string(let text) = value else { throw ResumeDataError("\(key) is not a string") }
            return text
        }
        func integer(_ key: String, required: Bool = true) throws(ResumeDataError) -> Int64? {
            guard let value = dictionary[key] else {
                if required { throw ResumeDataError("\(key) is missing") }
                return nil
            }
            guard case .integer(let number) = value else { throw ResumeDataError("\(key) is not an integer") }
            guard number >= 0, number < Self.absurdByteCount else {
                throw ResumeDataError("\(key) has an impossible value \(number)")
            }
            return number
        }

        let version = Int(try integer(Key.version)!)
        guard version <= Self.currentVersion else {
            throw ResumeDataError("written by a newer afget (format \(version), this one reads \(Self.currentVersion))")
        }
        guard version >= 1 else { throw ResumeDataError("unknown format \(version)") }
        self.version = version

        url = try string(Key.url)!
        guard Self.isDownloadURL(url) else {
            throw ResumeDataError("\(Key.url) is not a URL afget downloads (http, https, ftp, ftps, sftp, scp or s3)")
        }
        bytesReceived = try integer(Key.bytesReceived)!
        tempFileName = try string(Key.tempFileName)!
        guard !tempFileName.isEmpty, !tempFileName.contains("/"), tempFileName != ".", tempFileName != ".." else {
            throw ResumeDataError("\(Key.tempFileName) is not a plain file name")
        }
        destination = try string(Key.destination)!
        entityTag = try string(Key.entityTag, required: false)
        if entityTag == nil, let escaped = try string(Key.comparedEntityTag, required: false) {
            guard let bytes = percentDecodedBytes(escaped.utf8), let tag = String(validating: bytes, as: UTF8.self) else {
                throw ResumeDataError("\(Key.comparedEntityTag) is not a percent-escaped ETag")
            }
            entityTag = tag
        }
        lastModified = try string(Key.serverDate, required: false)
        switch dictionary[Key.lastModifiedIsWeak] {
        case nil: lastModifiedIsStrong = true
        case .bool(let weak): lastModifiedIsStrong = !weak
        default: throw ResumeDataError("\(Key.lastModifiedIsWeak) is not a boolean")
        }
        expectedLength = try integer(Key.expectedLength, required: false)
        if let expectedLength, bytesReceived > expectedLength {
            throw ResumeDataError("claims \(bytesReceived) bytes of a \(expectedLength)-byte file")
        }
        segments = try Self.segments(dictionary[Key.segments], length: expectedLength)
        headers = try Self.headers(dictionary[Key.headers])
        switch dictionary[Key.takesServerName] {
        case nil: takesServerName = false
        case .bool(let flag): takesServerName = flag
        default: throw ResumeDataError("\(Key.takesServerName) is not a boolean")
        }
        sources = try Self.sources(dictionary[Key.sources])
        sourceRanges = try Self.sourceRanges(dictionary[Key.sourceRanges], length: expectedLength)
    }

    /// `tag`'s bytes, those outside visible ASCII and `%` escaped: a property list cannot hold
    /// every control character, and the tag must come back byte for byte.
    private static func escaped(_ tag: String) -> String {
        var text = ""
        for byte in tag.utf8 {
            if (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "%") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                text += (byte < 0x10 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
            }
        }
        return text
    }

    /// Whether afget downloads from `url`: http, https, or a remote file's scheme.
    private static func isDownloadURL(_ url: String) -> Bool {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        return url.dropFirst(scheme.count).hasPrefix("://")
            && (["http", "https", "s3"].contains(scheme) || CurlURL.remoteFileSchemes.contains(scheme))
    }

    /// The file's sources: URLs afget downloads from.
    private static func sources(_ value: PropertyListValue?) throws(ResumeDataError) -> [String] {
        guard let value else { return [] }
        let notSources = ResumeDataError("\(Key.sources) is not a list of URLs afget downloads")
        guard case .array(let list) = value else { throw notSources }
        var urls: [String] = []
        for element in list {
            guard case .string(let url) = element, isDownloadURL(url) else { throw notSources }
            urls.append(url)
        }
        return urls
    }

    /// Runs of bytes, each with its source, in the file, in order, without overlapping.
    private static func sourceRanges(_ value: PropertyListValue?, length: Int64?) throws(ResumeDataError) -> SourceRanges {
        guard let value else { return SourceRanges() }
        let notRanges = ResumeDataError("\(Key.sourceRanges) is not a list of ranges of a file of known length")
        guard case .array(let list) = value, let length else { throw notRanges }
        var runs: [SourceRanges.Run] = []
        for element in list {
            guard case .dictionary(let entry) = element, case .string(let source)? = entry["source"], !source.isEmpty
            else { throw notRanges }
            func number(_ key: String) throws(ResumeDataError) -> Int64 {
                guard case .integer(let number) = entry[key], number >= 0, number <= length else {
                    throw ResumeDataError("\(Key.sourceRanges) has an impossible \(key)")
                }
                return number
            }
            let run = SourceRanges.Run(source: source, start: try number("start"), end: try number("end"))
            guard run.start < run.end, run.start >= (runs.last?.end ?? 0) else {
                throw ResumeDataError("\(Key.sourceRanges) overlap or are out of order")
            }
            runs.append(run)
        }
        return SourceRanges(runs)
    }

    /// Header lines to replay; one that may hold a secret is dropped, not sent.
    private static func headers(_ value: PropertyListValue?) throws(ResumeDataError) -> [String] {
        guard let value else { return [] }
        let notHeaders = ResumeDataError("\(Key.headers) is not a list of header lines")
        guard case .array(let list) = value else { throw notHeaders }
        var lines: [String] = []
        for element in list {
            guard case .string(let line) = element, let header = try? HTTPHeader.parse(line) else { throw notHeaders }
            if !HeaderMasking.mayHoldSecret(header.name) { lines.append(line) }
        }
        return lines
    }

    /// Segments must lie in the file, in order, without overlapping, each no fuller than itself.
    private static func segments(_ value: PropertyListValue?, length: Int64?) throws(ResumeDataError) -> [Segment] {
        guard let value else { return [] }
        let notSegments = ResumeDataError("\(Key.segments) is not a list of segments of a file of known length")
        guard case .array(let list) = value, let length else { throw notSegments }
        var segments: [Segment] = []
        for element in list {
            guard case .dictionary(let entry) = element else { throw notSegments }
            func number(_ key: String) throws(ResumeDataError) -> Int64 {
                guard case .integer(let number) = entry[key], number >= 0, number <= length else {
                    throw ResumeDataError("\(Key.segments) has an impossible \(key)")
                }
                return number
            }
            let segment = Segment(start: try number("start"), end: try number("end"), done: try number("done"))
            guard segment.start < segment.end, segment.done <= segment.end - segment.start,
                segment.start >= (segments.last?.end ?? 0)
            else { throw ResumeDataError("\(Key.segments) overlap or are out of order") }
            segments.append(segment)
        }
        return segments
    }
}

/// Why resume data cannot be used.
public struct ResumeDataError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

import AFGetRequest
import AFGetSupport
import FoundationEssentials

/// A multipart upload's resume data: which upload (its id at the store, the object it makes),
/// of which file (path and `SourceFileIdentity`), cut how (the part size), and the parts the
/// store acknowledged, each with its ETag and SHA-256. An XML property list as a download's
/// `.afresume` is (`NSURLSessionResumeInfoVersion` and afget's own `AFGet…` keys); it holds no
/// credential: the store is named by its endpoint URL, and the keys are looked up again.
public struct S3UploadRecord: Sendable, Equatable {
    public static let currentVersion = 1

    /// The object, as an `s3://` URL.
    public var url: String
    /// The store's endpoint URL (another store has no such upload).
    public var endpoint: String
    public var uploadID: String
    /// The file's absolute path.
    public var source: String
    public var identity: SourceFileIdentity
    public var partSize: Int64
    /// Parts the store acknowledged, by number.
    public private(set) var parts: [Int: SentPart] = [:]

    /// A part the store took: its ETag as the store wrote it, and its SHA-256 (base64), sent
    /// again in CompleteMultipartUpload.
    public struct SentPart: Sendable, Equatable {
        public let entityTag: String
        public let sha256: String

        public init(entityTag: String, sha256: String) {
            self.entityTag = entityTag
            self.sha256 = sha256
        }
    }

    public init(
        url: String, endpoint: String, uploadID: String, source: String, identity: SourceFileIdentity, partSize: Int64
    ) {
        self.url = url
        self.endpoint = endpoint
        self.uploadID = uploadID
        self.source = source
        self.identity = identity
        self.partSize = partSize
    }

    /// The store acknowledged part `number`.
    public mutating func partSent(_ number: Int, _ part: SentPart) {
        parts[number] = part
    }

    /// Keeps only the recorded parts the store lists with the same ETag and the length `plan`
    /// gives them: a part the store lost, or holds with other bytes, is sent again. Returns the
    /// numbers dropped.
    @discardableResult
    public mutating func trust(listed: [ListedPart], plan: S3PartPlan) -> [Int] {
        let byNumber = Dictionary(listed.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        var dropped: [Int] = []
        for (number, part) in parts {
            guard let listed = byNumber[number], number <= plan.count,
                Self.sameTag(listed.entityTag, part.entityTag), listed.size == plan.part(number).length
            else {
                dropped.append(number)
                continue
            }
        }
        for number in dropped { parts[number] = nil }
        return dropped.sorted()
    }

    /// The numbers of `plan`'s parts not yet acknowledged, in order.
    public func remaining(of plan: S3PartPlan) -> [Int] {
        (1...plan.count).filter { parts[$0] == nil }
    }

    /// Whether this record is of the file as it is now, cut as `plan` cuts it.
    public func fits(_ identity: SourceFileIdentity, _ plan: S3PartPlan) -> Bool {
        self.identity == identity && plan.isMultipart && partSize == plan.partSize
    }

    /// ETags compared without their quotes (a listing may write them otherwise than a PUT's
    /// header did).
    static func sameTag(_ one: String, _ other: String) -> Bool {
        one.filter { $0 != "\"" } == other.filter { $0 != "\"" }
    }

    enum Key {
        static let version = "NSURLSessionResumeInfoVersion"
        static let url = "AFGetUploadURL"
        static let endpoint = "AFGetUploadEndpoint"
        static let uploadID = "AFGetUploadID"
        static let source = "AFGetSourcePath"
        static let size = "AFGetSourceSize"
        static let modified = "AFGetSourceModified"
        static let inode = "AFGetSourceInode"
        static let partSize = "AFGetPartSize"
        static let parts = "AFGetParts"
    }

    /// The XML property list, keys in sorted order.
    public func propertyList() -> Data {
        func integer(_ value: some BinaryInteger) -> Parameter { .number(String(value)) }
        let members: [Parameter.Member] = [
            .init(Key.version, integer(Self.currentVersion)),
            .init(Key.url, .string(url)),
            .init(Key.endpoint, .string(endpoint)),
            .init(Key.uploadID, .string(uploadID)),
            .init(Key.source, .string(source)),
            .init(Key.size, integer(identity.size)),
            .init(Key.modified, integer(identity.modified)),
            // An inode can pass Int64's range; the property list's integer is signed.
            .init(Key.inode, integer(Int64(bitPattern: identity.inode))),
            .init(Key.partSize, integer(partSize)),
            .init(
                Key.parts,
                .array(
                    parts.keys.sorted().map { number in
                        .dictionary([
                            .init("etag", .string(parts[number]!.entityTag)), .init("number", integer(number)),
                            .init("sha256", .string(parts[number]!.sha256)),
                        ])
                    })),
        ]
        return PropertyListValue.xmlData(members)
    }

    /// Reads and checks a record; the error says what is wrong with it.
    public init(propertyList data: Data) throws(ResumeDataError) {
        let dictionary = try PropertyListValue.dictionary(in: data)
        func string(_ key: String) throws(ResumeDataError) -> String {
            guard case .string(let text)? = dictionary[key], !text.isEmpty else {
                throw ResumeDataError("\(key) is missing or not a string")
            }
            return text
        }
        func integer(_ key: String, in range: ClosedRange<Int64>) throws(ResumeDataError) -> Int64 {
            guard case .integer(let number)? = dictionary[key] else {
                throw ResumeDataError("\(key) is missing or not an integer")
            }
            guard range.contains(number) else { throw ResumeDataError("\(key) has an impossible value \(number)") }
            return number
        }
        let version = try integer(Key.version, in: 1...Int64.max)
        guard version <= Self.currentVersion else {
            throw ResumeDataError("written by a newer afget (format \(version), this one reads \(Self.currentVersion))")
        }
        url = try string(Key.url)
        guard url.hasPrefix("s3://") else { throw ResumeDataError("\(Key.url) is not an s3:// URL") }
        endpoint = try string(Key.endpoint)
        uploadID = try string(Key.uploadID)
        source = try string(Key.source)
        guard source.hasPrefix("/") else { throw ResumeDataError("\(Key.source) is not an absolute path") }
        let largest = S3PartPlan.mostParts * S3PartPlan.largestPart
        identity = SourceFileIdentity(
            size: try integer(Key.size, in: 0...largest), modified: try integer(Key.modified, in: Int64.min...Int64.max),
            inode: UInt64(bitPattern: try integer(Key.inode, in: Int64.min...Int64.max)))
        partSize = try integer(Key.partSize, in: S3PartPlan.smallestPart...S3PartPlan.largestPart)
        guard case .array(let list)? = dictionary[Key.parts] else { throw ResumeDataError("\(Key.parts) is not a list") }
        let notParts = ResumeDataError("\(Key.parts) is not a list of parts (number, etag, sha256)")
        for element in list {
            guard case .dictionary(let entry) = element, case .integer(let number)? = entry["number"],
                (1...S3PartPlan.mostParts).contains(number), case .string(let tag)? = entry["etag"], !tag.isEmpty,
                case .string(let sha)? = entry["sha256"], !sha.isEmpty
            else { throw notParts }
            guard parts[Int(number)] == nil else { throw ResumeDataError("\(Key.parts) has part \(number) twice") }
            parts[Int(number)] = SentPart(entityTag: tag, sha256: sha)
        }
    }
}

/// A part as ListParts lists it.
public struct ListedPart: Sendable, Equatable {
    public let number: Int
    public let entityTag: String
    public let size: Int64

    public init(number: Int, entityTag: String, size: Int64) {
        self.number = number
        self.entityTag = entityTag
        self.size = size
    }
}

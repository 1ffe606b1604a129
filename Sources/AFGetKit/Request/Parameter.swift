/// A request parameter: the tree `afget request` items build and the serializers encode
/// (as a query or form, JSON, a property list or multipart fields). It is also a JSON value:
/// `name:=JSON` items parse into it, and JSON response bodies are printed from it.
public indirect enum Parameter: Sendable, Equatable {
    case string(String)
    /// A number as written in JSON, so `1.10` or a 20-digit integer goes out as it came in.
    case number(String)
    case bool(Bool)
    case null
    case array([Parameter])
    /// Members in the order given; encoders that need an order of their own sort them.
    case dictionary([Member])

    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: Parameter

        public init(_ key: String, _ value: Parameter) {
            self.key = key
            self.value = value
        }
    }

    /// The members of a dictionary, with a later member replacing an earlier one of the same
    /// key in place (as `a=1 a=2` on the command line means a=2).
    public static func merging(_ members: [Member]) -> Parameter {
        var merged: [Member] = []
        for member in members {
            if let index = merged.firstIndex(where: { $0.key == member.key }) {
                merged[index] = member
            } else {
                merged.append(member)
            }
        }
        return .dictionary(merged)
    }
}

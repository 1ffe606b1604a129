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

    /// The tree the items build: each member's key is a path (`ParameterPath`), so
    /// `user[id]=7` goes into the dictionary `user` and `tags[]=a tags[]=b` make the array
    /// `tags`. A later member at the same place replaces an earlier one there (as `a=1 a=2`
    /// on the command line means a=2), keeping its position.
    public static func merging(_ members: [Member]) -> Parameter {
        var tree = Parameter.dictionary([])
        for member in members {
            tree.place(member.value, at: ParameterPath(member.key).steps[...])
        }
        return tree
    }

    /// Puts `value` at the end of `steps` below this node, which becomes a dictionary or an
    /// array on the way when it is not already the one the step needs.
    private mutating func place(_ value: Parameter, at steps: ArraySlice<ParameterPath.Step>) {
        guard let step = steps.first else {
            self = value
            return
        }
        switch step {
        case .key(let key):
            var members: [Member] = []
            if case .dictionary(let existing) = self { members = existing }
            let index =
                members.firstIndex { $0.key == key }
                ?? {
                    members.append(Member(key, .null))
                    return members.count - 1
                }()
            var child = members[index].value
            child.place(value, at: steps.dropFirst())
            members[index] = Member(key, child)
            self = .dictionary(members)
        case .append:
            var elements: [Parameter] = []
            if case .array(let existing) = self { elements = existing }
            elements.append(value)
            self = .array(elements)
        }
    }
}

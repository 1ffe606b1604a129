/// An item's name read as AFNetworking writes nested parameters (`user[name]`, `tags[]`):
/// the way down the parameter tree to where its value goes. A name not of that form (`a[b`,
/// `[x]`, `a[]x`, `a[][b]`) is a single key, as it was given.
struct ParameterPath: Equatable {
    enum Step: Equatable {
        /// The member of a dictionary with this key.
        case key(String)
        /// One more element at the end of an array (only as the last step).
        case append
    }

    let steps: [Step]

    init(_ name: String) {
        steps = Self.nested(name) ?? [.key(name)]
    }

    private static func nested(_ name: String) -> [Step]? {
        guard let open = name.firstIndex(of: "["), open != name.startIndex else { return nil }
        var steps: [Step] = [.key(String(name[..<open]))]
        var rest = name[open...]
        while !rest.isEmpty {
            guard steps.last != .append, rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
            let key = rest[rest.index(after: rest.startIndex)..<close]
            guard !key.contains("[") else { return nil }
            steps.append(key.isEmpty ? .append : .key(String(key)))
            rest = rest[rest.index(after: close)...]
        }
        return steps
    }
}

/// Every target, in the order Scripts/fuzz.sh runs them.
let allTargets: [RegisteredTarget] = [
    .init(HeaderLinesTarget.self), .init(ContentDispositionTarget.self), .init(ContentRangeTarget.self),
    .init(HTTPDateTarget.self), .init(RedirectTarget.self), .init(ContentDecoderTarget.self), .init(InputListTarget.self),
    .init(ConfigFileTarget.self), .init(ResumeDataTarget.self), .init(RequestItemTarget.self), .init(JSONTarget.self),
    .init(QueryTarget.self), .init(PropertyListTextTarget.self), .init(SumsFileTarget.self),
    .init(MetalinkTarget.self),
]

/// A target as a name and a function (a list of existential metatypes crashed the compiler).
struct RegisteredTarget: Sendable {
    let name: String
    let fuzz: @Sendable ([UInt8]) -> Void

    init<Target: FuzzTarget>(_ target: Target.Type) {
        name = Target.name
        fuzz = { Target.fuzz($0) }
    }
}

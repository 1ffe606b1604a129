import AFGetSupport

/// `--shard K/N`: this run takes the items whose destination hashes to K modulo N, so N runs
/// (on N machines) given the same list cover it exactly once, whatever the lines' order. The
/// destination is taken as the list names it, without `-d`, so each machine may download into a
/// directory of its own.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Parses "K/N" with 0 ≤ K < N.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Whether this shard takes `item`, downloaded beneath `directory` (`-d`): its destination
    /// is hashed without that directory. An item with no file (standard output) goes to shard 0.
    func takes(_ item: DownloadItem, beneath directory: String?) -> Bool {
        guard var path = item.plannedPath.map(BatchPlan.normalized) else { return index == 0 }
        if let directory = directory.map(BatchPlan.normalized), !directory.isEmpty, path.hasPrefix(directory + "/") {
            path.removeFirst(directory.count + 1)
        }
        return StableHash.of(path) % UInt64(count) == UInt64(index)
    }

    public var description: String { "\(index)/\(count)" }
}

extension Shard {
    /// `--shard auto` (`count` nil) or `auto/N`: this task's place in the array of tasks the
    /// engine that started it runs, read from `environment`: a Kubernetes Indexed Job's
    /// `JOB_COMPLETION_INDEX` (which gives no count: `auto/N` with N the Job's completions), or a
    /// Slurm job array's `SLURM_ARRAY_TASK_ID`, counted from `SLURM_ARRAY_TASK_MIN` in steps of
    /// `SLURM_ARRAY_TASK_STEP` (an array may start at 1, or anywhere), of
    /// `SLURM_ARRAY_TASK_COUNT`. Throws the reason, worded for the usage error, when there is
    /// no such task or its place cannot be told.
    public static func fromEngine(count given: Int?, environment: (String) -> String?) throws(EngineShardRefusal) -> Shard {
        func number(_ name: String) throws(EngineShardRefusal) -> Int? {
            guard let text = environment(name), !text.isEmpty else { return nil }
            guard let value = Int(text) else {
                throw EngineShardRefusal("\(name)=\(text) is not a number")
            }
            return value
        }
        let index: Int
        let count: Int
        let source: String
        if let completion = try number("JOB_COMPLETION_INDEX") {
            guard let given else {
                throw EngineShardRefusal(
                    "a Kubernetes Indexed Job gives this task's index (JOB_COMPLETION_INDEX=\(completion)) but not how many "
                        + "there are: give --shard auto/N with N the Job's completions")
            }
            (index, count, source) = (completion, given, "JOB_COMPLETION_INDEX=\(completion)")
        } else if let task = try number("SLURM_ARRAY_TASK_ID") {
            let first = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            let step = max(1, try number("SLURM_ARRAY_TASK_STEP") ?? 1)
            let tasks = try number("SLURM_ARRAY_TASK_COUNT")
            source = "SLURM_ARRAY_TASK_ID=\(task), SLURM_ARRAY_TASK_MIN=\(first)"
            guard (task - first) % step == 0 else {
                throw EngineShardRefusal("\(source) and a step of \(step) do not give this task a place: give --shard K/N")
            }
            if let tasks, let given, tasks != given {
                throw EngineShardRefusal("the array has \(tasks) tasks (SLURM_ARRAY_TASK_COUNT), not \(given)")
            }
            guard let known = given ?? tasks else {
                throw EngineShardRefusal("SLURM_ARRAY_TASK_COUNT is not set: give --shard auto/N with N the array's tasks")
            }
            (index, count) = ((task - first) / step, known)
        } else {
            throw EngineShardRefusal(
                "neither JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (a Slurm job array) "
                    + "is set: give --shard K/N")
        }
        guard let shard = Shard(index: index, count: count) else {
            throw EngineShardRefusal("\(source) is not a place among \(count) shards (0 to \(count - 1)): give --shard K/N")
        }
        return shard
    }
}

/// Why `--shard auto` found no place for this task.
public struct EngineShardRefusal: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}

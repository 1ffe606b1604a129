@testable import AFGetKit
import XCTest

/// `--shard auto`: a task's place among its engine's tasks, one row per way the engines say it.
final class EngineShardTests: XCTestCase {
    private func shard(_ count: Int?, _ environment: [String: String]) -> Result<Shard, EngineShardRefusal> {
        Result { () throws(EngineShardRefusal) in try Shard.fromEngine(count: count) { environment[$0] } }
    }

    func testEachEnginesWayOfNumberingItsTasks() {
        let rows: [(count: Int?, environment: [String: String], expected: String, why: String)] = [
            (4, ["JOB_COMPLETION_INDEX": "3"], "3/4", "Kubernetes: the index, the count given"),
            (
                nil, ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "8"], "3/8",
                "a Slurm array from 0"
            ),
            (
                nil, ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "4"], "0/4",
                "a Slurm array from 1: its first task is shard 0"
            ),
            (
                nil,
                [
                    "SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_STEP": "2",
                    "SLURM_ARRAY_TASK_COUNT": "5",
                ], "2/5", "a Slurm array 10-18:2"
            ),
            (6, ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "0"], "5/6", "a count given where Slurm gives none"),
        ]
        for row in rows {
            XCTAssertEqual((try? shard(row.count, row.environment).get())?.description, row.expected, row.why)
        }
    }

    func testEveryPlaceThatCannotBeToldIsRefusedSayingWhy() {
        let rows: [(count: Int?, environment: [String: String], says: String)] = [
            (nil, [:], "neither JOB_COMPLETION_INDEX"),
            (nil, ["JOB_COMPLETION_INDEX": "", "SLURM_ARRAY_TASK_ID": ""], "neither JOB_COMPLETION_INDEX"),
            (nil, ["JOB_COMPLETION_INDEX": "2"], "give --shard auto/N with N the Job's completions"),
            (2, ["JOB_COMPLETION_INDEX": "2"], "is not a place among 2 shards"),
            (2, ["JOB_COMPLETION_INDEX": "two"], "JOB_COMPLETION_INDEX=two is not a number"),
            (nil, ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0"], "SLURM_ARRAY_TASK_COUNT is not set"),
            (
                5, ["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"],
                "the array has 4 tasks (SLURM_ARRAY_TASK_COUNT), not 5"
            ),
            (
                nil,
                [
                    "SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2",
                    "SLURM_ARRAY_TASK_COUNT": "3",
                ], "is not a place among 3 shards"
            ),
            (
                nil,
                [
                    "SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2",
                    "SLURM_ARRAY_TASK_COUNT": "3",
                ], "do not give this task a place"
            ),
        ]
        for row in rows {
            switch shard(row.count, row.environment) {
            case .success(let shard): XCTFail("\(row.environment): took \(shard)")
            case .failure(let refusal): XCTAssertTrue(refusal.description.contains(row.says), "\(refusal)")
            }
        }
    }
}

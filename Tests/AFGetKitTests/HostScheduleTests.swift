import AFGetProgress
import AFGetSupport
import XCTest

@testable import AFGetKit

/// The host rules as a table: what becomes of each item that arrives, which set-aside item
/// starts when, and when a host is given up. No sockets and no clock: times are given.
final class HostScheduleTests: XCTestCase {
    private typealias Schedule = HostSchedule<String>

    func testTheCapSetsAsideAHostsItemsInListOrderWhileOtherHostsStart() {
        var schedule = Schedule(rules: HostRules(maxPerHost: 2))
        let arrivals: [(item: String, host: String, expected: Schedule.Arrival)] = [
            ("a1", "A", .start), ("a2", "A", .start), ("a3", "A", .setAside), ("b1", "B", .start),
            ("a4", "A", .setAside), ("b2", "B", .start), ("b3", "B", .setAside),
        ]
        for (item, host, expected) in arrivals {
            XCTAssertEqual(schedule.arrive(item, host: host, now: 0), expected, item)
        }
        XCTAssertNil(schedule.nextReady(now: 0)?.item, "both hosts are at their cap")
        XCTAssertNil(schedule.ended(host: "B", .succeeded))
        XCTAssertEqual(schedule.nextReady(now: 0)?.item, "b3", "B has room; A's items wait for A")
        XCTAssertNil(schedule.ended(host: "A", .failed(.serverError)))
        XCTAssertEqual(schedule.nextReady(now: 0)?.item, "a3")
        XCTAssertNil(schedule.nextReady(now: 0)?.item, "a4 waits behind a3's place")
        XCTAssertEqual(schedule.arrive("a5", host: "A", now: 0), .setAside, "not before a4, which arrived first")
        XCTAssertEqual(schedule.setAsideCount, 2)
    }

    /// A host that asks for a pace (Crawl-delay) has its items started that far apart, while
    /// another host's start at once; the waiting items say when to look again.
    func testAPacedHostsItemsStartAsFarApartAsItAsks() {
        var schedule = Schedule(rules: HostRules())
        schedule.pace("A", every: 2)
        XCTAssertEqual(schedule.arrive("a1", host: "A", now: 10), .start)
        XCTAssertEqual(schedule.arrive("a2", host: "A", now: 10), .setAside)
        XCTAssertEqual(schedule.arrive("b1", host: "B", now: 10), .start)
        XCTAssertEqual(schedule.waitingUntil("A", now: 10), 12)
        XCTAssertNil(schedule.nextReady(now: 11.9))
        XCTAssertEqual(schedule.nextReady(now: 12)?.item, "a2")
        XCTAssertEqual(schedule.arrive("a3", host: "A", now: 13), .setAside, "a2 started at 12: a3 at 14")
        XCTAssertEqual(schedule.nextReady(now: 14)?.item, "a3")
    }

    /// Four items of A with requests out at -j 4, and the server turns two away: each refusal
    /// counts the others with requests out, so A takes two. The two wait for places (no other
    /// item of A overtakes them), each getting one as an item ends; the limit is said once. A
    /// refusal just after an item of the host ended lowers no limit and pauses the waiting
    /// items; one with no other item of A connected (-j 1: the others wait at the gate) says
    /// nothing of a limit.
    func testAServerThatTurnsItemsAwayTakesAsManyAsItServes() {
        var schedule = Schedule(rules: HostRules())
        for item in ["a1", "a2", "a3", "a4"] {
            XCTAssertEqual(schedule.arrive(item, host: "A", now: 0), .start, item)
            schedule.transferring("A", true)
        }
        schedule.transferring("A", false)
        XCTAssertTrue(schedule.turnedAway("A", besideAtMost: 3, justFreed: false, now: 0), "a3, beside three")
        schedule.transferring("A", false)
        XCTAssertTrue(schedule.turnedAway("A", besideAtMost: 3, justFreed: false, now: 0), "a4, beside two")
        XCTAssertFalse(schedule.takePlace("A", now: 0), "A's two places are taken")
        XCTAssertEqual(schedule.arrive("a5", host: "A", now: 0), .setAside, "behind the items waiting for a place")
        XCTAssertEqual(schedule.arrive("b1", host: "B", now: 0), .start, "another host is not limited")

        schedule.transferring("A", false)
        XCTAssertNil(schedule.ended(host: "A", .succeeded))
        XCTAssertNil(schedule.nextReady(now: 1), "a5 waits behind the items waiting for a place")
        XCTAssertTrue(schedule.takePlace("A", now: 1), "a3 gets a1's place")
        schedule.transferring("A", true)
        XCTAssertEqual(schedule.limitToSay("A"), 2)
        XCTAssertNil(schedule.limitToSay("A"), "said once")
        XCTAssertFalse(schedule.takePlace("A", now: 1), "a4 waits: A takes two")
        schedule.transferring("A", false)
        XCTAssertTrue(
            schedule.turnedAway("A", besideAtMost: 3, justFreed: true, now: 1), "a3 refused again: the server still counts a1")
        XCTAssertNil(schedule.limitToSay("A"), "no new limit")
        XCTAssertEqual(schedule.waitingUntil("A", now: 1), 1 + Schedule.pause)
        XCTAssertFalse(schedule.takePlace("A", now: 1.1), "a pause first")
        XCTAssertTrue(schedule.takePlace("A", now: 1 + Schedule.pause), "then a3 has the place again")
        XCTAssertNil(schedule.waitingUntil("A", now: 1 + Schedule.pause))

        XCTAssertNil(schedule.ended(host: "A", .succeeded))
        XCTAssertTrue(schedule.takePlace("A", now: 2), "a4 gets a2's place")
        XCTAssertNil(schedule.nextReady(now: 2), "a5 waits: a3 and a4 run")
        XCTAssertNil(schedule.ended(host: "A", .succeeded))
        XCTAssertEqual(schedule.nextReady(now: 2)?.item, "a5")

        var gated = Schedule(rules: HostRules())
        for item in ["c1", "c2"] {
            XCTAssertEqual(gated.arrive(item, host: "C", now: 0), .start)
            gated.transferring("C", true)
        }
        gated.transferring("C", false)
        XCTAssertFalse(gated.turnedAway("C", besideAtMost: 0, justFreed: false, now: 0), "-j 1: c2 waits at the gate")
        XCTAssertNil(gated.limitToSay("C"))
    }

    func testAHoldSetsAsideTheHostsItemsUntilItEndsAndCountsThem() {
        var schedule = Schedule(rules: HostRules())
        XCTAssertEqual(schedule.arrive("a1", host: "A", now: 0), .start)
        XCTAssertTrue(schedule.hold("A", until: 10, now: 1), "a new hold is told")
        XCTAssertFalse(schedule.hold("A", until: 12, now: 2), "a longer wait extends it, untold")
        XCTAssertFalse(schedule.hold("A", until: 5, now: 3), "a shorter one does not shorten it")
        XCTAssertEqual(schedule.heldUntil("A", now: 3), 12)
        XCTAssertEqual(schedule.arrive("a2", host: "A", now: 3), .setAside)
        XCTAssertEqual(schedule.arrive("b1", host: "B", now: 3), .start, "another host is not held")
        XCTAssertTrue(schedule.hasSetAside("A"))
        XCTAssertFalse(schedule.hasSetAside("B"))
        XCTAssertEqual(schedule.nextHoldEnd(after: 3), 12)
        XCTAssertNil(schedule.nextReady(now: 11.9))
        XCTAssertEqual(schedule.nextReady(now: 12)?.item, "a2")
        XCTAssertNil(schedule.heldUntil("A", now: 12))
        XCTAssertTrue(schedule.hold("A", until: 20, now: 13), "a hold after the last one ended is new")
        XCTAssertEqual(
            schedule.notes, [HostNote(host: "A", holds: 2, itemsHeld: 1, givenUp: nil, notTried: 0)])
    }

    /// A hold that came with an item's last answer (`sayNow: false`) is counted at once but told
    /// only when it first keeps an item waiting, with the time left; one that nothing waited for
    /// is never told.
    func testAHoldFromAnItemsLastAnswerIsToldOnceItKeepsAnItemWaiting() {
        var schedule = Schedule(rules: HostRules())
        XCTAssertEqual(schedule.arrive("a1", host: "A", now: 0), .start)
        XCTAssertNil(schedule.ended(host: "A", .failed(.serverError)))
        XCTAssertFalse(schedule.hold("A", until: 10, now: 0, sayNow: false), "not told as its item ends")
        XCTAssertNil(schedule.holdToSay("B", now: 1))
        XCTAssertEqual(schedule.arrive("a2", host: "A", now: 4), .setAside)
        XCTAssertEqual(schedule.holdToSay("A", now: 4)?.seconds, 6, "told as a2 waits for it, with the time left")
        XCTAssertNil(schedule.holdToSay("A", now: 5), "once")
        XCTAssertEqual(schedule.nextReady(now: 10)?.item, "a2")
        XCTAssertTrue(schedule.hold("A", until: 20, now: 12), "a new hold is told at once")
        XCTAssertNil(schedule.holdToSay("A", now: 13))
        XCTAssertFalse(schedule.hold("A", until: 30, now: 25, sayNow: false))
        XCTAssertNil(schedule.holdToSay("A", now: 31), "over before anything waited for it: never told")
        XCTAssertEqual(schedule.notes, [HostNote(host: "A", holds: 3, itemsHeld: 1, givenUp: nil, notTried: 0)])
    }

    func testAHostIsGivenUpAfterItsItemsFailTheSameWayInARow() {
        // Each row: how the host's items ended, in order, and whether the last gives it up.
        let rows: [(endings: [Schedule.Ending], givesUp: Bool)] = [
            (
                [
                    .failed(.unreachable), .failed(.unreachable),
                    .failed(.unreachable),
                ], true
            ),
            (
                [.failed(.unknownHost), .failed(.unknownHost), .failed(.unknownHost)],
                true
            ),
            (
                [
                    .failed(.connectTimedOut), .failed(.connectTimedOut),
                    .failed(.connectTimedOut),
                ], true
            ),
            ([.failed(.unreachable), .failed(.unreachable)], false),
            (
                [
                    .failed(.unreachable), .succeeded, .failed(.unreachable),
                    .failed(.unreachable),
                ], false
            ),
            (
                [
                    .failed(.unreachable), .failed(.serverError),
                    .failed(.unreachable), .failed(.unreachable),
                ], false
            ),
            (
                [
                    .failed(.unreachable), .failed(.unknownHost),
                    .failed(.unreachable),
                ], false
            ),
            (
                [
                    .failed(.unreachable), .other, .failed(.unreachable),
                    .failed(.unreachable),
                ], true
            ),
            (
                [
                    .failed(.serverError), .failed(.serverError),
                    .failed(.serverError),
                ], false
            ),
            // libcurl's words differ from item to item (the address, the time taken); the kind does not.
            (
                [
                    .failed(.connection(.connectFailed(said: "Failed to connect to a port 80 after 1 ms"))),
                    .failed(.connection(.connectFailed(said: "Failed to connect to a port 80 after 3 ms"))),
                    .failed(.unreachable),
                ], true
            ),
        ]
        for (index, row) in rows.enumerated() {
            var schedule = Schedule(rules: HostRules())
            var gaveUp: Schedule.GivingUp?
            for (number, ending) in row.endings.enumerated() {
                XCTAssertEqual(schedule.arrive("a\(number)", host: "A", now: 0), .start, "row \(index)")
                gaveUp = schedule.ended(host: "A", ending)
            }
            XCTAssertEqual(gaveUp != nil, row.givesUp, "row \(index)")
            XCTAssertEqual(schedule.givenUp("A") != nil, row.givesUp, "row \(index)")
        }
    }

    func testAGivenUpHostsItemsFailUntriedAndItsSetAsideItemsAreHandedBack() {
        var schedule = Schedule(rules: HostRules(maxPerHost: 3))
        for item in ["a1", "a2", "a3"] { XCTAssertEqual(schedule.arrive(item, host: "A", now: 0), .start) }
        XCTAssertEqual(schedule.arrive("a4", host: "A", now: 0), .setAside)
        XCTAssertEqual(schedule.arrive("b1", host: "B", now: 0), .start)
        XCTAssertNil(schedule.ended(host: "A", .failed(.unreachable)))
        XCTAssertEqual(schedule.nextReady(now: 0)?.item, "a4")
        XCTAssertEqual(schedule.arrive("a5", host: "A", now: 0), .setAside)
        XCTAssertNil(schedule.ended(host: "A", .failed(.unreachable)))
        let givingUp = schedule.ended(host: "A", .failed(.unreachable))
        XCTAssertEqual(givingUp?.reason, .unreachable)
        XCTAssertEqual(givingUp?.inARow, 3)
        XCTAssertEqual(givingUp?.untried, ["a5"])
        XCTAssertEqual(schedule.arrive("a6", host: "A", now: 0), .notTried(.unreachable))
        XCTAssertNil(schedule.ended(host: "A", .failed(.unreachable)), "a4 ends after: told once")
        XCTAssertEqual(schedule.setAsideCount, 0)
        XCTAssertEqual(
            schedule.notes, [HostNote(host: "A", holds: 0, itemsHeld: 0, givenUp: .unreachable, notTried: 2)])
    }

    /// Items that started before their host was given up and ended untried because of it —
    /// waiting at the `-j` gate, connecting, or waiting to retry — count as not tried, beside
    /// the ones set aside and those arriving later; what ended otherwise does not.
    func testItemsEndedUntriedByTheGivingUpCountAsNotTried() {
        let rows: [(endingsAfter: [Schedule.Ending], notTried: Int)] = [
            ([], 1),
            ([.failed(.notTried)], 2),
            ([.failed(.notTried), .failed(.notTried), .failed(.notTriedAgain)], 4),
            ([.failed(.connectTimedOut), .failed(.notTried)], 2),
            ([.succeeded, .other, .failed(.serverError)], 1),
        ]
        for (index, row) in rows.enumerated() {
            var schedule = Schedule(rules: HostRules())
            for number in 0..<(3 + row.endingsAfter.count) {
                XCTAssertEqual(schedule.arrive("a\(number)", host: "A", now: 0), .start, "row \(index)")
            }
            for _ in 0..<3 { _ = schedule.ended(host: "A", .failed(.connectTimedOut)) }
            XCTAssertNotNil(schedule.givenUp("A"), "row \(index)")
            for ending in row.endingsAfter { XCTAssertNil(schedule.ended(host: "A", ending), "row \(index)") }
            XCTAssertEqual(schedule.arrive("late", host: "A", now: 0), .notTried(.connectTimedOut), "row \(index)")
            XCTAssertEqual(
                schedule.notes,
                [HostNote(host: "A", holds: 0, itemsHeld: 0, givenUp: .connectTimedOut, notTried: row.notTried)],
                "row \(index)")
        }
    }

    func testWithoutGivingUpEveryItemIsTried() {
        var schedule = Schedule(rules: HostRules(giveUpAfter: nil))
        for number in 0..<10 {
            XCTAssertEqual(schedule.arrive("a\(number)", host: "A", now: 0), .start)
            XCTAssertNil(schedule.ended(host: "A", .failed(.unreachable)))
        }
        XCTAssertEqual(schedule.notes, [])
    }

    func testTheStoppedRunTakesBackWhatIsSetAside() {
        var schedule = Schedule(rules: HostRules(maxPerHost: 1))
        XCTAssertEqual(schedule.arrive("a1", host: "A", now: 0), .start)
        XCTAssertEqual(schedule.arrive("a2", host: "A", now: 0), .setAside)
        XCTAssertEqual(schedule.arrive("a3", host: "A", now: 0), .setAside)
        XCTAssertEqual(schedule.takeSetAside(), ["a2", "a3"])
        XCTAssertEqual(schedule.setAsideCount, 0)
    }
}

/// libcurl's failures as a host's items meet them, and a server's own error.
extension FailureReason {
    fileprivate static let unreachable = FailureReason.connection(.connectFailed(said: "Failed to connect to a port 80"))
    fileprivate static let unknownHost = FailureReason.connection(.hostNotFound(said: "Could not resolve host: a"))
    fileprivate static let connectTimedOut = FailureReason.connection(.connectTimeout(said: "Connection timed out"))
    fileprivate static let serverError = FailureReason.response(.httpStatus(500, phrase: "Internal Server Error"))
    /// An item ended untried by its host's giving up, before its first attempt or after one.
    fileprivate static let notTried = FailureReason.connection(.hostGivenUp(host: "A", after: connectTimedOut, again: false))
    fileprivate static let notTriedAgain = FailureReason.connection(.hostGivenUp(host: "A", after: connectTimedOut, again: true))
}

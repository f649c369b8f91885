import Foundation
import ListEngineTesting
import ListPagination

/// A `ManualClock` whose `now` can be held shut for every thread but one: while the
/// gate is closed, a read of `now` waits until it opens, unless it is made inside
/// ``exempt(_:)``. A test closes the gate, makes a call inside `exempt`, and moves the
/// clock before it opens the gate: a task the call started that reads the clock only
/// when it first runs then reads it late, as a task that starts late on a busy executor
/// would.
final class GatedClock: Clock, Sendable {
    typealias Instant = ManualClock.Instant
    typealias Duration = Swift.Duration

    /// The clock behind the gate, which the test moves and inspects.
    let base = ManualClock()
    private let gate = DispatchGroup()
    private static let exemptionKey = "GatedClock.exempt"

    var now: Instant {
        if Thread.current.threadDictionary[Self.exemptionKey] == nil { gate.wait() }
        return base.now
    }

    var minimumResolution: Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
    }

    /// Holds reads of `now` made outside ``exempt(_:)`` until ``open()``.
    func close() { gate.enter() }

    /// Lets the held reads through.
    func open() { gate.leave() }

    /// Runs `body` on this thread with its reads of `now` let through.
    func exempt(_ body: () -> Void) {
        Thread.current.threadDictionary[Self.exemptionKey] = true
        defer { Thread.current.threadDictionary[Self.exemptionKey] = nil }
        body()
    }
}

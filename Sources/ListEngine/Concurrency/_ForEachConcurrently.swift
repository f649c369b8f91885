import Dispatch

/// Runs `body(0)`, …, `body(parts - 1)`, on separate threads when `parts > 1`, and
/// returns when all are done.
@inlinable func _forEachConcurrently(_ parts: Int, _ body: @Sendable (Int) -> Void) {
    if parts == 1 {
        body(0)
    } else {
        DispatchQueue.concurrentPerform(iterations: parts, execute: body)
    }
}

import Testing

/// Polls `condition` every millisecond until it holds, for at most `seconds`; records an
/// issue (and returns) when it never does, so that a regression fails instead of hanging.
public func waitUntil(
    seconds: Int = 30,
    _ what: Comment,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async {
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(seconds)
    while !condition() {
        guard clock.now < deadline else {
            Issue.record("timed out waiting until \(what)", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(1))
    }
}

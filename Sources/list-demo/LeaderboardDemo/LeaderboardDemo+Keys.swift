import TerminalListRenderer

extension LeaderboardDemo {
    /// What a key press asks for.
    enum KeyAction: Equatable {
        case handled
        case ignored
        case quit
    }

    /// Handles one key press.
    func handle(_ key: Key) -> KeyAction {
        switch key {
        case .up, .character("k"): renderer.moveSelection(by: -1)
        case .down, .character("j"): renderer.moveSelection(by: 1)
        case .pageUp, .control("b"): renderer.pageUp()
        case .pageDown, .character(" "), .control("f"): renderer.pageDown()
        case .home, .character("g"): if window != nil { jump(toEnd: false) } else { renderer.selectFirst() }
        case .end, .character("G"): if window != nil { jump(toEnd: true) } else { renderer.selectLast() }
        // A window pages in score order: re-sorting its rows by name would show a
        // name-ordered slice of a score-ordered source.
        case .character("s") where window != nil: return .ignored
        case .character("s"): toggleSort()
        case .character("t"): if !toggleGrouping() { return .ignored }
        case .character("r"): paginator.refresh()
        case .character("f"): failures.arm(paginator.retryPolicy.maxAttempts)
        case .enter: paginator.retry()
        case .control("l"): renderer.redraw()
        case .character("q"), .control("c"): return .quit
        case .character("!") where options.crashKey:
            preconditionFailure("crash requested with ! (--crash-key)")
        default: return .ignored
        }
        return .handled
    }
}

/// When a ``TerminalSession`` holds its terminal, as a value: job control decides.
///
/// A session holds the terminal (raw mode, the alternate screen, drawing, reading keys)
/// only while its process is the terminal's foreground process group. Started or
/// continued in the background, it waits: it draws nothing, reads no keys and leaves
/// the terminal's attributes alone, and takes the terminal once the process is brought
/// to the foreground.
///
/// Each event method updates the state and returns the one ``Action`` the driver
/// (``TerminalSession``) must perform. The machine does no I/O: whether the process is
/// in the foreground is measured by the driver and passed in, so tests drive the
/// machine event by event.
struct _JobControlStateMachine: Hashable, Sendable {
    enum State: Hashable, Sendable {
        /// Not started, or restored.
        case idle
        /// The session holds the terminal. `isReading` is `false` after a read failed
        /// in the foreground, until the next foreground check starts reading again.
        case holding(isReading: Bool)
        /// Started, but another process group has the terminal: nothing is touched
        /// until a foreground check finds the process in the foreground.
        case waiting
        /// Stopped by ``_JobControlStateMachine/suspendRequested()``; the terminal is not
        /// held. Left by ``_JobControlStateMachine/continued(isForeground:)``.
        case stopped
    }

    /// What the driver must do after an event.
    enum Action: Hashable, Sendable {
        /// Nothing.
        case none
        /// Take the terminal: save its attributes unless the ones saved are still to be
        /// restored, switch to raw mode, enter the alternate screen, start reading keys
        /// and let drawing through. With `redraw`, then report the size and ask for a
        /// full redraw: the screen showed something else meanwhile.
        case take(redraw: Bool)
        /// Stop drawing and reading keys, give the terminal back (attributes, screen),
        /// then stop the process; report ``_JobControlStateMachine/continued(isForeground:)``
        /// once it runs again.
        case giveBackAndStop
        /// Stop the process, leaving the terminal alone (the session does not hold it);
        /// report ``_JobControlStateMachine/continued(isForeground:)`` once it runs again.
        case stop
        /// Another process group has the terminal now: stop drawing and reading keys,
        /// and forget the saved attributes without writing anything to the terminal.
        case letGo
        /// Start reading keys again.
        case resumeReading
        /// Stop reading keys until the next foreground check.
        case pauseReading
        /// Stop everything for good and give the terminal back if the session holds it.
        case restore
    }

    private(set) var state = State.idle
    /// Set by ``suspendRequested()``: the SIGCONT that continues the stopped process is
    /// the expected end of the stop, not a sign that someone else stopped it.
    private(set) var isContinueSignalExpected = false

    /// Whether the session holds the terminal: drawing goes through only then.
    var holdsTerminal: Bool {
        if case .holding = state { true } else { false }
    }

    /// Whether the driver should check on a timer whether the process is in the
    /// foreground: while waiting for it, and while reading is paused.
    var needsForegroundChecks: Bool {
        state == .waiting || state == .holding(isReading: false)
    }

    // MARK: Events

    /// The program started the session. Takes the terminal in the foreground; waits
    /// in the background. Ignored unless idle.
    mutating func started(isForeground: Bool) -> Action {
        guard state == .idle else { return .none }
        return isForeground ? _take(redraw: false) : _wait()
    }

    /// Ctrl-Z or SIGTSTP: stop the process, giving the terminal back first if the
    /// session holds it. Ignored when idle or already stopped.
    mutating func suspendRequested() -> Action {
        switch state {
        case .holding:
            state = .stopped
            isContinueSignalExpected = true
            return .giveBackAndStop
        case .waiting:
            state = .stopped
            isContinueSignalExpected = true
            return .stop
        case .idle, .stopped:
            return .none
        }
    }

    /// The stop that ``suspendRequested()`` asked for is over. In the foreground the
    /// terminal is taken again, with a full redraw; in the background the session
    /// waits. In any other state it is a foreground check.
    mutating func continued(isForeground: Bool) -> Action {
        guard state == .stopped else { return foregroundChecked(isForeground: isForeground) }
        return isForeground ? _take(redraw: true) : _wait()
    }

    /// SIGCONT arrived. After ``suspendRequested()`` that is expected, and it is a
    /// foreground check. Otherwise something else stopped the process (SIGSTOP, which
    /// cannot be caught), and a shell may have reset the terminal meanwhile: held in
    /// the foreground, the terminal is taken again with a full redraw.
    mutating func continueSignalReceived(isForeground: Bool) -> Action {
        if isContinueSignalExpected {
            isContinueSignalExpected = false
            return foregroundChecked(isForeground: isForeground)
        }
        if holdsTerminal && isForeground { return _take(redraw: true) }
        return foregroundChecked(isForeground: isForeground)
    }

    /// A timer (or a signal) found the process in the foreground or not. Waiting, in
    /// the foreground: take the terminal with a full redraw. Holding, in the
    /// background: let go. Holding with reading paused, in the foreground: read again.
    mutating func foregroundChecked(isForeground: Bool) -> Action {
        switch (state, isForeground) {
        case (.waiting, true):
            return _take(redraw: true)
        case (.holding(isReading: false), true):
            state = .holding(isReading: true)
            return .resumeReading
        case (.holding, false):
            state = .waiting
            return .letGo
        case (.holding(isReading: true), true), (.waiting, false), (.idle, _), (.stopped, _):
            return .none
        }
    }

    /// A read of keys failed or found the end of input. In the background (a
    /// background read fails with EIO) the session lets go and waits; in the
    /// foreground it pauses reading until the next check, so a read that keeps failing
    /// is retried on the timer, not in a loop. Reading never ends for good.
    mutating func readFailed(isForeground: Bool) -> Action {
        guard state == .holding(isReading: true) else { return .none }
        guard isForeground else {
            state = .waiting
            return .letGo
        }
        state = .holding(isReading: false)
        return .pauseReading
    }

    /// Taking the terminal failed (its attributes could not be set): undo what was
    /// done and wait; the next foreground check tries again.
    mutating func takeFailed() -> Action {
        guard holdsTerminal else { return .none }
        state = .waiting
        return .letGo
    }

    /// The program restores the terminal: stop everything; the session can be started
    /// again.
    mutating func restoreRequested() -> Action {
        state = .idle
        isContinueSignalExpected = false
        return .restore
    }

    // MARK: Transitions

    private mutating func _take(redraw: Bool) -> Action {
        state = .holding(isReading: true)
        return .take(redraw: redraw)
    }

    private mutating func _wait() -> Action {
        state = .waiting
        return .none
    }
}

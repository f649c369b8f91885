import Testing
@testable import TerminalListRenderer

/// The job-control state machine, driven one event at a time.
@Suite struct JobControlStateMachineTests {
    typealias Machine = _JobControlStateMachine

    /// A machine started in the foreground, holding the terminal.
    static func holding() -> Machine {
        var machine = Machine()
        _ = machine.started(isForeground: true)
        return machine
    }

    @Test func startedInTheForegroundTakesTheTerminalWithoutARedraw() {
        var machine = Machine()
        #expect(machine.state == .idle)
        #expect(!machine.holdsTerminal)
        #expect(machine.started(isForeground: true) == .take(redraw: false))
        #expect(machine.state == .holding(isReading: true))
        #expect(machine.holdsTerminal)
        #expect(!machine.needsForegroundChecks)
        #expect(machine.started(isForeground: true) == .none, "starting twice does nothing")
    }

    @Test func startedInTheBackgroundWaitsUntilTheForegroundThenTakesWithARedraw() {
        var machine = Machine()
        #expect(machine.started(isForeground: false) == .none)
        #expect(machine.state == .waiting)
        #expect(!machine.holdsTerminal, "nothing is drawn")
        #expect(machine.needsForegroundChecks)
        for _ in 0..<3 { #expect(machine.foregroundChecked(isForeground: false) == .none) }
        #expect(machine.state == .waiting)
        #expect(machine.foregroundChecked(isForeground: true) == .take(redraw: true))
        #expect(machine.state == .holding(isReading: true))
        #expect(!machine.needsForegroundChecks)
        #expect(machine.foregroundChecked(isForeground: true) == .none, "taken once")
    }

    @Test func suspendedAndContinuedInTheForegroundTakesTheTerminalAgain() {
        var machine = Self.holding()
        #expect(machine.suspendRequested() == .giveBackAndStop)
        #expect(machine.state == .stopped)
        #expect(!machine.holdsTerminal)
        #expect(machine.suspendRequested() == .none, "already stopped")
        #expect(machine.continued(isForeground: true) == .take(redraw: true))
        #expect(machine.state == .holding(isReading: true))
        // The SIGCONT that ended the stop arrives after: expected, nothing to do.
        #expect(machine.continueSignalReceived(isForeground: true) == .none)
        #expect(machine.state == .holding(isReading: true))
    }

    /// `kill -TSTP`, then `kill -CONT` without `fg`: the shell has the terminal.
    @Test func suspendedAndContinuedInTheBackgroundWaitsThenResumesOnFg() {
        var machine = Self.holding()
        #expect(machine.suspendRequested() == .giveBackAndStop)
        #expect(machine.continued(isForeground: false) == .none, "the terminal is left alone")
        #expect(machine.state == .waiting)
        #expect(!machine.holdsTerminal)
        #expect(machine.needsForegroundChecks)
        #expect(machine.continueSignalReceived(isForeground: false) == .none)
        #expect(machine.foregroundChecked(isForeground: false) == .none)
        #expect(machine.state == .waiting)
        // `fg`.
        #expect(machine.foregroundChecked(isForeground: true) == .take(redraw: true))
        #expect(machine.holdsTerminal)
    }

    @Test func theContinueSignalBeforeTheStopEndsIsIgnoredWhileStopped() {
        var machine = Self.holding()
        _ = machine.suspendRequested()
        #expect(machine.continueSignalReceived(isForeground: true) == .none)
        #expect(machine.foregroundChecked(isForeground: true) == .none, "stopped: checks wait for the stop to end")
        #expect(machine.state == .stopped)
        #expect(machine.continued(isForeground: true) == .take(redraw: true))
        #expect(!machine.isContinueSignalExpected, "the expected signal was counted already")
        #expect(machine.continueSignalReceived(isForeground: true) == .take(redraw: true), "so another one means an outside stop")
    }

    @Test func suspendedWhileWaitingStopsWithoutTouchingTheTerminal() {
        var machine = Machine()
        _ = machine.started(isForeground: false)
        #expect(machine.suspendRequested() == .stop)
        #expect(machine.state == .stopped)
        #expect(machine.continued(isForeground: false) == .none)
        #expect(machine.state == .waiting)
        _ = machine.suspendRequested()
        #expect(machine.continued(isForeground: true) == .take(redraw: true))
    }

    /// SIGSTOP (uncaught), then `bg`: the shell took the terminal back and reset it.
    @Test func anOutsideStopContinuedInTheBackgroundLetsGo() {
        var machine = Self.holding()
        #expect(machine.continueSignalReceived(isForeground: false) == .letGo)
        #expect(machine.state == .waiting)
        #expect(!machine.holdsTerminal)
        #expect(machine.foregroundChecked(isForeground: true) == .take(redraw: true))
    }

    /// SIGSTOP, then `fg`: the shell may have reset the terminal while it was stopped.
    @Test func anOutsideStopContinuedInTheForegroundTakesTheTerminalAgain() {
        var machine = Self.holding()
        #expect(machine.continueSignalReceived(isForeground: true) == .take(redraw: true))
        #expect(machine.state == .holding(isReading: true))
    }

    @Test func aBackgroundReadErrorLetsGoAndReadingResumesInTheForeground() {
        var machine = Self.holding()
        #expect(machine.readFailed(isForeground: false) == .letGo)
        #expect(machine.state == .waiting)
        #expect(machine.readFailed(isForeground: false) == .none, "a late failure of the cancelled reader")
        #expect(machine.foregroundChecked(isForeground: true) == .take(redraw: true))
        #expect(machine.state == .holding(isReading: true), "reading did not end for good")
    }

    @Test func aForegroundReadErrorPausesReadingUntilTheNextCheck() {
        var machine = Self.holding()
        #expect(machine.readFailed(isForeground: true) == .pauseReading)
        #expect(machine.state == .holding(isReading: false))
        #expect(machine.holdsTerminal, "still drawn")
        #expect(machine.needsForegroundChecks)
        #expect(machine.readFailed(isForeground: true) == .none)
        #expect(machine.foregroundChecked(isForeground: true) == .resumeReading)
        #expect(machine.state == .holding(isReading: true))
        #expect(!machine.needsForegroundChecks)
    }

    @Test func losingTheForegroundWhilePausedLetsGo() {
        var machine = Self.holding()
        _ = machine.readFailed(isForeground: true)
        #expect(machine.foregroundChecked(isForeground: false) == .letGo)
        #expect(machine.state == .waiting)
    }

    @Test func aFailedTakeWaitsAndTheNextCheckTriesAgain() {
        var machine = Machine()
        _ = machine.started(isForeground: false)
        #expect(machine.foregroundChecked(isForeground: true) == .take(redraw: true))
        #expect(machine.takeFailed() == .letGo)
        #expect(machine.state == .waiting)
        #expect(machine.needsForegroundChecks)
        #expect(machine.takeFailed() == .none)
        #expect(machine.foregroundChecked(isForeground: true) == .take(redraw: true))
    }

    @Test func restoringFromAnyStateStopsEverythingAndLaterEventsAreIgnored() {
        var waiting = Machine()
        _ = waiting.started(isForeground: false)
        var stopped = Self.holding()
        _ = stopped.suspendRequested()
        var paused = Self.holding()
        _ = paused.readFailed(isForeground: true)
        for var machine in [Self.holding(), waiting, stopped, paused, Machine()] {
            #expect(machine.restoreRequested() == .restore)
            #expect(machine.state == .idle)
            #expect(!machine.holdsTerminal)
            #expect(!machine.needsForegroundChecks)
            #expect(!machine.isContinueSignalExpected)
            #expect(machine.suspendRequested() == .none)
            #expect(machine.continued(isForeground: true) == .none)
            #expect(machine.continueSignalReceived(isForeground: true) == .none)
            #expect(machine.foregroundChecked(isForeground: true) == .none)
            #expect(machine.readFailed(isForeground: false) == .none)
            #expect(machine.restoreRequested() == .restore, "restoring twice is harmless")
            #expect(machine.started(isForeground: true) == .take(redraw: false), "and the session can start again")
        }
    }

    /// Every state and event: only the states that hold the terminal let drawing through,
    /// and a background event never takes the terminal.
    @Test func noEventInTheBackgroundTakesTheTerminal() {
        var waiting = Machine()
        _ = waiting.started(isForeground: false)
        var stopped = Self.holding()
        _ = stopped.suspendRequested()
        var paused = Self.holding()
        _ = paused.readFailed(isForeground: true)
        let events: [(inout Machine) -> Machine.Action] = [
            { $0.started(isForeground: false) },
            { $0.continued(isForeground: false) },
            { $0.continueSignalReceived(isForeground: false) },
            { $0.foregroundChecked(isForeground: false) },
            { $0.readFailed(isForeground: false) },
            { $0.takeFailed() },
        ]
        for start in [Machine(), Self.holding(), waiting, stopped, paused] {
            for event in events {
                var machine = start
                let action = event(&machine)
                if case .take = action { Issue.record("\(start.state): a background event took the terminal") }
                #expect(machine.holdsTerminal == (start.holdsTerminal && action == .none), "\(start.state) → \(machine.state) with \(action)")
            }
        }
    }
}

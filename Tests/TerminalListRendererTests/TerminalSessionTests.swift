import ListEngineTesting
import ListTestSupport
import Testing
@testable import TerminalListRenderer

#if canImport(Glibc)
import Glibc

/// A pseudo-terminal pair: the session runs on the follower side, the test plays the
/// terminal on the leader side.
private struct PseudoTerminal: ~Copyable {
    let leader: Int32
    let follower: Int32

    /// `TIOCSPTLCK` and `TIOCGPTN` from <asm-generic/ioctls.h> (function-like macros,
    /// which Swift does not import): unlock the follower, get its number.
    private static let unlockFollower: UInt = 0x4004_5431
    private static let followerNumber: UInt = 0x8004_5430

    init() throws {
        let leader = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard leader >= 0 else { throw PseudoTerminalError.unavailable }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(leader, Self.unlockFollower, &unlock) == 0, ioctl(leader, Self.followerNumber, &number) == 0 else {
            close(leader)
            throw PseudoTerminalError.unavailable
        }
        let follower = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard follower >= 0 else {
            close(leader)
            throw PseudoTerminalError.unavailable
        }
        _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
        self.leader = leader
        self.follower = follower
    }

    deinit {
        close(follower)
        close(leader)
    }

    /// What the session wrote to the terminal so far.
    func output() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(leader, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Types `text` on the terminal.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(leader, $0.baseAddress, $0.count) }
    }

    func localModes() -> tcflag_t {
        var attributes = termios()
        _ = tcgetattr(follower, &attributes)
        return attributes.c_lflag
    }

    func setSize(rows: UInt16, columns: UInt16) {
        var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(leader, UInt(TIOCSWINSZ), &size)
    }
}

private enum PseudoTerminalError: Error {
    case unavailable
}

/// The job-control scenario of `jobControlOnAControllingTerminal`, run in a process of
/// its own: it becomes a session leader with a pseudo-terminal as its controlling
/// terminal, and a `sleep` in another process group stands for the shell. Prints DONE
/// (or SKIP when it cannot become a session leader); a failed check prints FAIL.
private enum JobControlScenario {
    /// `TIOCSCTTY` from <asm-generic/ioctls.h>: make the terminal the controlling one.
    private static let setControllingTerminal: UInt = 0x540E

    static func run() throws {
        guard setsid() != -1 else {
            print("SKIP: setsid failed (errno \(errno))")
            exit(0)
        }
        let terminal = try PseudoTerminal()
        let fd = terminal.follower
        guard ioctl(fd, setControllingTerminal, 0) == 0 else {
            print("SKIP: TIOCSCTTY failed (errno \(errno))")
            exit(0)
        }
        let other = spawnInOwnGroup("/bin/sleep", "20")
        func check(_ condition: Bool, _ message: String) {
            guard !condition else { return }
            FileDescriptorOutput(fileDescriptor: 2).write(Array("FAIL: \(message)\n".utf8))
            kill(other, SIGKILL)
            exit(1)
        }
        check(other > 0, "cannot spawn /bin/sleep")
        var original = termios()
        _ = tcgetattr(fd, &original)

        // The other group has the foreground: this process is in the background.
        check(tcsetpgrp(fd, other) == 0, "tcsetpgrp to the other group: errno \(errno)")
        let keys = LockedState<[Key]>([])
        let continues = LockedState(0)
        let session = TerminalSession(input: fd, output: fd)
        try session.start(
            onKeys: { new in keys.withLock { $0 += new } },
            onResize: { _ in },
            onContinue: { continues.withLock { $0 += 1 } }
        )
        usleep(400_000)
        check(session._control.withLock { $0.machine.state } == .waiting, "started in the background: not waiting")
        check(terminal.localModes() == original.c_lflag, "started in the background: the attributes changed")
        session.output.write(Array("drawn".utf8))
        check(terminal.output().isEmpty, "started in the background: something was written")
        check(continues.withLock { $0 } == 0, "started in the background: onContinue was called")

        // Brought to the foreground: taken, with a redraw.
        check(tcsetpgrp(fd, getpgrp()) == 0, "tcsetpgrp back: errno \(errno)")
        check(waitUntil { continues.withLock { $0 } == 1 }, "in the foreground: the terminal was not taken")
        check(terminal.localModes() & tcflag_t(ICANON) == 0, "in the foreground: not in raw mode")
        check(terminal.output().contains("\u{1B}[?1049h"), "in the foreground: the alternate screen was not entered")
        terminal.type("k")
        check(waitUntil { keys.withLock { $0 } == [.character("k")] }, "in the foreground: no key read")

        // Sent to the background while running: the next read fails with EIO.
        check(tcsetpgrp(fd, other) == 0, "tcsetpgrp to the other group again: errno \(errno)")
        terminal.type("x")
        check(waitUntil { session._control.withLock { $0.machine.state } == .waiting }, "a background read did not let go")
        usleep(200_000)
        session.output.write(Array("drawn".utf8))
        check(terminal.output().isEmpty, "in the background: something was written")
        check(terminal.localModes() & tcflag_t(ICANON) == 0, "letting go changed the attributes")
        check(keys.withLock { $0 } == [.character("k")], "a key typed for the other group was read")

        // Like a shell, set the terminal up as it was and give the foreground back.
        check(tcsetattr(fd, TCSANOW, &original) == 0, "tcsetattr from the background: errno \(errno)")
        check(tcsetpgrp(fd, getpgrp()) == 0, "tcsetpgrp back again: errno \(errno)")
        check(waitUntil { continues.withLock { $0 } == 2 }, "in the foreground again: the terminal was not taken")
        check(terminal.localModes() & tcflag_t(ICANON) == 0, "in the foreground again: not in raw mode")
        terminal.type("q")
        check(waitUntil { keys.withLock { $0 }.count == 2 }, "in the foreground again: reading did not resume")
        check(keys.withLock { $0 } == [.character("k"), .character("q")], "keys: \(keys.withLock { $0 })")

        session.restore()
        check(terminal.localModes() == original.c_lflag, "restored: the attributes are not the original ones")
        // Closing the pseudo-terminal (the compiler may close it right after its last use,
        // before `exit`) hangs up its session, whose leader this process is: ignore SIGHUP
        // once the session's cancelled SIGHUP source has set it back to the default (on
        // the session's queue, a moment after `restore` returns), and only then let the
        // pseudo-terminal go.
        check(waitUntil {
            var current = sigaction()
            return sigaction(SIGHUP, nil, &current) == 0 && current.__sigaction_handler.sa_handler == nil
        }, "restored: SIGHUP was not given back its default action")
        signal(SIGHUP, SIG_IGN)
        check(terminal.leader >= 0, "the pseudo-terminal is open")
        kill(other, SIGKILL)
        print("DONE")
        exit(0)
    }

    /// Polls `condition` every 10 ms for up to 5 seconds.
    private static func waitUntil(_ condition: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Starts a program in a process group of its own; its pid, or -1.
    private static func spawnInOwnGroup(_ path: String, _ arguments: String...) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, nil, &attributes, argv, nil) == 0 else { return -1 }
        return pid
    }
}

/// The limit is generous: a test that waits for a child process (an exit test) resumes
/// on the cooperative pool, which long synchronous tests of other suites can hold for
/// over a minute in a `LIST_INTERNAL_CHECKS` build on two cores.
@Suite(.serialized, .timeLimit(.minutes(5))) struct TerminalSessionTests {
    @Test func rawModeKeysAndResizeThenEverythingIsRestored() async throws {
        let terminal = try PseudoTerminal()
        let before = terminal.localModes()
        #expect(before & tcflag_t(ICANON) != 0 && before & tcflag_t(ECHO) != 0)

        let (keys, keyContinuation) = AsyncStream.makeStream(of: Key.self)
        let (sizes, sizeContinuation) = AsyncStream.makeStream(of: TerminalSize.self)
        let session = TerminalSession(input: terminal.follower, output: terminal.follower)
        try session.start(onKey: { keyContinuation.yield($0) }, onResize: { sizeContinuation.yield($0) })

        let raw = terminal.localModes()
        #expect(raw & tcflag_t(ICANON) == 0, "canonical mode is off")
        #expect(raw & tcflag_t(ECHO) == 0, "echo is off")
        #expect(raw & tcflag_t(ISIG) == 0, "Ctrl-C arrives as a key")
        let entered = terminal.output()
        #expect(entered.contains("\u{1B}[?1049h") && entered.contains("\u{1B}[?25l") && entered.contains("\u{1B}[?7l"))

        terminal.type("j\u{1B}[B\u{3}")
        var received: [Key] = []
        for await key in keys {
            received.append(key)
            if received.count == 3 { break }
        }
        #expect(received == [.character("j"), .down, .control("c")])

        terminal.setSize(rows: 33, columns: 101)
        kill(getpid(), SIGWINCH)
        var iterator = sizes.makeAsyncIterator()
        let size = await iterator.next()
        #expect(size == TerminalSize(rows: 33, columns: 101))
        #expect(TerminalSession.size(of: terminal.follower) == TerminalSize(rows: 33, columns: 101))

        session.restore()
        let after = terminal.localModes()
        #expect(after == before, "the saved modes are back")
        let left = terminal.output()
        #expect(left.contains("\u{1B}[?1049l") && left.contains("\u{1B}[?25h") && left.contains("\u{1B}[?7h"))
        var screen = VirtualScreen(rows: 5, columns: 20)
        screen.feed(entered + "drawn" + left)
        #expect(!screen.isAlternateScreenActive && screen.isCursorVisible && screen.isAutowrapEnabled)
        #expect(screen.anomalies.isEmpty, "\(screen.anomalies)")

        session.restore()
        #expect(terminal.output().isEmpty, "restoring twice writes nothing more")
    }

    /// The restoring sequence a session writes: main screen, cursor shown, autowrap on.
    private static func restoresTheScreen(_ output: [UInt8]) -> Bool {
        let text = String(decoding: output, as: UTF8.self)
        return text.contains("\u{1B}[?1049l") && text.contains("\u{1B}[?25h") && text.contains("\u{1B}[?7h")
    }

    @Test("a process that exits without restoring its session has the terminal restored on the way out")
    func exitingRestoresTheTerminal() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let terminal = try PseudoTerminal()
            let session = TerminalSession(input: terminal.follower, output: STDOUT_FILENO)
            try session.start(onKey: { _ in }, onResize: { _ in })
            exit(EXIT_SUCCESS)
        }
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        #expect(output.contains("\u{1B}[?1049h"), "the session took the screen: \(output.debugDescription)")
        #expect(Self.restoresTheScreen(result.standardOutputContent), "\(output.debugDescription)")
    }

    @Test("without a handler of the caller's, SIGTERM restores the terminal and exits with 128 + 15")
    func terminationSignalRestoresAndExits() async throws {
        let result = try await #require(processExitsWith: .exitCode(128 + SIGTERM), observing: [\.standardOutputContent]) {
            let terminal = try PseudoTerminal()
            let session = TerminalSession(input: terminal.follower, output: STDOUT_FILENO)
            try session.start(onKey: { _ in }, onResize: { _ in })
            // Sent until it is handled: the signal source may start watching a moment
            // after `start` returns, and until then the signal is ignored.
            for _ in 0..<300 {
                kill(getpid(), SIGTERM)
                usleep(100_000)
            }
            exit(3)
        }
        #expect(Self.restoresTheScreen(result.standardOutputContent), "\(String(decoding: result.standardOutputContent, as: UTF8.self).debugDescription)")
    }

    /// `ESC [` that nothing follows was Alt-[: it is reported once no more bytes come.
    @Test func anIncompleteSequenceThatNothingCompletesIsReportedAfterAPause() async throws {
        let terminal = try PseudoTerminal()
        let (keys, keyContinuation) = AsyncStream.makeStream(of: Key.self)
        let session = TerminalSession(input: terminal.follower, output: terminal.follower)
        try session.start(onKey: { keyContinuation.yield($0) }, onResize: { _ in })
        defer { session.restore() }
        terminal.type("\u{1B}[")
        var iterator = keys.makeAsyncIterator()
        #expect(await iterator.next() == .character("["))
        terminal.type("q")
        #expect(await iterator.next() == .character("q"), "the next key is not taken as the end of the sequence")
    }

    @Test func drainingReadsEverythingReadyInOneCallAndReportsTheEnd() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]) }
        let typed = [UInt8](repeating: UInt8(ascii: "j"), count: 10_000)
        #expect(typed.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) } == 10_000)
        var bytes: [UInt8] = []
        #expect(TerminalSession._readAvailable(from: pipeEnds[0], into: &bytes, limit: 1 << 16))
        #expect(bytes == typed, "more than one read's worth, all in one call")
        bytes = []
        #expect(typed.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, 5_000) } == 5_000)
        #expect(TerminalSession._readAvailable(from: pipeEnds[0], into: &bytes, limit: 100))
        #expect(bytes.count == 4_096, "the limit ends the drain after the read that reached it")
        close(pipeEnds[1])
        bytes = []
        #expect(TerminalSession._readAvailable(from: pipeEnds[0], into: &bytes, limit: 1 << 16), "what is left is read")
        #expect(bytes.count == 904)
        #expect(!TerminalSession._readAvailable(from: pipeEnds[0], into: &bytes, limit: 1 << 16), "then the end is reported")
    }

    /// 1,000 keys typed at once reach the program in a few deliveries, and a program
    /// that applies each delivery's keys together draws once per delivery.
    @Test func aBurstOfTypedKeysIsDeliveredTogetherAndDrawnOnce() async throws {
        let terminal = try PseudoTerminal()
        let output = OutputBuffer()
        let renderer = TerminalListRenderer<TestRow>(size: TerminalSize(rows: 10, columns: 40), mode: .ansi(colors: false), output: output) { row, _ in
            StyledText("row \(row.id)")
        }
        let source = ListDataSource((0..<3_000).map { TestRow(id: $0, key: $0) })
        source.attach(renderer)
        await source.flush()
        _ = output.take()
        let deliveries = LockedState<[Int]>([])
        let (delivered, deliveredContinuation) = AsyncStream.makeStream(of: Int.self)
        let session = TerminalSession(input: terminal.follower, output: terminal.follower)
        try session.start(
            onKeys: { keys in
                renderer.coalescingUpdates {
                    for key in keys where key == .character("j") { renderer.moveSelection(by: 1) }
                }
                let total = deliveries.withLock { $0.append(keys.count); return $0.reduce(0, +) }
                deliveredContinuation.yield(total)
            },
            onResize: { _ in }
        )
        defer { session.restore() }
        terminal.type(String(repeating: "j", count: 1_000))
        for await total in delivered where total >= 1_000 { break }
        let counts = deliveries.withLock { $0 }
        #expect(counts.reduce(0, +) == 1_000)
        #expect(renderer.viewport.selection == 1_000)
        #expect(counts.count < 10, "the keys came one delivery per read, not one per key: \(counts)")
        #expect(output.writeCount == counts.count, "one update per delivery: \(output.writeCount) for \(counts)")
    }

    @Test func theSessionOutputWritesOnlyWhileTheTerminalIsHeld() throws {
        let terminal = try PseudoTerminal()
        let session = TerminalSession(input: terminal.follower, output: terminal.follower)
        session.output.write(Array("before".utf8))
        #expect(terminal.output().isEmpty, "nothing before the session starts")
        try session.start(onKey: { _ in }, onResize: { _ in })
        _ = terminal.output()
        session.output.write(Array("drawn".utf8))
        #expect(terminal.output() == "drawn")
        session.restore()
        _ = terminal.output()
        session.output.write(Array("after".utf8))
        #expect(terminal.output().isEmpty, "nothing after the terminal is given back")
    }

    /// On a controlling terminal, with another process group holding the foreground:
    /// started in the background, the session waits without touching the terminal; in
    /// the foreground it takes it; sent to the background while running, its next read
    /// fails with EIO and it lets go, and it takes the terminal again in the foreground,
    /// reading keys as before.
    @Test func jobControlOnAControllingTerminal() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent, \.standardOutputContent]) {
            try JobControlScenario.run()
        }
        if let result {
            let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(!errors.contains("FAIL"), "\(errors)")
            let printed = String(decoding: result.standardOutputContent, as: UTF8.self)
            #expect(printed.contains("DONE") || printed.contains("SKIP"), "\(printed.debugDescription) \(errors)")
            print("job control scenario: \(printed.split(separator: "\n").joined(separator: " "))")
        }
    }

    @Test func startingWithoutATerminalThrowsAndChangesNothing() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer { close(pipeEnds[0]); close(pipeEnds[1]) }
        let session = TerminalSession(input: pipeEnds[0], output: pipeEnds[1])
        #expect(throws: TerminalError.notATerminal(fileDescriptor: pipeEnds[0])) {
            try session.start(onKey: { _ in }, onResize: { _ in })
        }
        #expect(!TerminalSession.isTerminal(pipeEnds[0]))
        #expect(TerminalSession.size(of: pipeEnds[1]) == nil)
    }
}
#endif

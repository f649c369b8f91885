import ListEngineTesting
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

@Suite(.serialized, .timeLimit(.minutes(1))) struct TerminalSessionTests {
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

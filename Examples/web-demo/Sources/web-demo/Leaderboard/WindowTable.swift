/// The windows the leaderboard holds, by token, with the caps on how many there are and
/// how long a window outlives its stream: a value the ``Leaderboard`` keeps under its
/// lock, whose events (``open(client:at:make:)``, ``resume(_:at:)``,
/// ``streamEnded(_:at:)``, ``sweep(at:)``) decide and return what to do.
///
/// A window is a capability: whoever holds its token reads and steers it. So the server
/// makes every token (``WindowToken``), a token is never listed, and a window with a live
/// stream cannot be opened a second time. When its stream ends the window is kept for
/// ``Limits/resumeGrace`` (still following the feed), so that the page that had it can
/// reopen it with `resume=TOKEN` after a broken connection; after that it is freed.
struct WindowTable {
    /// The caps and the grace period.
    struct Limits: Sendable, Equatable {
        /// The most windows held at once, with or without a stream.
        var maxWindows = 10_000
        /// The most windows held at once for one peer address.
        var maxWindowsPerClient = 64
        /// How long a window is kept after its stream ends, for `resume`.
        var resumeGrace: Duration = .seconds(30)
    }

    /// Why a new window was not opened.
    enum Refusal: Error, Equatable {
        /// ``Limits/maxWindows`` are held: 503.
        case full
        /// ``Limits/maxWindowsPerClient`` are held for this peer: 429.
        case clientFull
        /// The leaderboard has stopped.
        case stopped
    }

    /// What `resume` found.
    enum Resumption {
        /// The window, whose stream is now the caller's.
        case resumed(LeaderboardWindow)
        /// The window has a live stream: 409, and the stream is untouched.
        case live
        /// No window has this token, or its grace period is over: 404.
        case unknown
        /// The leaderboard has stopped.
        case stopped
    }

    /// Counts since the start, for `/status`.
    struct Counts: Equatable {
        var opened = 0
        var released = 0
        /// Streams that ended, whether their window was resumed, released or not.
        var streamsEnded = 0
        var resumed = 0
        var refusedFull = 0
        var refusedClient = 0
        var refusedLive = 0
    }

    private struct Entry {
        let window: LeaderboardWindow
        let client: String
        /// When the window's last stream ended; `nil` while a stream is live.
        var streamEnded: ContinuousClock.Instant?
    }

    let limits: Limits
    private var entries: [String: Entry] = [:]
    private var perClient: [String: Int] = [:]
    private(set) var counts = Counts()
    /// Frames turned into event bytes by windows already released.
    private(set) var releasedFrames = 0
    private(set) var isFinished = false

    init(limits: Limits) {
        self.limits = limits
    }

    /// Every window held, with a live stream or within its grace period.
    var windows: [LeaderboardWindow] { entries.values.map(\.window) }

    /// Windows held, and of those the ones whose stream is live.
    var held: (all: Int, streaming: Int) {
        (entries.count, entries.values.reduce(0) { $0 + ($1.streamEnded == nil ? 1 : 0) })
    }

    /// Opens a window for a new stream from `client` under a fresh token, unless a cap
    /// is reached.
    ///
    /// - Parameter make: makes the window with the token given; called only when the
    ///   window is opened.
    /// - Complexity: O(1) besides `make`.
    mutating func open(client: String, at now: ContinuousClock.Instant, make: (String) -> LeaderboardWindow) -> Result<LeaderboardWindow, Refusal> {
        guard !isFinished else { return .failure(.stopped) }
        guard entries.count < limits.maxWindows else {
            counts.refusedFull += 1
            return .failure(.full)
        }
        guard perClient[client, default: 0] < limits.maxWindowsPerClient else {
            counts.refusedClient += 1
            return .failure(.clientFull)
        }
        var token = WindowToken.make()
        while entries[token] != nil { token = WindowToken.make() }  // 2⁻¹²⁸ per window: never, in practice
        let window = make(token)
        entries[token] = Entry(window: window, client: client, streamEnded: nil)
        perClient[client, default: 0] += 1
        counts.opened += 1
        return .success(window)
    }

    /// Gives a window whose stream ended within its grace period a new stream.
    mutating func resume(_ token: String, at now: ContinuousClock.Instant) -> Resumption {
        guard !isFinished else { return .stopped }
        guard var entry = entries[token], !isExpired(entry, at: now) else { return .unknown }
        guard entry.streamEnded != nil else {
            counts.refusedLive += 1
            return .live
        }
        entry.streamEnded = nil
        entries[token] = entry
        counts.resumed += 1
        return .resumed(entry.window)
    }

    /// Notes a client-chosen name on `/events`: whether it names a window with a live
    /// stream (409) or not (the name is refused: 400).
    mutating func isLive(_ token: String, at now: ContinuousClock.Instant) -> Bool {
        guard let entry = entries[token], !isExpired(entry, at: now), entry.streamEnded == nil else { return false }
        counts.refusedLive += 1
        return true
    }

    /// The window with this token, with a live stream or within its grace period.
    func window(_ token: String, at now: ContinuousClock.Instant) -> LeaderboardWindow? {
        guard let entry = entries[token], !isExpired(entry, at: now) else { return nil }
        return entry.window
    }

    /// Notes that `window`'s stream ended: the window is kept for its grace period.
    ///
    /// - Returns: the window when it is released now (no grace, or the leaderboard has
    ///   stopped): the caller closes it.
    mutating func streamEnded(_ window: LeaderboardWindow, at now: ContinuousClock.Instant) -> LeaderboardWindow? {
        guard var entry = entries[window.id], entry.window === window, entry.streamEnded == nil else { return nil }
        counts.streamsEnded += 1
        guard !isFinished, limits.resumeGrace > .zero else { return remove(window.id) }
        entry.streamEnded = now
        entries[window.id] = entry
        return nil
    }

    /// Releases the windows whose grace period is over.
    ///
    /// - Returns: the released windows: the caller closes them.
    /// - Complexity: O(*w*), *w* = windows held.
    mutating func sweep(at now: ContinuousClock.Instant) -> [LeaderboardWindow] {
        let expired = entries.filter { isExpired($0.value, at: now) }.keys
        return expired.compactMap { remove($0) }
    }

    /// Stops opening and resuming windows and releases every one.
    ///
    /// - Returns: the released windows: the caller closes them.
    mutating func finish() -> [LeaderboardWindow] {
        isFinished = true
        return Array(entries.keys).compactMap { remove($0) }
    }

    private func isExpired(_ entry: Entry, at now: ContinuousClock.Instant) -> Bool {
        entry.streamEnded.map { $0.advanced(by: limits.resumeGrace) <= now } ?? false
    }

    private mutating func remove(_ token: String) -> LeaderboardWindow? {
        guard let entry = entries.removeValue(forKey: token) else { return nil }
        let left = perClient[entry.client, default: 1] - 1
        perClient[entry.client] = left > 0 ? left : nil
        counts.released += 1
        releasedFrames += entry.window.ownView?.eventBytes.made ?? 0
        return entry.window
    }
}

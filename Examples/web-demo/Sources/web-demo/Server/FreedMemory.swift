#if canImport(Glibc)
import Glibc
#endif

/// Gives the memory that streams and windows freed back to the system, so that the
/// server's resident size comes back down after a crowd of viewers leaves.
///
/// glibc's `malloc` keeps freed memory in its arenas for reuse: after a thousand
/// connections close, their buffers are free but still resident, and only the top of
/// each arena is returned by itself. `malloc_trim(0)` returns every free page of every
/// arena. It is looked up at run time, since the Glibc module does not export it;
/// elsewhere (Darwin, another C library) ``giveBack()`` does nothing.
enum FreedMemory {
    #if canImport(Glibc)
    private typealias Trim = @convention(c) (Int) -> Int32

    /// `malloc_trim`, or `nil` when the C library has none.
    private static let trim: Trim? = {
        // RTLD_DEFAULT: the symbol wherever the process's libraries define it.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
    }()
    #endif

    /// Returns the free pages of every `malloc` arena to the system.
    ///
    /// - Complexity: O(heap size): a few milliseconds for a hundred megabytes. Call it
    ///   after many things were freed, not per request.
    static func giveBack() {
        #if canImport(Glibc)
        _ = trim?(0)
        #endif
    }
}

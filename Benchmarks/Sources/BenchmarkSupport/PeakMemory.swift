#if canImport(Glibc)
import Glibc
#endif

/// Memory figures of the current process, and its threads, read from `/proc/self/status`
/// (Linux).
public enum ProcessMemory {
    /// The peak resident set size (`VmHWM`) in bytes, or `nil` where it cannot be read.
    public static var peakResidentBytes: Int? { field("VmHWM:").map { $0 * 1024 } }

    /// The current resident set size (`VmRSS`) in bytes, or `nil` where it cannot be read.
    public static var residentBytes: Int? { field("VmRSS:").map { $0 * 1024 } }

    /// Lowers the peak resident set size (`VmHWM`) to the current one, so that later
    /// readings of ``peakResidentBytes`` show the peak since this call; `false` where the
    /// kernel does not offer it (Linux 4.0 and later do, through `/proc/self/clear_refs`).
    @discardableResult public static func resetPeak() -> Bool {
        #if canImport(Glibc)
        guard let file = fopen("/proc/self/clear_refs", "w") else { return false }
        defer { fclose(file) }
        return fputs("5", file) >= 0
        #else
        return false
        #endif
    }

    /// The process's threads now, or `nil` where they cannot be read.
    public static var threads: Int? { field("Threads:") }

    /// The number in the line that starts with `name`.
    private static func field(_ name: String) -> Int? {
        #if canImport(Glibc)
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard line.hasPrefix(name) else { continue }
            // "VmHWM:	  123456 kB", "Threads:	12"
            return Int(line.dropFirst(name.count).filter(\.isNumber))
        }
        return nil
        #else
        return nil
        #endif
    }
}

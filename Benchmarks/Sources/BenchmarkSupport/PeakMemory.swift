#if canImport(Glibc)
import Glibc
#endif

/// Memory figures of the current process, read from `/proc/self/status` (Linux).
public enum ProcessMemory {
    /// The peak resident set size (`VmHWM`) in bytes, or `nil` where it cannot be read.
    public static var peakResidentBytes: Int? { field("VmHWM:") }

    /// The current resident set size (`VmRSS`) in bytes, or `nil` where it cannot be read.
    public static var residentBytes: Int? { field("VmRSS:") }

    private static func field(_ name: String) -> Int? {
        #if canImport(Glibc)
        guard let file = fopen("/proc/self/status", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard line.hasPrefix(name) else { continue }
            // "VmHWM:	  123456 kB"
            let number = line.dropFirst(name.count).filter(\.isNumber)
            return Int(number).map { $0 * 1024 }
        }
        return nil
        #else
        return nil
        #endif
    }
}

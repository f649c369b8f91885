import Foundation

/// How many seeds a property test runs: `PROPERTY_SEEDS` from the environment when it
/// is set (CI sets it for the full run), else `default`, small enough for a quick
/// `swift test`.
public func propertySeedCount(default count: UInt64) -> UInt64 {
    ProcessInfo.processInfo.environment["PROPERTY_SEEDS"].flatMap(UInt64.init) ?? count
}

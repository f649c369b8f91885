/// A small, fast, seedable pseudo-random generator (Steele, Lea and Flood,
/// "Fast splittable pseudorandom number generators", 2014), so every benchmark run
/// builds exactly the same inputs.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed always gives the same sequence.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed `Double` in `0 ..< 1` with 53 random bits.
    public mutating func unitDouble() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A uniformly distributed integer in `range`.
    public mutating func int(in range: Range<Int>) -> Int {
        Int.random(in: range, using: &self)
    }
}

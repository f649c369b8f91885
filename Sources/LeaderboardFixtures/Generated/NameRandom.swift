/// Names and countries for generated players, from a seed: the same seed gives the same
/// player on every run (SplitMix64).
struct NameRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ 0xD1B5_4A32_D192_ED03
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    private static let starts = ["Al", "Be", "Ca", "Da", "El", "Fa", "Ga", "Ha", "Is", "Jo", "Ka", "Li", "Ma", "Ni", "Or", "Pa", "Ri", "Sa", "Ta", "Vi", "Wi", "Yu", "Zo"]
    private static let middles = ["", "ri", "na", "lo", "ve", "mi", "ra", "th", "si", "do"]
    private static let ends = ["n", "a", "s", "o", "el", "is", "ar", "en", "ia", "us"]
    private static let families = ["Stone", "Hill", "River", "Gold", "Lind", "Berg", "Moor", "Fair", "Rose", "Sand", "Lang", "Ash"]
    private static let suffixes = ["ford", "ley", "man", "ton", "field", "ini", "ova", "dottir", "berg", "ström"]
    private static let handles = ["Wolf", "Ninja", "Raven", "Yeti", "Wizard", "Falcon", "Comet", "Otter", "Viper", "Golem"]
    private static let adjectives = ["Silent", "Iron", "Lucky", "Hidden", "Quick", "Crimson", "Frozen", "Brave"]
    private static let countries = ["US", "GB", "DE", "FR", "JP", "KR", "BR", "CN", "SE", "NL", "IT", "PL", "IN", "CA", "ES"]

    /// A first and family name, or a gamer handle.
    mutating func name() -> String {
        if next(below: 5) == 0 {
            return Self.adjectives[next(below: Self.adjectives.count)] + Self.handles[next(below: Self.handles.count)] + String(next(below: 1_000))
        }
        let first = Self.starts[next(below: Self.starts.count)] + Self.middles[next(below: Self.middles.count)] + Self.ends[next(below: Self.ends.count)]
        let family = Self.families[next(below: Self.families.count)] + Self.suffixes[next(below: Self.suffixes.count)]
        return first + " " + family
    }

    /// A two-letter country code.
    mutating func country() -> String {
        Self.countries[next(below: Self.countries.count)]
    }
}

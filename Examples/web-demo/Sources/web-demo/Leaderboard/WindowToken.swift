/// A window's token: 128 bits from the system's random number generator, written as 22
/// base64url characters (`A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_`; no padding), so that it
/// goes into a URL as it is.
///
/// The token is the window's only name: `/events` makes it and sends it in the stream's
/// `window` event, and every other endpoint needs it. Whoever can guess one can read and
/// steer that window, so it is drawn from `SystemRandomNumberGenerator` (the kernel's
/// `getrandom` on Linux), never from a counter or a seeded generator.
enum WindowToken {
    /// Random bits in a token.
    static let bits = 128

    /// Characters in a token: ⌈128 / 6⌉.
    static let length = (bits + 5) / 6

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// A fresh token.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return encode(high: generator.next(), low: generator.next())
    }

    /// The 128 bits `high` then `low`, six at a time from the top, as base64url.
    static func encode(high: UInt64, low: UInt64) -> String {
        var characters: [UInt8] = []
        characters.reserveCapacity(length)
        for index in 0 ..< length {
            // Bits [6·index, 6·index + 6) from the top of the 128, zero-filled past the end.
            let start = 6 * index
            var sextet: UInt64 = 0
            for bit in start ..< start + 6 {
                sextet <<= 1
                guard bit < bits else { continue }
                let word = bit < 64 ? high : low
                sextet |= (word >> UInt64(63 - bit % 64)) & 1
            }
            characters.append(alphabet[Int(sextet)])
        }
        return String(decoding: characters, as: UTF8.self)
    }
}

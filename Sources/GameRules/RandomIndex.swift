extension RandomNumberGenerator {
    /// A uniformly distributed index in `0..<count` (`count` > 0), drawn with Lemire's multiply-and-reject
    /// method. Spelled out here (rather than `randomElement(using:)`) so that seeded choices never change with
    /// the standard library's implementation. Draws nothing when `count` is 1.
    mutating func uniformIndex(below count: Int) -> Int {
        precondition(count > 0, "no index to choose from")
        if count == 1 {
            return 0
        }
        let bound = UInt64(count)
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return Int(product.high)
    }
}

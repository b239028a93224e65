/// A game as `tictactoe browse` prints it.
public struct GameListing: Sendable, Hashable {
    public var name: String
    public var compatible: Bool
    /// Why it cannot be joined (incompatible games only).
    public var reason: String?

    public init(name: String, compatible: Bool, reason: String? = nil) {
        self.name = name
        self.compatible = compatible
        self.reason = reason
    }
}

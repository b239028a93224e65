import GameProtocol

/// Which advertised names a typed game name means while it is resolved (`tictactoe join NAME`, a game picked in the
/// terminal UI): the bookkeeping of `ResolveOperation`, pure so that it can be tested without a daemon.
///
/// A typed name means every advertised name whose `foldedKey` is its own (NFC, Unicode case folded):
/// "zoe\u{308}'s game" and "ZOË'S GAME" mean the advertised "Zoë's Game". mDNS itself compares names byte for byte
/// (ASCII case aside), so the typed name is resolved in NFC first, and every matching spelling a browse reports is
/// resolved too; the first answer wins.
///
/// Names are compared as bytes here, not as Swift strings: `String`'s `==` treats "Zoë" in NFC and in NFD as equal,
/// but to the daemon they are two different names, and each must be resolved as it was advertised.
struct SpellingSearch {
    /// The typed name.
    let typed: PlayerName
    /// The names resolves were started for, as bytes, in order.
    private(set) var tried: [[UInt8]]
    /// The advertised names a browse reported that match the typed one, in the order seen.
    private(set) var advertised: [String] = []
    /// Every name the browse reported, in the order seen.
    private(set) var listed: [String] = []

    init(typed: String) {
        self.typed = PlayerName(typed)
        self.tried = [Array(self.typed.text.utf8)]
    }

    /// The name to resolve first: the typed one in NFC.
    var first: String { typed.text }

    /// A name the browse reported: returns it when it is a new spelling of the typed name to resolve, else nil.
    mutating func browsed(_ name: String) -> String? {
        if !listed.contains(where: { Array($0.utf8) == Array(name.utf8) }) { listed.append(name) }
        guard Self.foldedKey(name) == Self.foldedKey(typed.text) else { return nil }
        let bytes = Array(name.utf8)
        if !advertised.contains(where: { Array($0.utf8) == bytes }) { advertised.append(name) }
        guard !tried.contains(bytes) else { return nil }
        tried.append(bytes)
        return name
    }

    /// The name to report for the answer to the resolve of `name`: `name` when it was advertised as such, otherwise
    /// (the daemon answered the typed spelling, e.g. ignoring ASCII case) the first matching name advertised, if any.
    func reportedName(answering name: String) -> String {
        let bytes = Array(name.utf8)
        if advertised.contains(where: { Array($0.utf8) == bytes }) { return name }
        return advertised.first ?? name
    }

    /// The listed name closest to the typed one (fewest characters to change, case folded), other than the typed name
    /// itself; nil when no other name was listed.
    var nearest: String? {
        let typedKey = Self.foldedKey(typed.text)
        let others = listed.map { (name: $0, distance: Self.distance(Array(Self.foldedKey($0)), Array(typedKey))) }
            .filter { $0.distance > 0 }
        return others.min { $0.distance < $1.distance }?.name
    }

    /// The edit distance (Levenshtein) between two strings of characters.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// `name` in NFC with every letter's case folded (upper-cased, then lower-cased, so that "ß" meets "SS" and "Σ"
    /// meets "ς" and "σ"): a person may type a game's name in any case, whatever its script.
    static func foldedKey(_ name: String) -> String {
        PlayerName.normalized(PlayerName.normalized(name).uppercased().lowercased())
    }
}

/// HTML tag names looked up by their bytes in the input, without case and
/// without making a string: packed into a number (first byte lowest, each
/// lower-cased) and compared with the names of the same length. Lower-cased
/// into a string and compared name by name, a tag's name cost more than the
/// rest of reading it (`HTMLText`, `SafeMarkup`).
struct TagNameTable<Kind: Sendable>: Sendable {
    /// Longer names are in no table.
    static var maximumLength: Int { 16 }

    /// By length, the packed names of that length and what they are.
    private let byLength: [[(key: UInt128, kind: Kind)]]

    /// `names` in lower case, most common first.
    init(_ names: [(String, Kind)]) {
        var byLength = [[(key: UInt128, kind: Kind)]](repeating: [], count: Self.maximumLength + 1)
        for (name, kind) in names {
            precondition(name.utf8.count <= Self.maximumLength && name == name.lowercased())
            byLength[name.utf8.count].append((name.utf8.reversed().reduce(0) { $0 << 8 | UInt128($1) }, kind))
        }
        self.byLength = byLength
    }

    /// What the tag name at `name` (letters and digits) is, or `nil` if it is none of the table's.
    func kind(of name: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Kind? {
        guard name.count <= Self.maximumLength else { return nil }
        let candidates = byLength[name.count]
        guard !candidates.isEmpty else { return nil }
        var key: UInt128 = 0
        // `| 0x20` lower-cases a letter and leaves a digit as it is.
        for index in name.reversed() { key = key << 8 | UInt128(bytes[index] | 0x20) }
        return candidates.first { $0.key == key }?.kind
    }
}

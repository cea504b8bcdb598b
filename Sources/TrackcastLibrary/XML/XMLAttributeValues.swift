/// An element's attributes copied out of libxml2's callback, for a handler
/// that keeps them past it or looks up several: each qualified name
/// (`prefix:local`, or `local`) with its value, in document order.
///
/// A list, not a `Dictionary`: elements carry a handful of attributes, so a
/// look-up is a short scan, and building one costs a single allocation where
/// a dictionary also hashes every name (a feed builds one for each enclosure,
/// guid and link, thousands per parse).
struct XMLAttributeValues {
    private var entries: [(name: String, value: String)] = []

    init() {}

    init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    mutating func append(name: String, value: String) {
        entries.append((name, value))
    }

    /// The value of the attribute with this qualified name; a name given twice keeps its last value.
    subscript(name: String) -> String? {
        entries.last { $0.name == name }?.value
    }
}

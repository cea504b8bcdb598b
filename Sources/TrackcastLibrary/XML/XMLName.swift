/// An element's name as libxml2 resolved it against the namespaces in scope.
struct XMLName {
    var localName: String
    /// The prefix as written (`itunes` in `itunes:author`), `nil` without one.
    var prefix: String?
    /// The namespace the prefix (or the default namespace) is bound to; `nil`
    /// when none is, including for a prefix that was never declared.
    var namespaceURI: String?

    /// `prefix:localName` as written, or `localName` alone.
    var qualifiedName: String {
        prefix.map { "\($0):\(localName)" } ?? localName
    }
}

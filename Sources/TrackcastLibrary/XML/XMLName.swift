/// An element's name as libxml2 resolved it against the namespaces in scope.
/// One object per distinct name in a document, made the first time it is met:
/// a handler can keep what it makes of a name by `index` instead of comparing
/// strings at every element.
final class XMLName {
    let localName: String
    /// The prefix as written (`itunes` in `itunes:author`), `nil` without one.
    let prefix: String?
    /// The namespace the prefix (or the default namespace) is bound to; `nil`
    /// when none is, including for a prefix that was never declared.
    let namespaceURI: String?
    /// Names are numbered 0, 1, 2… in the order the document first uses them.
    let index: Int

    init(localName: String, prefix: String?, namespaceURI: String?, index: Int) {
        self.localName = localName
        self.prefix = prefix
        self.namespaceURI = namespaceURI
        self.index = index
    }

    /// `prefix:localName` as written, or `localName` alone.
    var qualifiedName: String {
        prefix.map { "\($0):\(localName)" } ?? localName
    }
}

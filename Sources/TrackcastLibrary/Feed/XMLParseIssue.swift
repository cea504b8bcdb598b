/// An error libxml2 reported through `XMLStreamReader`, and what Trackcast makes of it.
///
/// The reader runs libxml2 in recovery mode: it reports an error and reads on. Trackcast decides per error code. Mistakes that leave the document's
/// structure intact (an undeclared `&nbsp;`, a bare `&`, a stray control
/// character, an undeclared namespace prefix) are read past, as feed readers do;
/// the ampersand ones are repaired and the feed read again. Anything that breaks
/// the tree (a cut-off download, mismatched tags) makes the feed malformed.
struct XMLParseIssue: Equatable {
    /// libxml2's `xmlParserErrors` value.
    var code: Int
    var line: Int
    var column: Int

    enum Severity {
        /// Read past; the text around it is kept.
        case tolerated
        /// An ampersand problem `XMLEntityRepair` fixes.
        case repairable
        case fatal
    }

    var severity: Severity {
        switch code {
        case 22, 23, 26, 27, 68:
            // Entity reference without name or ';', undeclared entity, bare '&'.
            return .repairable
        case 6, 7, 8, 9,     // bad character references, characters XML forbids
             42, 203,        // an attribute given twice: libxml2 passes both, the last is kept
             64,             // XML declaration not at the very start (leading blank lines)
             99, 100,        // odd namespace URIs
             200, 201, 202:  // undeclared namespace prefixes
            return .tolerated
        default:
            return .fatal
        }
    }

    static let cutOffReason = "the feed ends before it is complete (was the download cut short?)"

    /// libxml2 ran out of document: extra content expected, or data ended inside a tag.
    var isEndOfInput: Bool { code == 5 || code == 77 }

    /// What went wrong, for `FeedParseError.malformedXML`.
    var reason: String {
        switch code {
        case 4: return "there is no XML content"
        case _ where isEndOfInput: return Self.cutOffReason
        case 34, 40, 44: return "a quoted value is not closed"
        case 38: return "an attribute value contains '<'"
        case 39, 43: return "an attribute value is not in quotes"
        case 41: return "an attribute has no value"
        case 45: return "a comment is not closed"
        case 63: return "a CDATA section is not closed"
        case 65, 73: return "a tag is not closed properly"
        case 76: return "a closing tag does not match the tag it should close"
        case 85, 86: return "there is content after the end of the feed"
        default: return "the XML is not well-formed (libxml2 error \(code))"
        }
    }
}

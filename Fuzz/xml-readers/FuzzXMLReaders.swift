import Foundation

/// libFuzzer entry comparing the two XML readers: any bytes, made UTF-8 as
/// `FeedInputDecoder` makes a feed, read by libxml2 (`XMLStreamReader`) and
/// by `XMLByteReader`. Where the byte reader reads a document at all, what
/// it told its handler must be what libxml2 tells, and libxml2 must have
/// found nothing wrong in it; a difference traps, which is a finding, and so
/// does a byte reader slower than the input's size allows (`SizeScaledTimeLimit`). Its
/// test twin (XMLByteReaderTests) runs fixed documents and mutations, with
/// the same `EventLog` (Tests/TrackcastLibraryTests/XML/XMLEventLog.swift).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLReaders(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let document = FeedInputDecoder.prepared(Data(bytes: bytes, count: count), httpContentType: nil)
    // Text wanted everywhere, or only in elements whose name starts with "t".
    for textElements in [[], ["t"]] {
        let libxml2 = EventLog(textElements: textElements)
        XMLStreamReader.read(document, into: libxml2)
        let scanned = EventLog(textElements: textElements)
        var read = false
        SizeScaledTimeLimit.check(bytes: document.count) { read = XMLByteReader.read(document, into: scanned) != nil }
        guard read else { continue }
        precondition(libxml2.issues.isEmpty, "the byte reader read a document libxml2 reports \(libxml2.issues) in")
        let expected = libxml2.finished()
        let actual = scanned.finished()
        if actual != expected {
            let index = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(actual.count, expected.count)
            fatalError("event \(index): \(index < actual.count ? actual[index] : "none") but libxml2: \(index < expected.count ? expected[index] : "none")")
        }
    }
    return 0
}

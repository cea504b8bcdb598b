import Foundation

/// libFuzzer entry for OPML import: any bytes read as a subscription list;
/// whatever it yields is written back out and must read again to the same list.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOPML(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let subscriptions = try? OPMLReader().read(Data(bytes: bytes, count: count)) else { return 0 }
    let written = OPMLWriter().write(subscriptions)
    guard let again = try? OPMLReader().read(written), again.map(\.feedURL) == subscriptions.map(\.feedURL) else {
        fatalError("OPML written from \(subscriptions.count) subscriptions does not read back the same")
    }
    return 0
}

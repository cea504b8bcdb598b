import Bindings
import Testing
@testable import TrackcastLibrary

/// The library's English download messages write sizes as the window does
/// through GLib (g_format_size), checked against GLib itself in this process
/// (the C locale: English words).
@Suite("Sizes in download messages")
struct DownloadErrorSizeTests {
    @Test("sizes read as g_format_size writes them", arguments: [
        0, 1, 999, 1000, 1_499, 65_536, 300_000, 999_949, 1_000_000, 1_234_567, 5_000_000_000, 1_500_000_000_000,
    ] as [Int64])
    func likeGLib(bytes: Int64) {
        #expect(DownloadError.size(bytes) == ByteSize.text(bytes))
    }

    @Test("a disk without room names both sizes")
    func notEnoughSpace() {
        #expect(DownloadError.notEnoughSpace(needed: 300_000, available: 65_536).errorDescription
                == "The file needs 300.0\u{A0}kB but the disk has 65.5\u{A0}kB free.")
    }
}

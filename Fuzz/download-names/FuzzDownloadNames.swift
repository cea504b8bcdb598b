import Foundation

/// libFuzzer entry for downloaded files' names: the input's lines are an
/// episode title, a response's media type and the media's URL. The name is
/// never empty, at most `DownloadFileName.maxBytes` long, has no path
/// separator, control character or character FAT and NTFS refuse, does not
/// start with a dot or end with a dot or space, and is no Windows device
/// name; the extension is a media file's, one mapped from a type, or "bin".
/// Anything else traps, and so does a title named slower than its size
/// allows (`SizeScaledTimeLimit`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDownloadNames(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    SizeScaledTimeLimit.check(bytes: count) {
        let name = DownloadFileName.sanitised(lines.first, fallback: "episode")
        guard !name.isEmpty, name.utf8.count <= DownloadFileName.maxBytes else { fatalError("name \(name.debugDescription)") }
        let refused = Set("/\\:*?\"<>|".unicodeScalars)
        guard !name.unicodeScalars.contains(where: { refused.contains($0) || $0.properties.generalCategory == .control }) else {
            fatalError("name \(name.debugDescription)")
        }
        guard name.first != ".", name.last != ".", name.last != " " else { fatalError("name \(name.debugDescription)") }
        let stem = name.split(separator: ".", maxSplits: 1).first.map { $0.uppercased().trimmingCharacters(in: .whitespaces) }
        guard !["CON", "PRN", "AUX", "NUL"].contains(stem ?? "") else { fatalError("device name \(name.debugDescription)") }

        let type = lines.count > 1 ? lines[1] : nil
        let url = lines.count > 2 ? URL(string: lines[2]) : nil
        let fileExtension = DownloadFileName.fileExtension(responseType: type, declaredType: nil,
                                                           url: url ?? URL(fileURLWithPath: "/episode"))
        guard fileExtension == "bin" || DownloadFileName.mediaExtensions.contains(fileExtension)
                || DownloadFileName.fileExtension(forType: type) == fileExtension else {
            fatalError("extension \(fileExtension.debugDescription)")
        }
    }
    return 0
}

/// What reading tags has learnt about one input, shared by every tag read
/// from it (`HTMLText`, `SafeMarkup`).
struct TagScan {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Bytes looked at while reading tags: tests hold it linear in the input.
    var steps = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }
}

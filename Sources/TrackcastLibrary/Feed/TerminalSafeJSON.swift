/// A JSON document as `JSONWriter` writes it: besides what JSON requires, it
/// escapes DEL and the C1 controls, so none of its bytes is a control a
/// terminal acts on (ESC, CSI, BEL and the rest; line breaks and tabs of its
/// own layout aside). Only the writer makes one, so the CLI prints it as it
/// stands, without looking at megabytes of a feed's JSON again.
///
/// Written when asked for: whole (`utf8`), or a piece at a time as it is
/// written (`write(inPiecesOf:to:)`), for a printer that need not hold it all.
public struct TerminalSafeJSON: Sendable {
    /// A little over the document's length, for `utf8`'s one reservation.
    private let estimatedSize: @Sendable () -> Int
    /// Writes the document's value (`finish` is the caller's).
    private let value: @Sendable (inout JSONWriter) -> Void

    init(estimatedSize: @escaping @Sendable () -> Int, value: @escaping @Sendable (inout JSONWriter) -> Void) {
        self.estimatedSize = estimatedSize
        self.value = value
    }

    /// The whole document, ending in a newline.
    public var utf8: [UInt8] {
        var json = JSONWriter(reservingCapacity: estimatedSize())
        value(&json)
        json.finish()
        return json.bytes
    }

    /// `utf8` handed to `output` in order, a piece at a time as it is written,
    /// each piece at most `pieceSize` bytes but for a single longer string.
    /// Each piece is valid only during its call: the next is written over it.
    public func write(inPiecesOf pieceSize: Int, to output: (UnsafeBufferPointer<UInt8>) -> Void) {
        withoutActuallyEscaping(output) { output in
            var json = JSONWriter(inPiecesOf: pieceSize, to: output)
            value(&json)
            json.finish()
        }
    }
}

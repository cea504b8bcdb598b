/// A JSON document as `JSONWriter` wrote it: besides what JSON requires, it
/// escapes DEL and the C1 controls, so none of its bytes is a control a
/// terminal acts on (ESC, CSI, BEL and the rest; line breaks and tabs of its
/// own layout aside). Only the writer makes one, so the CLI prints it as it
/// stands, without looking at megabytes of a feed's JSON again.
public struct TerminalSafeJSON: Sendable {
    public let utf8: [UInt8]

    init(writtenBy writer: JSONWriter) {
        utf8 = writer.bytes
    }
}

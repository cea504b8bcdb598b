/// One variant of an adaptive stream, as its master playlist lists it.
public struct StreamVariant: Sendable, Equatable {
    /// Its peak bitrate, in bit/s (HLS `BANDWIDTH`).
    public var bandwidth: Int
    /// Its video height in pixels (HLS `RESOLUTION`); nil without one.
    public var height: Int?

    public init(bandwidth: Int, height: Int?) {
        self.bandwidth = bandwidth
        self.height = height
    }
}

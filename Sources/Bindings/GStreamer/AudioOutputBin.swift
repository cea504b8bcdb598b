import CGStreamer
import CTrackcastAudio

/// playbin's audio sink: `volume ! sink` in a bin, with an effects bin put
/// in front of the volume when one is wanted, before an item starts or
/// while it plays (`Sources/CTrackcastAudio/audio-output.c` says how).
public final class AudioOutputBin: Element {
    /// The output's own volume element, before the sink.
    public let volume: Element

    public init(sink: Element) throws(GStreamerError) {
        GStreamer.initialize()
        guard let made = tc_audio_output_new(sink.element) else { throw .missingElement("volume") }
        volume = Element(tc_audio_output_get_volume(made), transfer: .none)
        super.init(made, transfer: .full)
    }

    /// Puts `effects` (one sink and one src pad) in front of the volume; a
    /// second one is ignored while the first is in or waiting.
    public func addEffects(_ effects: Element) {
        tc_audio_output_add_effects(element, effects.element)
    }

    /// Takes the effects out. Only while the pipeline is stopped.
    public func removeEffects() {
        tc_audio_output_remove_effects(element)
    }
}

import CGLib
import CGStreamer

/// The sound server's outputs, as a GStreamer device provider sees them.
public enum AudioSinks {
    /// The internal names of the sinks `provider` (e.g.
    /// "pulsedeviceprovider") finds now: a fresh query of the server, not a
    /// cached list, so a sink it has just removed is not in it. Blocks for a
    /// round trip to the server: not for the main thread. Nil if the
    /// provider is missing or its devices have no internal names. `server`,
    /// if given, is set as the provider's `server` property (the sound
    /// server to ask, as a sink's own `server` property names it).
    public static func names(from provider: String, server: String? = nil) -> Set<String>? {
        GStreamer.initialize()
        guard let made = gst_device_provider_factory_get_by_name(provider) else { return nil }
        defer { gst_object_unref(UnsafeMutableRawPointer(made)) }
        if let server {
            try? ObjectRef(UnsafeMutableRawPointer(made), transfer: .none).setProperty("server", server)
        }
        var names: Set<String> = []
        var list = gst_device_provider_get_devices(made)
        defer { g_list_free_full(list, { gst_object_unref($0) }) }
        while let node = list {
            list = node.pointee.next
            guard let device = node.pointee.data?.assumingMemoryBound(to: GstDevice.self),
                  gst_device_has_classes(device, "Audio/Sink") != 0 else { continue }
            let wrapped = ObjectRef(UnsafeMutableRawPointer(device), transfer: .none)
            guard let name = try? wrapped.property("internal-name", as: String.self) else { return nil }
            names.insert(name)
        }
        return names
    }
}

import CGLib

/// Messages through GLib's structured log, under the "Trackcast" domain, so
/// they follow GLib's rules: debug messages show (on stdout) with G_MESSAGES_DEBUG=Trackcast
/// (or =all) and go to the journal when run from a desktop session.
public enum Log {
    public static let domain = "Trackcast"

    /// Whether debug messages are shown (G_MESSAGES_DEBUG names the domain):
    /// for reports that cost something to gather.
    public static var isDebugOn: Bool { g_log_writer_default_would_drop(G_LOG_LEVEL_DEBUG, domain) == 0 }

    public static func debug(_ message: String) {
        guard stampsMicroseconds else { return write(message, level: G_LOG_LEVEL_DEBUG, priority: "7") }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        write("@\(Int(now.tv_sec) * 1_000_000 + now.tv_nsec / 1000) \(message)", level: G_LOG_LEVEL_DEBUG, priority: "7")
    }

    /// TRACKCAST_LOG_MICROSECONDS set: each debug message starts with the
    /// monotonic clock in microseconds ("@81234567 player bar: …"), for
    /// measuring steps shorter than the millisecond GLib stamps lines with.
    private static let stampsMicroseconds = getenv("TRACKCAST_LOG_MICROSECONDS") != nil
    public static func warning(_ message: String) { write(message, level: G_LOG_LEVEL_WARNING, priority: "4") }

    private static func write(_ message: String, level: GLogLevelFlags, priority: String) {
        domain.withCString { domainText in
            message.withCString { messageText in
                priority.withCString { priorityText in
                    var fields = [
                        GLogField(key: cString("GLIB_DOMAIN"), value: domainText, length: -1),
                        GLogField(key: cString("MESSAGE"), value: messageText, length: -1),
                        GLogField(key: cString("PRIORITY"), value: priorityText, length: -1),
                    ]
                    g_log_structured_array(level, &fields, gsize(fields.count))
                }
            }
        }
    }

    /// A static string's bytes live for the whole run, so the pointer stays valid.
    private static func cString(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

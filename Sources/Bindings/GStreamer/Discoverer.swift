import CGLib
import CGStreamer
import Synchronization

/// Discoverers alive in the process, for leak checks in tests.
private let liveDiscoverers = Atomic<Int>(0)

/// Probes URIs with GStreamer's discoverer: duration, streams, tags, chapters.
///
/// Each probe gets a GstDiscoverer of its own, run asynchronously on the
/// shared helper thread's main context. The synchronous discoverer cannot be
/// interrupted (`gst_discoverer_stop` only stops the asynchronous one), and a
/// blocked thread per probe would be a thread per click. When the awaiting
/// task is cancelled it gets `CancellationError` at once; the asynchronous
/// discoverer stops at once with its download, unless it probes a local file,
/// which it is left to finish (see `Probe.cancel`).
public enum Discoverer {
    /// How many discoverers exist right now.
    public static var liveCount: Int { liveDiscoverers.load(ordering: .relaxed) }

    /// Probes `uri`, giving up after `timeout`. `configureSource` is called
    /// on the helper thread with the source element (to set HTTP timeouts).
    /// Cancelling the calling task throws `CancellationError` and stops the
    /// probe (a local file's once it has finished).
    public static func probe(_ uri: String, timeout: Duration,
                             configureSource: (@Sendable (Element) -> Void)? = nil) async throws -> DiscoveredMedia {
        GStreamer.initialize()
        let probe = Probe(uri: uri, timeout: timeout, configureSource: configureSource)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                probe.start(continuation)
            }
        } onCancel: {
            probe.cancel()
        }
    }
}

/// One probe's life: started, then finished by the discoverer, by the time
/// limit inside it, or by cancellation, whichever comes first; the
/// continuation is resumed exactly once. The GstDiscoverer is created, used
/// and stopped only on the helper thread.
private final class Probe: Sendable {
    private struct State {
        var continuation: CheckedContinuation<DiscoveredMedia, any Error>?
        var isCancelled = false
        var isStarted = false
        /// The GstDiscoverer's address, holding the reference `gst_discoverer_new`
        /// gave; an address because pointers may not cross into the lock, and
        /// only the helper thread turns it back into a pointer.
        var discoverer: UInt?
        /// The discoverer's own pipeline, with a reference of ours, as an
        /// address (see `discoverer`); known once its source is set up.
        var pipeline: UInt?
        /// The discoverer has reported, so it is no longer processing.
        var isDiscovered = false
        /// The first error the discoverer's pipeline posted, with its details
        /// (the HTTP status) that the discoverer itself drops.
        var firstFailure: MessageFailure?
    }

    private let uri: String
    private let timeout: Duration
    private let configureSource: (@Sendable (Element) -> Void)?
    private let state = Mutex(State())

    init(uri: String, timeout: Duration, configureSource: (@Sendable (Element) -> Void)?) {
        self.uri = uri
        self.timeout = timeout
        self.configureSource = configureSource
    }

    func start(_ continuation: CheckedContinuation<DiscoveredMedia, any Error>) {
        let cancelledAlready = state.withLock { state in
            if state.isCancelled { return true }
            state.continuation = continuation
            return false
        }
        if cancelledAlready {
            continuation.resume(throwing: CancellationError())
            return
        }
        ContextThread.shared.schedule { self.begin() }
    }

    func cancel() {
        let continuation = state.withLock { state in
            state.isCancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(throwing: CancellationError())
        // A local file's probe is left to finish (milliseconds, and the
        // discoverer's time limit bounds it); its report tears it down.
        // Ended in the middle, GStreamer 1.22 loses what its demuxers were
        // building: oggdemux drops a half-scanned chain with its pads when
        // a read fails while it looks for the file's end (the leak check
        // found one such pad in about every second run, and a GstTask now
        // and then). Anything else is stopped at once, with its download.
        if !isLocalFile { ContextThread.shared.schedule { self.tearDown() } }
    }

    private var isLocalFile: Bool { uri.hasPrefix("file:") }

    /// On the helper thread: makes the discoverer and starts it.
    private func begin() {
        let go = state.withLock { state in
            guard !state.isCancelled, !state.isStarted else { return false }
            state.isStarted = true
            return true
        }
        guard go else { return }
        var error: UnsafeMutablePointer<GError>?
        guard let made = gst_discoverer_new(timeout.clockTime, &error) else {
            let failure = MessageFailure(error: GLibError(consuming: error!), debug: nil, httpStatus: nil, sourceFactory: nil)
            finish(.failure(DiscoveryError.failed(failure)))
            return
        }
        liveDiscoverers.add(1, ordering: .relaxed)
        let discoverer = ObjectRef(UnsafeMutableRawPointer(made), transfer: .none)
        let discovered: @convention(c) (gpointer?, gpointer?, gpointer?, gpointer?) -> Void = { _, info, error, userData in
            SignalHandlerBox<DiscoveredHandler>.from(userData).handler(OpaquePointer(info!),
                                                                      error?.assumingMemoryBound(to: GError.self))
        }
        discoverer.connect(signal: "discovered", trampoline: unsafeBitCast(discovered, to: GCallback.self),
                           box: SignalHandlerBox<DiscoveredHandler> { [self] info, error in
                               self.discovered(info, error)
                           })
        discoverer.onElementSignalFromAnyThread("source-setup") { [self] (source: Element) in
            configureSource?(source)
            let pipeline = source.topLevel
            let isFirst = state.withLock { state in
                guard state.pipeline == nil else { return false }
                g_object_ref(pipeline.objectPointer)
                state.pipeline = UInt(bitPattern: pipeline.objectPointer)
                return true
            }
            guard isFirst else { return }
            pipeline.bus?.onErrorSynchronously { [self] (failure: MessageFailure) in
                state.withLock { state in
                    if state.firstFailure == nil { state.firstFailure = failure }
                }
            }
        }
        let address = UInt(bitPattern: made)
        state.withLock { $0.discoverer = address }
        gst_discoverer_start(made)
        gst_discoverer_discover_uri_async(made, uri)
    }

    private typealias DiscoveredHandler = @Sendable (OpaquePointer, UnsafeMutablePointer<GError>?) -> Void

    /// On the helper thread, inside the discoverer's signal emission.
    private func discovered(_ info: OpaquePointer, _ error: UnsafeMutablePointer<GError>?) {
        state.withLock { $0.isDiscovered = true }
        let result: Result<DiscoveredMedia, any Error>
        switch gst_discoverer_info_get_result(info) {
        case GST_DISCOVERER_OK:
            result = .success(DiscoveredMedia(info))
        case GST_DISCOVERER_TIMEOUT:
            result = .failure(DiscoveryError.timedOut)
        case GST_DISCOVERER_MISSING_PLUGINS:
            result = .failure(DiscoveryError.missingPlugins(Self.missingPlugins(info)))
        case GST_DISCOVERER_URI_INVALID:
            result = .failure(DiscoveryError.invalidURI)
        default:
            let captured = state.withLock { $0.firstFailure }
            let fallback = MessageFailure(error: error.map { GLibError(consuming: g_error_copy($0)) }
                                              ?? GLibError(domain: "gst-core-error-quark", code: 1, message: "discovery failed"),
                                          debug: nil, httpStatus: nil, sourceFactory: nil)
            result = .failure(DiscoveryError.failed(captured ?? fallback))
        }
        finish(result)
        // Not from inside the emission: the discoverer is still using itself.
        ContextThread.shared.schedule { self.tearDown() }
    }

    /// The installer details read "gstreamer|1.0|discoverer|Opus decoder|decoder-audio/x-opus";
    /// the fourth field is the description meant for people.
    private static func missingPlugins(_ info: OpaquePointer) -> [String] {
        var descriptions: [String] = []
        guard var cursor = gst_discoverer_info_get_missing_elements_installer_details(info) else { return [] }
        while let detail = cursor.pointee {
            let fields = String(cString: detail).split(separator: "|", omittingEmptySubsequences: false)
            descriptions.append(fields.count > 3 ? String(fields[3]) : String(cString: detail))
            cursor += 1
        }
        return descriptions
    }

    private func finish(_ result: Result<DiscoveredMedia, any Error>) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    /// On the helper thread: stops the discoverer (and its download) and lets it go.
    ///
    /// GStreamer 1.22's gst_discoverer_stop deadlocks on a probe still in
    /// progress: it sets the pipeline to READY while holding its lock, and
    /// the pads that removes call back into the discoverer for the same lock.
    /// So a probe in progress is first ended the way the discoverer ends
    /// probes itself: an end-of-stream on its bus makes it report what it
    /// has and bring its pipeline (and the download) down without the lock;
    /// its report schedules this again, and then stopping is safe.
    private func tearDown() {
        let (address, pipelineAddress, isDiscovered) = state.withLock { state in
            (state.discoverer, state.pipeline, state.isDiscovered)
        }
        guard let address, let discoverer = UnsafeMutablePointer<GstDiscoverer>(bitPattern: address) else { return }
        let pipeline = pipelineAddress.flatMap { UnsafeMutablePointer<GstElement>(bitPattern: $0) }
        if !isDiscovered, let pipeline {
            let object = UnsafeMutableRawPointer(pipeline).assumingMemoryBound(to: GstObject.self)
            gst_element_post_message(pipeline, gst_message_new_eos(object))
            return
        }
        state.withLock { state in
            state.discoverer = nil
            state.pipeline = nil
        }
        gst_discoverer_stop(discoverer)
        if let pipeline { g_object_unref(pipeline) }
        // Finalising it releases the signal handlers' boxes, and with them this probe.
        g_object_unref(discoverer)
        liveDiscoverers.subtract(1, ordering: .relaxed)
    }
}

import Bindings
import TrackcastCore

/// Turns what GStreamer reported into a `PlaybackError`.
///
/// GStreamer's HTTP source names the HTTP status in its error details, but a
/// refused connection or an unknown host reaches the bus only as a generic
/// stream error; for network sources without a status the classifier asks
/// GIO by opening a connection itself, and classifies from GIO's error code.
struct PlaybackErrorClassifier: Sendable {
    /// How long each step of the connection check may take: a server that
    /// takes longer to answer a HEAD request counts as timed out.
    var checkTimeout: Duration

    /// Classifies the first error a pipeline posted for `uri`; `missingPlugins`
    /// are the descriptions of missing-plugin messages seen before it.
    func classify(_ failure: MessageFailure, uri: String, missingPlugins: [String]) async -> PlaybackError {
        // With libsoup 2 the source reports transport failures as "statuses"
        // below 100 (4 is "cannot connect"): those are for the network check.
        if let status = failure.httpStatus, (100...599).contains(status) { return .httpStatus(status) }
        let code = GStreamerErrorCode(failure.error)
        if !missingPlugins.isEmpty, code != .resource(.notFound) {
            return .missingCodec(missingPlugins.joined(separator: ", "))
        }
        switch code {
        case .core(.missingPlugin), .stream(.codecNotFound):
            return .missingCodec(failure.error.message)
        case .stream(.typeNotFound), .stream(.wrongType), .stream(.notImplemented), .stream(.decrypt):
            return .unsupportedMedia
        case .stream(.decode), .stream(.demux), .stream(.format):
            return .corruptMedia
        default:
            break
        }
        if Self.isNetwork(uri) {
            if Self.saysTimedOut(failure) { return .timeout }
            switch code {
            case .resource, .stream(.failed):
                return await diagnoseNetwork(uri)
            default:
                return .other(failure.error.message)
            }
        }
        switch code {
        case .resource(.notFound), .resource(.openRead), .resource(.notAuthorized):
            return .fileNotFound
        default:
            return .other(failure.error.message)
        }
    }

    /// Classifies a failed discoverer probe.
    func classify(_ error: DiscoveryError, uri: String) async -> PlaybackError {
        switch error {
        case .timedOut: .timeout
        case .missingPlugins(let descriptions): .missingCodec(descriptions.joined(separator: ", "))
        case .invalidURI: .unsupportedMedia
        case .failed(let failure): await classify(failure, uri: uri, missingPlugins: [])
        }
    }

    /// The source reached nothing, or lost what it reached: GIO tells which.
    private func diagnoseNetwork(_ uri: String) async -> PlaybackError {
        switch await ConnectionCheck.run(uri, timeout: checkTimeout) {
        case .hostNotFound: .offline(.hostNotFound)
        case .connectionRefused: .offline(.connectionRefused)
        case .networkUnreachable: .offline(.networkUnreachable)
        case .timedOut: .timeout
        // The server answers, so the transfer itself broke.
        case .answered: .connectionLost
        // Connected, but the server hung up or reset without an answer.
        case .failed: .connectionLost
        }
    }

    static func isNetwork(_ uri: String) -> Bool {
        let lowered = uri.lowercased()
        return lowered.hasPrefix("http:") || lowered.hasPrefix("https:")
    }

    /// GIO's "Socket I/O timed out" surfaces in the source's debug text.
    private static func saysTimedOut(_ failure: MessageFailure) -> Bool {
        let text = (failure.error.message + " " + (failure.debug ?? "")).lowercased()
        return text.contains("timed out") || text.contains("timeout")
    }
}

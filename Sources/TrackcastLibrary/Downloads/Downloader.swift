import Foundation

/// Downloads episodes' media into the downloads folder (by default
/// `downloads` in the library directory), one folder per show.
///
/// A download goes to a hidden partial file (`.episode-ID.part`) and is
/// renamed to its real name only once the length the server announced is on
/// disk; the store says `complete` only after that. A download that stops
/// (error, cancel, the process killed) keeps its partial file and resumes
/// from it with a Range request next time.
public actor Downloader {
    public nonisolated let directory: URL
    private let store: LibraryStore
    private let client: HTTPClient
    private let options: DownloadOptions
    private var running: [EpisodeID: Task<URL, any Error>] = [:]

    public init(store: LibraryStore, client: HTTPClient, directory: URL, options: DownloadOptions = DownloadOptions()) {
        self.store = store
        self.client = client
        self.directory = directory
        self.options = options
    }

    /// Where downloads go for the library in `libraryDirectory` unless configured otherwise.
    public static func defaultDirectory(inLibrary libraryDirectory: URL) -> URL {
        libraryDirectory.appendingPathComponent("downloads", isDirectory: true)
    }

    /// Downloads the episode's media (its first enclosure), or returns the
    /// file if it is already downloaded. A second call for an episode that is
    /// downloading waits for the same download. Throws `DownloadError`.
    public func download(_ episode: EpisodeID,
                         progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }) async throws -> URL {
        if let download = running[episode] { return try await download.value }
        let (store, client, directory, options) = (store, client, directory, options)
        let download = Task {
            try await Self.run(episode, store: store, client: client, directory: directory, options: options,
                               progress: progress)
        }
        running[episode] = download
        defer { running[episode] = nil }
        return try await withTaskCancellationHandler {
            try await download.value
        } onCancel: {
            download.cancel()
        }
    }

    /// Stops a running download; its partial file stays for a later resume.
    public func cancel(_ episode: EpisodeID) {
        running[episode]?.cancel()
    }

    /// Removes an episode's download, complete or partial: file and record.
    public func delete(_ episode: EpisodeID) async throws {
        // Wait for a running download to stop: it records its end, which must
        // come before the removal, not after it.
        if let download = running[episode] {
            download.cancel()
            _ = try? await download.value
        }
        // The record goes either way; a file it names outside the downloads
        // folder (a damaged or edited library) is not Trackcast's to delete.
        if let file = try await store.download(for: episode)?.file, DownloadFolder(directory).contains(file) {
            try Self.removeIfPresent(file)
            try Self.removeIfPresent(Self.validatorFile(of: file))
        }
        try await store.removeDownload(for: episode)
    }

    /// Deletes the downloads of episodes marked played before `cutoff`; returns whose.
    @discardableResult
    public func deletePlayedDownloads(playedBefore cutoff: Date) async throws -> [EpisodeID] {
        let played = try await store.playedDownloads(playedBefore: cutoff)
        for episode in played { try await delete(episode) }
        return played
    }

    private static func run(_ episode: EpisodeID, store: LibraryStore, client: HTTPClient, directory: URL,
                            options: DownloadOptions,
                            progress: @escaping @Sendable (DownloadProgress) -> Void) async throws -> URL {
        guard let detail = try await store.episode(episode) else { throw DownloadError.unknownEpisode(episode) }
        guard let enclosure = detail.enclosures.first else { throw DownloadError.noMedia }
        // Feeds only name web addresses (FeedURLResolver); this holds for libraries written before that rule.
        guard ["http", "https"].contains(enclosure.url.scheme?.lowercased() ?? "") else {
            throw DownloadError.notWebAddress(enclosure.url)
        }
        let previous = try await store.download(for: episode)
        let partial = directory.appendingPathComponent(".episode-\(episode.rawValue).part")
        if previous?.state == .complete, let file = previous?.file, FileManager.default.fileExists(atPath: file.path) {
            // A run killed between recording it complete and letting the partial name go.
            try? Self.removeIfPresent(partial)
            return file
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DownloadError.file("The downloads folder \(directory.path) cannot be created.")
        }
        let resumeFrom = Self.size(of: partial)
        try await store.setDownload(DownloadRecord(state: .downloading, file: partial, bytes: resumeFrom,
                                                   total: previous?.total), for: episode)
        do {
            let result: MediaFileWriter.Result
            do {
                result = try await transfer(enclosure.url, to: partial, resumeFrom: resumeFrom, client: client,
                                            timeouts: options.timeouts, episode: episode, progress: progress)
            } catch DownloadError.unexpectedRange where resumeFrom > 0 {
                // What we have is not a prefix of what the server has now: start over.
                result = try await transfer(enclosure.url, to: partial, resumeFrom: 0, client: client,
                                            timeouts: options.timeouts, episode: episode, progress: progress)
            }
            let size = Self.size(of: partial)
            if let total = result.total, size != total {
                throw DownloadError.incomplete(expected: total, received: size)
            }
            let extensionName = DownloadFileName.fileExtension(responseType: result.contentType,
                                                               declaredType: enclosure.mimeType, url: enclosure.url)
            let folder = directory.appendingPathComponent(
                DownloadFileName.sanitised(detail.summary.showTitle, fallback: "Show \(detail.summary.showID.rawValue)"),
                isDirectory: true)
            let file = try place(partial, in: folder, name: DownloadFileName.sanitised(
                detail.summary.title, fallback: "Episode \(episode.rawValue)"), extension: extensionName)
            try await store.setDownload(DownloadRecord(state: .complete, file: file, bytes: size, total: size),
                                        for: episode)
            // Only now: killed before the record said complete, the next run
            // finds the partial file whole and its visible name already linked.
            try? Self.removeIfPresent(partial)
            try? Self.removeIfPresent(Self.validatorFile(of: partial))
            return file
        } catch {
            let failure = Self.classify(error)
            // Bytes are kept for a resume; an empty partial file is only litter.
            let kept = Self.size(of: partial)
            if kept == 0 {
                try? Self.removeIfPresent(partial)
                try? Self.removeIfPresent(Self.validatorFile(of: partial))
            }
            try? await store.setDownload(DownloadRecord(state: .failed, file: kept > 0 ? partial : nil, bytes: kept,
                                                        total: previous?.total, error: failure.errorDescription),
                                         for: episode)
            throw failure
        }
    }

    private static func transfer(_ url: URL, to partial: URL, resumeFrom: Int64, client: HTTPClient,
                                 timeouts: HTTPTimeouts, episode: EpisodeID,
                                 progress: @escaping @Sendable (DownloadProgress) -> Void) async throws
        -> MediaFileWriter.Result {
        let validatorFile = Self.validatorFile(of: partial)
        let writer = try MediaFileWriter(file: partial, resumeFrom: resumeFrom, validatorFile: validatorFile) { bytes, total in
            progress(DownloadProgress(episode: episode, bytes: bytes, total: total))
        }
        // Media is already compressed; and a gzip-encoded body would make
        // byte ranges and the announced length count different bytes.
        var headers = ["Accept-Encoding": "identity"]
        if resumeFrom > 0 {
            headers["Range"] = "bytes=\(resumeFrom)-"
            // If-Range: the rest only if the file is still the one we started; else the whole new one.
            if let validator = try? String(contentsOf: validatorFile, encoding: .utf8), !validator.isEmpty {
                headers["If-Range"] = validator
            }
        }
        do {
            _ = try await client.get(url, headers: headers, timeouts: timeouts, receiver: writer)
        } catch HTTPError.network(let message) {
            // A connection that drops before the announced length is a
            // download cut short, which resuming mends: say that, not why.
            let result = writer.result
            guard let total = result.total, result.size < total else { throw HTTPError.network(message) }
            throw DownloadError.incomplete(expected: total, received: result.size)
        }
        try writer.synchronise()
        return writer.result
    }

    /// Beside the partial file: the validator (strong ETag or Last-Modified)
    /// of the response it came from, sent as If-Range when resuming.
    private static func isSameFile(_ first: URL, _ second: URL) -> Bool {
        var one = stat(), other = stat()
        return lstat(first.path, &one) == 0 && lstat(second.path, &other) == 0
            && one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }

    static func validatorFile(of partial: URL) -> URL {
        partial.appendingPathExtension("validator")
    }

    /// Gives the finished partial file its visible name, `name.ext` in
    /// `folder`, as a second link (the caller removes the partial name once
    /// the library says complete), adding " (2)", " (3)", … when another
    /// episode of the same title is already there. A name already linked to
    /// this very file, by a run killed before it recorded it, is taken again.
    private static func place(_ partial: URL, in folder: URL, name: String, extension fileExtension: String) throws -> URL {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw DownloadError.file("The folder \(folder.path) cannot be created.")
        }
        // The show's folder is one Trackcast made: a symbolic link in its place
        // (planted to send episodes elsewhere) is refused, not followed.
        var info = stat()
        guard lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw DownloadError.file("\(folder.path) is not a folder (a symbolic link?); it is not followed.")
        }
        var attempt = 1
        while true {
            let candidate = folder.appendingPathComponent(attempt == 1 ? "\(name).\(fileExtension)"
                                                                       : "\(name) (\(attempt)).\(fileExtension)")
            attempt += 1
            // link(2) then unlink(2) instead of rename(2): link fails if the name
            // is taken, where rename would silently replace another episode.
            if link(partial.path, candidate.path) == 0 { return candidate }
            switch errno {
            case EEXIST:
                if isSameFile(partial, candidate) { return candidate }
                continue
            case EPERM, ENOTSUP, EOPNOTSUPP:
                // A file system without hard links (FAT on a memory card): check, then rename.
                if FileManager.default.fileExists(atPath: candidate.path) { continue }
                guard rename(partial.path, candidate.path) == 0 else { throw MediaFileWriter.error(errno) }
                return candidate
            case let code:
                throw MediaFileWriter.error(code)
            }
        }
    }

    private static func classify(_ error: any Error) -> DownloadError {
        switch error {
        case let error as DownloadError: error
        case HTTPError.cancelled, is CancellationError: .cancelled
        case let error as HTTPError: .network(error)
        default: .file(String(describing: error))
        }
    }

    static func size(of file: URL) -> Int64 {
        var info = stat()
        return stat(file.path, &info) == 0 ? Int64(info.st_size) : 0
    }

    static func removeIfPresent(_ file: URL) throws {
        guard unlink(file.path) == 0 || errno == ENOENT else { throw MediaFileWriter.error(errno) }
    }
}

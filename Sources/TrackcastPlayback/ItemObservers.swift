import Synchronization
import TrackcastCore

/// Observer tasks alive in the process, for leak checks in tests.
private let liveObserverTasks = Atomic<Int>(0)

/// The observers of one loaded item: position ticks, boundary crossings,
/// seeks landing, what is learnt about the item, its one-time events and its end. They all belong to the item's load and are closed
/// with it: `close()` cancels the tasks and finishes every stream.
@MainActor
final class ItemObservers {
    /// Observer tasks (tick loops, boundary timers) running in the process.
    nonisolated static var liveTaskCount: Int { liveObserverTasks.load(ordering: .relaxed) }

    private let itemID: PlaybackItemID
    private let interval: Duration
    /// Reads the position, duration and rate when a tick or boundary check needs them.
    private let sample: @MainActor () -> (position: Duration?, duration: Duration?, rate: Double)

    private var tickStreams: [Int: AsyncStream<PositionTick>.Continuation] = [:]
    private var boundaryStreams: [Int: (times: [Duration], continuation: AsyncStream<Duration>.Continuation)] = [:]
    private var endStreams: [Int: AsyncStream<PlaybackItemID>.Continuation] = [:]
    private var seekStreams: [Int: AsyncStream<Duration>.Continuation] = [:]
    private var assetStreams: [Int: AsyncStream<LoadedAsset>.Continuation] = [:]
    private var eventStreams: [Int: AsyncStream<ItemEvent>.Continuation] = [:]
    private var nextID = 0

    private var tickTask: Task<Void, Never>?
    private var boundaryTask: Task<Void, Never>?
    /// Where the last boundary check saw playback; crossings are counted from here.
    private var checkedUpTo: Duration?
    private var isClosed = false

    init(itemID: PlaybackItemID, interval: Duration,
         sample: @escaping @MainActor () -> (position: Duration?, duration: Duration?, rate: Double)) {
        self.itemID = itemID
        self.interval = interval
        self.sample = sample
    }

    // MARK: Subscribing

    func positionTicks() -> AsyncStream<PositionTick> {
        let (stream, continuation) = AsyncStream.makeStream(of: PositionTick.self, bufferingPolicy: .bufferingNewest(1))
        guard !isClosed else { continuation.finish(); return stream }
        let id = takeID()
        tickStreams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.tickStreams[id] = nil }
        }
        return stream
    }

    func boundaries(_ times: [Duration]) -> AsyncStream<Duration> {
        let (stream, continuation) = AsyncStream.makeStream(of: Duration.self)
        guard !isClosed else { continuation.finish(); return stream }
        let id = takeID()
        boundaryStreams[id] = (times.sorted(), continuation)
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.boundaryStreams[id] = nil }
        }
        if checkedUpTo == nil { checkedUpTo = sample().position }
        armBoundaryTimer()
        return stream
    }

    func end() -> AsyncStream<PlaybackItemID> {
        let (stream, continuation) = AsyncStream.makeStream(of: PlaybackItemID.self)
        guard !isClosed else { continuation.finish(); return stream }
        let id = takeID()
        endStreams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.endStreams[id] = nil }
        }
        return stream
    }

    func seeks() -> AsyncStream<Duration> {
        let (stream, continuation) = AsyncStream.makeStream(of: Duration.self)
        guard !isClosed else { continuation.finish(); return stream }
        let id = takeID()
        seekStreams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.seekStreams[id] = nil }
        }
        return stream
    }

    func assetUpdates() -> AsyncStream<LoadedAsset> {
        let (stream, continuation) = AsyncStream.makeStream(of: LoadedAsset.self, bufferingPolicy: .bufferingNewest(1))
        guard !isClosed else { continuation.finish(); return stream }
        let id = takeID()
        assetStreams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.assetStreams[id] = nil }
        }
        return stream
    }

    /// Unbounded: every one-time fact reaches every subscriber, however slow.
    func events() -> AsyncStream<ItemEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: ItemEvent.self)
        guard !isClosed else { continuation.finish(); return stream }
        let id = takeID()
        eventStreams[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.eventStreams[id] = nil }
        }
        return stream
    }

    private func takeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    // MARK: Driven by the controller

    /// Playback started or resumed: tick now and every `interval`.
    func playbackStarted() {
        guard !isClosed, tickTask == nil else { return }
        let interval = self.interval
        tickTask = observerTask { [weak self] in
            while !Task.isCancelled, let self {
                self.tick()
                try? await Task.sleep(for: interval)
            }
        }
        checkedUpTo = sample().position ?? checkedUpTo
        armBoundaryTimer()
    }

    /// Paused, buffering, ended or failed: no ticks, no boundary timer.
    func playbackStopped() {
        tickTask?.cancel()
        tickTask = nil
        boundaryTask?.cancel()
        boundaryTask = nil
    }

    /// A seek jumps: boundaries between the old and the new position are not crossed.
    func jumped(to position: Duration) {
        checkedUpTo = position
        armBoundaryTimer()
    }

    /// The rate changed: the next boundary comes sooner or later.
    func rateChanged() { armBoundaryTimer() }

    /// A seek the user asked for has landed here.
    func seekLanded(at position: Duration) {
        for continuation in seekStreams.values { continuation.yield(position) }
    }

    func assetChanged(_ asset: LoadedAsset) {
        for continuation in assetStreams.values { continuation.yield(asset) }
    }

    func happened(_ event: ItemEvent) {
        for continuation in eventStreams.values { continuation.yield(event) }
    }

    func itemEnded() {
        checkBoundaries()
        playbackStopped()
        for continuation in endStreams.values {
            continuation.yield(itemID)
            continuation.finish()
        }
        endStreams.removeAll()
    }

    /// The item is gone: stop everything and finish every stream.
    func close() {
        isClosed = true
        playbackStopped()
        for continuation in tickStreams.values { continuation.finish() }
        for (_, continuation) in boundaryStreams.values { continuation.finish() }
        for continuation in endStreams.values { continuation.finish() }
        for continuation in seekStreams.values { continuation.finish() }
        for continuation in assetStreams.values { continuation.finish() }
        for continuation in eventStreams.values { continuation.finish() }
        eventStreams.removeAll()
        seekStreams.removeAll()
        assetStreams.removeAll()
        tickStreams.removeAll()
        boundaryStreams.removeAll()
        endStreams.removeAll()
    }

    // MARK: Work

    private func tick() {
        let now = sample()
        checkBoundaries()
        guard let position = now.position else { return }
        let tick = PositionTick(itemID: itemID, position: position, duration: now.duration, rate: now.rate)
        for continuation in tickStreams.values { continuation.yield(tick) }
    }

    /// Reports every boundary in (checkedUpTo, position] and moves on.
    private func checkBoundaries() {
        guard !boundaryStreams.isEmpty, let position = sample().position else { return }
        let from = checkedUpTo ?? position
        if position > from {
            // In the order they were asked for, so whoever asked first hears first.
            for id in boundaryStreams.keys.sorted() {
                guard let (times, continuation) = boundaryStreams[id] else { continue }
                for time in times where time > from && time <= position { continuation.yield(time) }
            }
        }
        checkedUpTo = max(from, position)
    }

    /// Sleeps until playback should reach the next boundary, so crossings are
    /// reported on time rather than at the next tick.
    private func armBoundaryTimer() {
        boundaryTask?.cancel()
        boundaryTask = nil
        guard !isClosed, tickTask != nil, let position = sample().position else { return }
        let rate = sample().rate
        let upcoming = boundaryStreams.values.flatMap(\.times).filter { $0 > position }.min()
        guard let upcoming, rate > 0 else { return }
        let wait = (upcoming - position) / rate
        boundaryTask = observerTask { [weak self] in
            try? await Task.sleep(for: wait)
            guard !Task.isCancelled, let self else { return }
            self.checkBoundaries()
            // The position may fall a little short of the boundary; look again soon.
            self.armBoundaryTimer()
        }
    }

    private func observerTask(_ body: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        liveObserverTasks.add(1, ordering: .relaxed)
        return Task { @MainActor in
            defer { liveObserverTasks.subtract(1, ordering: .relaxed) }
            await body()
        }
    }
}

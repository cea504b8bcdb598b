import Testing
import TrackcastCore

@Suite("Playback state store")
struct PlaybackStateStoreTests {
    /// Collects what a subscriber sees until `count` states have arrived.
    private func collect(_ stream: AsyncStream<PlaybackState>, count: Int) async -> [PlaybackState] {
        var seen: [PlaybackState] = []
        for await state in stream {
            seen.append(state)
            if seen.count == count { break }
        }
        return seen
    }

    @Test("a subscriber gets the current state first")
    func currentFirst() async {
        let store = PlaybackStateStore()
        let a = PlaybackItemID.next()
        await store.begin(itemID: a)
        await store.apply(.playing, for: a)
        let first = await collect(await store.updates(), count: 1)
        #expect(first == [PlaybackState(itemID: a, phase: .playing)])
    }

    @Test("events for an item that is no longer active are dropped")
    func staleDropped() async {
        let store = PlaybackStateStore()
        let updates = await store.updates(bufferingPolicy: .unbounded)
        let a = PlaybackItemID.next()
        let b = PlaybackItemID.next()
        await store.begin(itemID: a)
        await store.begin(itemID: b)
        #expect(await store.apply(.failed(.httpStatus(500)), for: a) == false)
        #expect(await store.apply(.playing, for: b))
        #expect(await collect(updates, count: 4) == [
            .initial,
            PlaybackState(itemID: a, phase: .loading),
            PlaybackState(itemID: b, phase: .loading),
            PlaybackState(itemID: b, phase: .playing),
        ])
        #expect(await store.state == PlaybackState(itemID: b, phase: .playing))
    }

    @Test("a begin that arrives after a newer one is ignored")
    func olderBeginIgnored() async {
        let store = PlaybackStateStore()
        let a = PlaybackItemID.next()
        let b = PlaybackItemID.next()
        await store.begin(itemID: b)
        await store.begin(itemID: a)
        #expect(await store.state.itemID == b)
    }

    @Test("duplicates are dropped, and a failure is final for its item")
    func duplicatesAndFailure() async {
        let store = PlaybackStateStore()
        let a = PlaybackItemID.next()
        await store.begin(itemID: a)
        #expect(await store.apply(.buffering(percent: 40), for: a))
        #expect(await store.apply(.buffering(percent: 40), for: a) == false)
        #expect(await store.apply(.buffering(percent: 60), for: a))
        #expect(await store.apply(.failed(.timeout), for: a))
        #expect(await store.apply(.playing, for: a) == false)
        #expect(await store.apply(.failed(.connectionLost), for: a) == false)
        #expect(await store.state.phase == .failed(.timeout))
    }

    @Test("a slow subscriber gets the newest state, not a backlog")
    func newestOnly() async {
        let store = PlaybackStateStore()
        let updates = await store.updates()
        let a = PlaybackItemID.next()
        await store.begin(itemID: a)
        for percent in [10, 20, 30] { await store.apply(.buffering(percent: percent), for: a) }
        await store.apply(.playing, for: a)
        #expect(await collect(updates, count: 1) == [PlaybackState(itemID: a, phase: .playing)])
    }

    @Test("a subscriber that stops listening is removed")
    func subscribersRemoved() async throws {
        let store = PlaybackStateStore()
        let listener = Task {
            for await _ in await store.updates() {}
        }
        while await store.subscriberCount == 0 { await Task.yield() }
        listener.cancel()
        for _ in 0..<200 where await store.subscriberCount > 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await store.subscriberCount == 0)
    }
}

@Suite("Playback errors")
struct PlaybackErrorTests {
    @Test("transient errors are retryable, the rest are not", arguments: [
        (PlaybackError.offline(.connectionRefused), true), (.offline(.hostNotFound), true), (.timeout, true),
        (.connectionLost, true), (.httpStatus(503), true), (.httpStatus(429), true), (.httpStatus(404), false),
        (.httpStatus(403), false), (.missingCodec("Opus decoder"), false), (.unsupportedMedia, false),
        (.corruptMedia, false), (.fileNotFound, false),
    ])
    func retryable(error: PlaybackError, retryable: Bool) {
        #expect(error.isRetryable == retryable)
        #expect(!error.message.isEmpty)
    }

    @Test("HTTP errors name their status; missing codecs name what is missing")
    func messages() {
        #expect(PlaybackError.httpStatus(410).message.contains("410"))
        #expect(PlaybackError.httpStatus(502).message.contains("502"))
        #expect(PlaybackError.missingCodec("Opus decoder").message.contains("Opus decoder"))
        #expect(PlaybackError.httpStatus(404).code == "http-404")
    }
}

import Bindings
import Foundation
import TrackcastCLI
import TrackcastCore
import TrackcastUI

// Synchronous top-level code on purpose: the main thread must stay free for
// the GLib main loop (an async main would park it in dispatch_main instead).

Localization.setUp()

let parser = CommandLineParser(commands: [
    FeedParseCommand.self,
    SubscribeCommand.self,
    UnsubscribeCommand.self,
    RefreshCommand.self,
    ShowsCommand.self,
    EpisodesCommand.self,
    SearchCommand.self,
    ImportOPMLCommand.self,
    ExportOPMLCommand.self,
    DownloadCommand.self,
    PlayCommand.self,
    SyncLoginCommand.self,
    SyncCommand.self,
    SyncLogoutCommand.self,
])
let invocation: Invocation
do {
    invocation = try parser.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    let hint = String(format: tr("Run '%@ --help' for usage."), AppIdentity.executable)
    FileHandle.standardError.write(Data("\(AppIdentity.executable): \(error.message)\n\(hint)\n".utf8))
    exit(2)
}

/// The GUI over the library and cache folders the command line and the environment name.
@MainActor func application() -> TrackcastApplication {
    let environment = ProcessInfo.processInfo.environment
    let library = LibraryLocation.resolve(option: invocation.libraryOption, environment: environment)
    let cache = CacheLocation.resolve(option: invocation.libraryOption, environment: environment, library: library)
    return TrackcastApplication(libraryDirectory: library, cacheDirectory: cache)
}

switch invocation.action {
case .help:
    print(parser.helpText, terminator: "")
case .version:
    print("\(AppIdentity.executable) \(AppIdentity.version)")
case .gui(let items):
    exit(application().run(items: items))
case .command(let call):
    if type(of: call.command).allocatesInOneBurst { BatchHeap.preferLargePages() }
    let environment = ProcessInfo.processInfo.environment
    let library = LibraryLocation.resolve(option: invocation.libraryOption, environment: environment)
    let cache = CacheLocation.resolve(option: invocation.libraryOption, environment: environment, library: library)
    exit(CommandRunner.run(call.command, context: .standard(libraryDirectory: library, cacheDirectory: cache,
                                                            secrets: Keyring())))
case .addPodcast:
    exit(application().run(activating: "add-podcast"))
case .dbusService:
    exit(application().runAsService())
}

import Foundation
import TrackcastCore
import TrackcastLibrary

/// `trackcast sync-login URL USER [--device NAME]`: logs in to a
/// gpodder.net-compatible server with the password read from standard input,
/// keeps the password in the keyring, and makes this library sync with it.
public struct SyncLoginCommand: CLICommand {
    public static let words = ["sync-login"]
    public static var summary: String { tr("Log in to a gpodder.net or Nextcloud sync server (password on standard input)") }
    public static let arguments = "URL USER [--device NAME]"

    let server: URL
    let user: String
    let device: String

    public init(parsing arguments: [String]) throws(UsageError) {
        var words = arguments[...]
        var positional: [String] = []
        var device: String?
        while let word = words.popFirst() {
            if word == "--device" {
                guard let name = words.popFirst() else { throw UsageError(tr("option --device needs a name")) }
                device = name
            } else if word.hasPrefix("--device=") {
                device = String(word.dropFirst("--device=".count))
            } else if word.hasPrefix("-") {
                throw UsageError(String(format: tr("unknown option '%@'"), word))
            } else {
                positional.append(word)
            }
        }
        guard positional.count == 2, !positional[1].isEmpty else {
            throw UsageError(String(format: tr("usage: trackcast %@ %@"), Self.name, Self.arguments))
        }
        guard let server = URL(string: positional[0]), let scheme = server.scheme?.lowercased(),
              scheme == "http" || scheme == "https", server.host != nil else {
            throw UsageError(String(format: tr("'%@' is not an http or https address"), positional[0]))
        }
        let name = device ?? SyncAccount.defaultDevice()
        guard SyncAccount.isValidDevice(name) else {
            throw UsageError(String(format: tr("'%@' is not a device name (letters, digits, '-', '_', '.')"), name))
        }
        self.server = server
        user = positional[1]
        self.device = name
    }

    @MainActor
    public func run(_ context: CommandContext) async -> Int32 {
        guard let secrets = context.secrets else {
            context.printError(tr("no keyring to keep the password in"))
            return 1
        }
        let read = context.readInput
        guard let password = await Task.detached(operation: { read() }).value, !password.isEmpty else {
            context.printError(tr("sync-login reads the password from standard input, and got none"))
            return 1
        }
        do {
            let library = try await LibraryAccess.open(context)
            let account = try await SyncLogin.logIn(server: server, user: user, password: password, device: device,
                                                    store: library.store, client: library.client)
            do {
                try await secrets.store(password, named: SyncSecret.name, label: SyncSecret.label(account))
            } catch {
                try? await library.store.stopSync()
                throw CommandFailure(String(format: tr("the password could not be kept in the keyring: %@"),
                                            String(describing: error)))
            }
            context.print(String(format: tr("Logged in to %@ as %@ (device %@)."), server.absoluteString, user, device))
            return 0
        } catch let error as SyncError {
            context.printError(String(format: tr("sync login failed: %@"), error.message))
            return 1
        } catch {
            context.printError(CommandFailure(error).message)
            return 1
        }
    }
}

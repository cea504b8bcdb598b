import Bindings
import TrackcastCLI

/// Runs a headless command on the main actor with the GLib main loop
/// driving it, the same arrangement as the GUI, so commands that play media
/// or talk to D-Bus work the same way as the app.
@MainActor
enum CommandRunner {
    static func run(_ command: any CLICommand, context: CommandContext) -> Int32 {
        MainQueueBridge.install()
        let loop = MainLoop()
        var status: Int32 = 1
        Task {
            status = await command.run(context)
            loop.quit()
        }
        loop.run()
        return status
    }
}

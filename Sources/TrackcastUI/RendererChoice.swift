import Bindings
import Foundation

/// Chooses, once, before the first window is made, how video reaches the
/// screen: GTK's renderer, and where frames are converted from YUV.
///
/// On a GPU: GTK's GL renderer, and frames converted and scaled by a shader
/// into GL textures it draws without copying (no CPU conversion at all). On
/// software GL (Mesa's llvmpipe: Xvfb, virtual machines, no GPU driver) GTK
/// 4.8's GL renderer is what costs: measured here with a 1080p30 clip it
/// took 3–7 times the CPU per frame of cairo, with or without the shader
/// (docs/BENCHMARKS.md). There, and without GL, frames are converted and
/// scaled on the CPU at the drawn size and GTK draws with cairo, which
/// copies them. `TRACKCAST_VIDEO_GPU=1` converts on the GPU even on
/// software GL, `=0` never; a `GSK_RENDERER` of the user's own always
/// wins, with frames converted on the GPU only when it names GL.
enum RendererChoice {
    /// "1" converts video on the GPU wherever GL works, "0" never.
    static let environmentVariable = "TRACKCAST_VIDEO_GPU"

    /// What `apply()` chose: convert video frames on the GPU.
    @MainActor private(set) static var videoOnGPU = false
    /// What `apply()` chose: GTK draws with cairo.
    @MainActor private(set) static var drawsWithCairo = false

    struct Choice: Equatable {
        /// The GSK_RENDERER to set; nil leaves GTK's (or the user's) own.
        var gskRenderer: String?
        var videoOnGPU: Bool
        var drawsWithCairo: Bool
    }

    private static let softwareRenderers = ["llvmpipe", "softpipe", "swrast"]
    private static let glRendererNames = ["gl", "ngl", "opengl"]

    /// The decision, from the GL renderer GDK would use (nil: no GL), the
    /// user's GSK_RENDERER, and TRACKCAST_VIDEO_GPU (true, false or unset).
    static func choose(glRenderer: String?, userRenderer: String?, gpuConversion: Bool?) -> Choice {
        if let userRenderer {
            let gl = glRenderer != nil && glRendererNames.contains(userRenderer)
            return Choice(gskRenderer: nil, videoOnGPU: gl && gpuConversion != false,
                          drawsWithCairo: userRenderer == "cairo")
        }
        guard let glRenderer else { return Choice(gskRenderer: "cairo", videoOnGPU: false, drawsWithCairo: true) }
        let software = softwareRenderers.contains { glRenderer.lowercased().contains($0) }
        switch (software, gpuConversion) {
        case (_, true?), (false, nil): return Choice(gskRenderer: "gl", videoOnGPU: true, drawsWithCairo: false)
        case (true, _): return Choice(gskRenderer: "cairo", videoOnGPU: false, drawsWithCairo: true)
        case (false, false?): return Choice(gskRenderer: nil, videoOnGPU: false, drawsWithCairo: false)
        }
    }

    /// What `prepareDisplay()` did to GDK_DEBUG: its value before (nil:
    /// unset), to put back once GTK has read it; nil when GL was left alone.
    @MainActor private static var debugBeforeGLDisabled: String??

    /// Whether GL is not worth loading at all: with no GPU device, GL can
    /// only be software, where `choose` picks cairo and the CPU anyway.
    /// A GSK_RENDERER of the user's own, or video on the GPU asked for,
    /// keeps GL.
    static func skipsGL(environment: [String: String], hasGPUDevice: Bool) -> Bool {
        !hasGPUDevice && environment["GSK_RENDERER"] == nil && environment[environmentVariable] != "1"
    }

    /// A DRM node (Mesa's and most drivers' way to a GPU, also inside a
    /// Flatpak with the dri device) or NVIDIA's own device.
    static var hasGPUDevice: Bool {
        let nodes = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return nodes.contains { $0.hasPrefix("renderD") || $0.hasPrefix("card") }
            || FileManager.default.fileExists(atPath: "/dev/nvidia0")
    }

    /// Call before GTK starts: it reads GDK_DEBUG once. On a machine with no
    /// GPU, GDK would still load Mesa and LLVM to pick its X visual; told
    /// not to (GDK_DEBUG=gl-disable), a bare GTK window here is 26 MB
    /// resident instead of 87 MB and shows its first frame 30-70 ms sooner.
    @MainActor
    static func prepareDisplay() {
        let environment = ProcessInfo.processInfo.environment
        guard skipsGL(environment: environment, hasGPUDevice: hasGPUDevice) else { return }
        let debug = environment["GDK_DEBUG"]
        debugBeforeGLDisabled = .some(debug)
        setenv("GDK_DEBUG", [debug, "gl-disable"].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ","), 1)
    }

    /// Call after GTK is initialised and before any window is shown: GTK
    /// reads GSK_RENDERER once, when it makes its first renderer.
    @MainActor
    static func apply() {
        if let debug = debugBeforeGLDisabled {
            // Read already; programs started from here (a browser) get the user's own.
            if let debug { setenv("GDK_DEBUG", debug, 1) } else { unsetenv("GDK_DEBUG") }
        }
        let environment = ProcessInfo.processInfo.environment
        let glSkipped = debugBeforeGLDisabled != nil
        let renderer = glSkipped ? nil : GLRenderer.name
        let gpuConversion: Bool? = switch environment[environmentVariable] {
        case "1": true
        case "0": false
        default: nil
        }
        let choice = choose(glRenderer: renderer, userRenderer: environment["GSK_RENDERER"], gpuConversion: gpuConversion)
        if let gskRenderer = choice.gskRenderer { setenv("GSK_RENDERER", gskRenderer, 1) }
        videoOnGPU = choice.videoOnGPU
        drawsWithCairo = choice.drawsWithCairo
        let gl = glSkipped ? "not loaded: no GPU device" : renderer ?? "none"
        Log.debug("renderer: \(environment["GSK_RENDERER"] ?? choice.gskRenderer ?? "GTK's default"), "
                  + "video converted on the \(choice.videoOnGPU ? "GPU" : "CPU") (GL: \(gl))")
    }
}

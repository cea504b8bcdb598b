import CGLib
import CTrackcastVideo

/// What OpenGL GDK would draw with.
@MainActor
public enum GLRenderer {
    /// The GL_RENDERER string of a context on the default display, e.g.
    /// "llvmpipe (LLVM 15.0.6, 256 bits)"; nil when there is no GL.
    public static var name: String? {
        guard let name = tc_gl_renderer_name() else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }
}

import CGtk

/// Any GtkEventController, added to a widget with `Widget.addController`.
@MainActor
open class EventController: ObjectRef {}

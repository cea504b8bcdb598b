import Bindings
import TrackcastCore
import TrackcastLibrary

/// Asks for a feed address; `subscribe` is called with what was typed when
/// the user confirms.
@MainActor
struct AddPodcastDialog {
    private let dialog: MessageDialog

    init(transientFor parent: ApplicationWindow?, subscribe: @escaping @MainActor (String) -> Void) {
        dialog = MessageDialog(transientFor: parent, heading: tr("Add Podcast"),
                               body: tr("Enter the address of the podcast’s feed"))
        dialog.addResponse("cancel", label: tr("_Cancel"))
        dialog.addResponse("add", label: tr("_Add"), appearance: .suggested)
        dialog.setDefaultResponse("add", closeResponse: "cancel")
        dialog.setResponseEnabled("add", false)

        let address = EntryRow(title: tr("Feed Address"))
        address.activatesDefault()
        let rows = ListBox()
        rows.append(address)
        dialog.setExtraChild(rows)
        address.onChanged { [dialog] in
            dialog.setResponseEnabled("add", FeedAddress.url(from: address.text) != nil)
        }
        dialog.onResponse { response in
            if response == "add" { subscribe(address.text) }
        }
    }

    func present() { dialog.present() }
}

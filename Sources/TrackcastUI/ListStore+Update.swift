import Bindings

extension ListStore where Payload: Identifiable & Equatable {
    /// Shows `items`: when they are the ones listed already, in the same
    /// order, only rows whose content changed are replaced, so a list that
    /// refreshes while someone scrolls it keeps its place; otherwise the
    /// whole list is replaced.
    func update(to items: [Payload]) {
        guard items.count == count,
              items.indices.allSatisfy({ payload(at: $0)?.id == items[$0].id }) else {
            replaceAll(with: items)
            return
        }
        for index in items.indices where payload(at: index) != items[index] {
            splice(at: index, removing: 1, inserting: [items[index]])
        }
    }
}

/// What a refusal says: the description of the error `body` throws, or nil when it returns. For
/// tests that check the one line a user is shown for bad input.
public func errorText(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return String(describing: error)
    }
}

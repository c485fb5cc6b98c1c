import ServiceLifecycle

extension ServiceGroup {
    /// Runs `body` while this group (running in `tasks`) serves, then shuts the group down and
    /// waits for `tasks`, whether `body` returned or threw; `body`'s error wins over theirs.
    public func serving<Value>(
        _ tasks: inout ThrowingTaskGroup<Void, any Error>, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async throws -> Value {
        do {
            let value = try await body()
            await triggerGracefulShutdown()
            try await tasks.waitForAll()
            return value
        } catch {
            await triggerGracefulShutdown()
            try? await tasks.waitForAll()
            throw error
        }
    }
}

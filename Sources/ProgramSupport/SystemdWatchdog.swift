import ServiceLifecycle

/// systemd's view of a running service: `WATCHDOG=1` at half the `WatchdogSec=` interval while
/// it serves (as `sd_watchdog_enabled(3)` advises), and `STOPPING=1` as soon as the graceful
/// shutdown begins. Put it last in the service group: a group tells its services of the
/// shutdown in reverse order, so systemd hears of the stop first. Does nothing without
/// `NOTIFY_SOCKET`.
public struct SystemdWatchdog: Service {
    let notifier: SystemdNotifier

    public init(notifier: SystemdNotifier) {
        self.notifier = notifier
    }

    public func run() async throws {
        if let interval = notifier.watchdogInterval {
            let period = interval / 2
            while !Task.isCancelled, !Task.isShuttingDownGracefully {
                notifier.notify("WATCHDOG=1")
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: period) }
            }
        } else {
            try? await gracefulShutdown()
        }
        notifier.notify("STOPPING=1")
    }
}

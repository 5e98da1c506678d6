import Foundation
import Glibc

/// A process held to a share of one core (a cgroup's CPU quota), as on a much slower machine or a
/// much larger library: long work stays long enough to be interrupted, whatever this machine is.
///
/// The cgroup v2 `cpu` controller where the unified hierarchy has it, else cgroup v1's `cpu`
/// (a hybrid layout, as here). Processes in it go back to the root when it is released.
final class CPUThrottle {
    private let directory: String
    private let procs: String

    /// Holds `process` (every thread, and what it starts later) to `percent` of one core.
    init(_ process: Int32, percent: Int) throws {
        let name = "photolibd-throttle-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"
        let period = 100_000
        let quota = period * percent / 100
        let v2 = "/sys/fs/cgroup"
        if (try? String(contentsOfFile: v2 + "/cgroup.subtree_control", encoding: .utf8))?.split(separator: " ")
            .contains(where: { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "cpu" }) == true {
            directory = v2 + "/" + name
            procs = v2 + "/cgroup.procs"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            try "\(quota) \(period)".write(toFile: directory + "/cpu.max", atomically: false, encoding: .utf8)
        } else if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cpu/cpu.cfs_quota_us") {
            directory = "/sys/fs/cgroup/cpu/" + name
            procs = "/sys/fs/cgroup/cpu/cgroup.procs"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
            try "\(period)".write(toFile: directory + "/cpu.cfs_period_us", atomically: false, encoding: .utf8)
            try "\(quota)".write(toFile: directory + "/cpu.cfs_quota_us", atomically: false, encoding: .utf8)
        } else {
            throw TestFailure("no cgroup cpu controller to write here (neither cgroup v2's cpu.max nor v1's cpu.cfs_quota_us): this test holds the daemon to a share of a core, and needs root on a machine with one")
        }
        try "\(process)".write(toFile: directory + "/cgroup.procs", atomically: false, encoding: .utf8)
    }

    deinit {
        // Whatever is left in it goes back to the root's share, then the cgroup goes.
        let left = (try? String(contentsOfFile: directory + "/cgroup.procs", encoding: .utf8)) ?? ""
        for pid in left.split(separator: "\n") { try? String(pid).write(toFile: procs, atomically: false, encoding: .utf8) }
        rmdir(directory)
    }
}

import PhotoLibCore
import Testing

@Suite("Opening a sheet's page from a service's sandbox")
struct PageLaunchTests {
    let socket = "/run/user/1000/photolibd.sock"

    @Test("run by hand, or by a system unit with no user manager, photolibctl is started directly")
    func direct() {
        let byHand = PageLaunch.plan(photolibctl: "/usr/bin/photolibctl", request: 7, socket: socket,
                                     environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "DISPLAY": ":0"], systemdRun: "/usr/bin/systemd-run", unitSuffix: "a1")
        #expect(byHand == .direct(executable: "/usr/bin/photolibctl", arguments: ["ui", "--request", "7", "--socket", socket]))
        let systemUnit = PageLaunch.plan(photolibctl: "/usr/bin/photolibctl", request: 7, socket: socket,
                                         environment: ["INVOCATION_ID": "f00"], systemdRun: "/usr/bin/systemd-run", unitSuffix: "a1")
        #expect(systemUnit == byHand)
        let noSystemdRun = PageLaunch.plan(photolibctl: "/usr/bin/photolibctl", request: 7, socket: socket,
                                           environment: ["INVOCATION_ID": "f00", "XDG_RUNTIME_DIR": "/run/user/1000"], systemdRun: nil, unitSuffix: "a1")
        #expect(noSystemdRun == byHand)
    }

    @Test("in a user service, a transient unit of its own that lasts while the page and browser run, with the desktop's variables")
    func transient() {
        let launch = PageLaunch.plan(photolibctl: "/usr/bin/photolibctl", request: 7, socket: socket,
                                     environment: ["INVOCATION_ID": "f00", "XDG_RUNTIME_DIR": "/run/user/1000", "WAYLAND_DISPLAY": "wayland-0",
                                                   "HOME": "/home/alice"],
                                     systemdRun: "/usr/bin/systemd-run", unitSuffix: "a1")
        guard case .transientUnit(let unit, let systemdRun, let arguments) = launch else {
            Issue.record("expected a transient unit: \(launch)")
            return
        }
        #expect(unit == "photolibd-page-request-7-a1")
        #expect(systemdRun == "/usr/bin/systemd-run")
        #expect(arguments.prefix(5) == ["--user", "--collect", "--quiet", "--unit=photolibd-page-request-7-a1", "--property=ExitType=cgroup"])
        #expect(arguments.contains("--setenv=WAYLAND_DISPLAY=wayland-0"))
        #expect(!arguments.contains { $0.contains("HOME") }, "only the desktop's variables are passed")
        #expect(Array(arguments.suffix(6)) == ["/usr/bin/photolibctl", "ui", "--request", "7", "--socket", socket])
        #expect(arguments[arguments.count - 7] == "--")
    }
}

import PhotoLibCore
import Testing

@Suite("Sandbox arguments")
struct SandboxArgumentsTests {
    let arguments = SandboxArguments(
        app: AppID("org.example.Viewer")!, view: "/home/me/.local/share/photolibd/views/view-abc",
        endpoint: "/run/user/1000/photolibd-endpoints/view-abc", inbox: "/home/me/.local/share/photolibd/inboxes/view-abc", library: "/home/me/Pictures", runtimeDirectory: "/run/user/1000")

    @Test("the flatpak override takes away the home, the host, Pictures and the library, then gives the view read-only and the endpoint")
    func flatpak() {
        #expect(arguments.flatpakOverride == [
            "flatpak", "override", "--user", "--nofilesystem=host", "--nofilesystem=home", "--nofilesystem=xdg-pictures",
            "--nofilesystem=/home/me/Pictures", "--filesystem=/home/me/.local/share/photolibd/views/view-abc:ro",
            "--filesystem=xdg-run/photolibd-endpoints/view-abc", "--filesystem=/home/me/.local/share/photolibd/inboxes/view-abc",
            "--env=PHOTOLIBD_ENDPOINT=/run/user/1000/photolibd-endpoints/view-abc",
            "--env=PHOTOLIBD_VIEW=/home/me/.local/share/photolibd/views/view-abc",
            "--env=PHOTOLIBD_INBOX=/home/me/.local/share/photolibd/inboxes/view-abc", "org.example.Viewer",
        ])
        var elsewhere = arguments
        elsewhere.runtimeDirectory = nil
        #expect(elsewhere.flatpakOverride.contains("--filesystem=/run/user/1000/photolibd-endpoints/view-abc"))
    }

    @Test("bubblewrap binds the view read-only, the endpoint and the inbox, and sets where they are")
    func bubblewrap() {
        #expect(arguments.bubblewrap == [
            "--ro-bind", arguments.view, arguments.view, "--bind", arguments.endpoint, arguments.endpoint,
            "--bind", arguments.inbox!, arguments.inbox!,
            "--setenv", "PHOTOLIBD_ENDPOINT", arguments.endpoint, "--setenv", "PHOTOLIBD_VIEW", arguments.view,
            "--setenv", "PHOTOLIBD_INBOX", arguments.inbox!,
        ])
    }

    @Test("arguments are quoted for a shell only when they need it")
    func quoting() {
        #expect(SandboxArguments.shellQuoted("--filesystem=/a/b:ro") == "--filesystem=/a/b:ro")
        #expect(SandboxArguments.shellQuoted("/home/me/My Pictures") == "'/home/me/My Pictures'")
        #expect(SandboxArguments.shellQuoted("it's") == "'it'\\''s'")
        #expect(SandboxArguments.shellQuoted("") == "''")
        #expect(SandboxArguments.shellQuoted("$(rm -rf ~)") == "'$(rm -rf ~)'")
    }
}

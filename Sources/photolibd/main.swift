// One executable, three programs: which one runs is the name it was started by (argv[0]), as a
// multi-call binary does. photolibd-page and photolibd-portal are links to photolibd
// (scripts/link-programs in a build, scripts/install and the package), so every unit, D-Bus service
// file and `photolibctl ui` starts each by the same path as when they were programs of their own.
import ArgumentParser

switch Program.named(CommandLine.arguments.first) {
case .daemon: await PhotoLibd.start()
case .page: await PhotoLibdPage.start()
case .portal: PhotoLibdPortal.main()
}

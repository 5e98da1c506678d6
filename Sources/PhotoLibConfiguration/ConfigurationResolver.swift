import PhotoLibCore
import PhotoLibSystem

extension DaemonConfiguration {
    /// The configuration in force: flags, then the config file, then embedded defaults.
    ///
    /// The config file is `explicitFile` when given (it must exist), else
    /// `DefaultPaths.configFile` when that exists. `photolibd` and
    /// `photolibctl doctor` both resolve through here, so they agree on the paths.
    public static func resolve(configFile explicitFile: String?, flags: CommandLineOverrides) throws(PhotoLibError) -> DaemonConfiguration {
        var resolved = DaemonConfiguration.defaults()
        var file = explicitFile
        if file == nil {
            do {
                if try PathInspection.lookUp(DefaultPaths.configFile) != nil { file = DefaultPaths.configFile }
            } catch {
                // Not "no file": a file that may exist is not read. Said, not fatal: the flags
                // may name everything (a service run as another user with HOME unreachable).
                resolved.warnings.append(
                    "Cannot tell whether the configuration file \(DefaultPaths.configFile) exists (\(error)); "
                        + "going on with the flags and the embedded defaults. Make its directory readable by this user, or pass --config.")
            }
        }
        if let file {
            try ConfigurationFile.load(path: file).apply(to: &resolved)
        }
        resolved.apply(flags: flags)
        return resolved
    }
}

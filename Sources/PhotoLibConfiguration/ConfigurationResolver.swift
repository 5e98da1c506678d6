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
        if let file = explicitFile ?? (PathInspection.status(DefaultPaths.configFile) != nil ? DefaultPaths.configFile : nil) {
            try ConfigurationFile.load(path: file).apply(to: &resolved)
        }
        resolved.apply(flags: flags)
        return resolved
    }
}

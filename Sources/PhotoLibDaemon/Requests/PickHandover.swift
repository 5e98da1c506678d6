import Dispatch
import Glibc
import PhotoLibCore
import PhotoLibMetadata
import PhotoLibProtocol
import PhotoLibSystem

/// The owner of what a pick hands the app (PHPickerViewController's result): each chosen file as it is,
/// or a private copy when it holds what the app may not have (taken out of the copy), when the app runs as
/// the owner (a copy of its own is all it may keep), or when the app reads no other type than JPEG (made
/// from it). Sealed, so the app cannot write into what another reads.
///
/// It works on files already opened and checked on the engine (`PreparedPick`), off the engine: a copy
/// without reflinks takes as long as the file is big.
enum PickHandover {
    /// One file handed over: what the app receives, its size, and whether it is a copy.
    struct Handed: Sendable {
        let fd: FileDescriptor
        let size: Int64
        let copied: Bool
        /// The original's type, when this is a JPEG made from it.
        var converted: String?
    }

    /// The files of a prepared pick, made on a Dispatch thread: never one of Swift's few task threads.
    static func files(for prepared: PreparedPick, fallback: String) async throws -> [Handed] {
        let assets = prepared.opened.map { file in
            prepared.deliveries.first { $0.members.contains(file.member) }?.asset.id.rawValue ?? "?"
        }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result {
                    try handedNow(prepared.opened, assets: assets, removal: prepared.removal, locationAllowed: prepared.locationAllowed,
                                  fallback: fallback)
                })
            }
        }
    }

    /// What the app is told with its files: each asset by the app's own ID, each file by its name (a JPEG
    /// made from it named so), its size as handed and whether it is a copy.
    static func reply(to requestID: Int64, _ prepared: PreparedPick, _ files: [Handed]) -> PickResult {
        var handed = files.makeIterator()
        return PickResult(request: requestID, state: "picked", assets: prepared.deliveries.map { delivery in
            PickedAsset(id: (prepared.ids?.id(for: delivery.asset.id) ?? delivery.asset.id).rawValue, mediaType: delivery.asset.mediaType.rawValue,
                        files: delivery.members.map { member in
                let file = handed.next()
                let name = member.path.lastComponent?.escaped ?? member.path.escaped
                return PickedFile(name: file?.converted == nil ? name : FormatDecision.jpegName(name), mediaType: member.mediaType.rawValue,
                                  size: file?.size ?? member.file.size, mtime: member.file.modificationTime, copy: file?.copied == true ? true : nil,
                                  converted: file?.converted)
            })
        })
    }

    /// The files to hand over, in order, on the calling thread (`files(for:fallback:)` runs it off the
    /// pool): each original (or derivative) as it is, or a private copy when it holds what the app may not
    /// have (taken out of the copy) or the app runs as the owner. `assets` names each file's asset in errors.
    /// All or nothing: on an error, everything made or still open is closed.
    static func handedNow(_ opened: [PreparedPick.OpenedMember], assets: [String], removal: MetadataRemoval, locationAllowed: Bool,
                          fallback: String) throws -> [Handed] {
        var fallbackDirectory: FileDescriptor?
        defer { fallbackDirectory?.close() }
        do {
            fallbackDirectory = try Directory.open(path: fallback)
        } catch {
            fallbackDirectory = nil  // then the album's own directory must hold the copy
        }
        var files: [Handed] = []
        for (position, file) in opened.enumerated() {
            let asset = position < assets.count ? assets[position] : "?"
            do {
                files.append(try handed(file, removal: removal, locationAllowed: locationAllowed, fallback: fallbackDirectory, asset: asset))
            } catch {
                // Everything made or still open is closed: nothing half-delivered. (A file handed
                // as it is is its original; one copied had its original closed.)
                for made in files { made.fd.close() }
                for rest in opened[position...] {
                    rest.original.close()
                    rest.copyDirectory.close()
                }
                throw error
            }
        }
        return files
    }

    /// One file: as it is, or copied (converted to JPEG where the app reads no other type) and
    /// stripped (`AppMetadataStripper`). Closes what it no longer needs.
    private static func handed(_ file: PreparedPick.OpenedMember, removal: MetadataRemoval, locationAllowed: Bool,
                                           fallback: FileDescriptor?, asset: String) throws -> Handed {
        let path = file.member.path.escaped
        var converted: String?
        let writable: FileDescriptor
        if case .jpeg(let from) = file.format {
            writable = try convertedToJPEG(file, from: from, fallback: fallback, asset: asset, locationAllowed: locationAllowed)
            converted = from
        } else {
            let plan: AppMetadataStripper.Plan?
            do {
                plan = try AppMetadataStripper.plan(file.original, removal: removal)
            } catch {
                throw PhotoLibError.pick(.metadataStays(asset: asset, path: path, reason: error.description))
            }
            guard plan != nil || file.mustCopy else {
                file.copyDirectory.close()
                return Handed(fd: file.original, size: file.size, copied: false)
            }
            do {
                writable = try FileCopy.unnamedCopy(of: file.original, in: file.copyDirectory, fallback: fallback)
            } catch {
                throw PhotoLibError.pick(.cannotCopy(asset: asset, path: path, errno: error.errno))
            }
        }
        do {
            if let plan = try AppMetadataStripper.plan(writable, removal: removal) {
                try AppMetadataStripper.strip(writable, path: writable.procPath, plan: plan, removal: removal)
            }
        } catch {
            writable.close()
            throw PhotoLibError.pick(.metadataStays(asset: asset, path: path, reason: error.description))
        }
        let sealed: FileDescriptor
        let size: Int64
        do {
            sealed = try FileCopy.sealed(writable)
        } catch {
            throw PhotoLibError.pick(.cannotCopy(asset: asset, path: path, errno: error.errno))
        }
        do {
            size = try Directory.status(of: sealed).size
        } catch {
            sealed.close()
            throw PhotoLibError.pick(.cannotCopy(asset: asset, path: path, errno: error.errno))
        }
        file.original.close()
        file.copyDirectory.close()
        return Handed(fd: sealed, size: size, copied: true, converted: converted)
    }

    /// A JPEG made from the member by `photolibd-thumbnailer --to-jpeg`, in an unnamed writable file; without
    /// location when the app may not have it (made from the derivative, and checked again here).
    private static func convertedToJPEG(_ file: PreparedPick.OpenedMember, from: String, fallback: FileDescriptor?, asset: String,
                                                    locationAllowed: Bool) throws -> FileDescriptor {
        let path = file.member.path.escaped
        // The converter: beside photolibd in a build, in libexec/photolibd where installed.
        let converter: String
        do {
            converter = try HelperExecutables.path("photolibd-thumbnailer")
        } catch {
            throw PhotoLibError.pick(.cannotConvert(asset: asset, path: path, reason: "\(error.message)"))
        }
        let writable: FileDescriptor
        do {
            writable = try FileCopy.unnamedFile(in: file.copyDirectory, fallback: fallback)
        } catch {
            throw PhotoLibError.pick(.cannotCopy(asset: asset, path: path, errno: error.errno))
        }
        do {
            let making = FileFormat.jpegMaking(from: from) ?? .decoding
            try ConverterProcess.run(converter, making == .embeddedPreview ? ["--to-jpeg", "--from-preview"] : ["--to-jpeg"],
                                     input: file.original, output: writable)
            if !locationAllowed {
                try LocationStripper.strip(writable, path: writable.procPath)
                try LocationStripper.verifyStripped(writable)
            }
        } catch {
            writable.close()
            throw PhotoLibError.pick(.cannotConvert(asset: asset, path: path, reason: "\(error)"))
        }
        return writable
    }
}

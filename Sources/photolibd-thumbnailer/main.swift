import Foundation

// photolibd-thumbnailer: one of the page server's decoder processes (or, with --to-jpeg, the
// daemon's converter of one picked photo for an app that cannot read its format; with --from-preview,
// a raw file's embedded JPEG). It makes thumbnails
// with libvips (ffmpegthumbnailer for a video's frame) for requests on its standard input,
// a socket pair with photolibd-page, which starts it; it is not for running by hand.
// Its own executable so that the page server maps no image decoder at all: a crash, a hang
// or a memory hog in a decoder costs this process, and the server stays small.

let usage = """
    usage: photolibd-thumbnailer [--memory BYTES] [--idle SECONDS]   (started by photolibd-page)
           photolibd-thumbnailer --to-jpeg [--from-preview] [--memory BYTES] < IMAGE > JPEG   (started by photolibd for a pick)
    """

func refuse(_ why: String) -> Never {
    FileHandle.standardError.write(Data("photolibd-thumbnailer: \(why)\n\(usage)\n".utf8))
    exit(2)
}

var memory: UInt64 = 1 << 30
var idle: Double = 30
var toJPEG = false
var fromPreview = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--memory":
        guard let value = arguments.popFirst().flatMap(UInt64.init) else { refuse("--memory needs a number of bytes.") }
        memory = value
    case "--idle":
        guard let value = arguments.popFirst().flatMap(Double.init), value > 0 else { refuse("--idle needs a number of seconds.") }
        idle = value
    case "--to-jpeg":
        toJPEG = true
    case "--from-preview":
        fromPreview = true
    case "--help":
        print(usage)
        exit(0)
    case "--version":
        print("photolibd-thumbnailer 0.1.0")
        print(HEVCDecoder.describe())
        exit(0)
    default:
        refuse("'\(argument)' is not an option.")
    }
}
if fromPreview && !toJPEG { refuse("--from-preview goes with --to-jpeg.") }
if toJPEG {
    exit(fromPreview ? PreviewExtractor.run(memoryBytes: memory) : JPEGConverter.run(memoryBytes: memory))
}
exit(DecoderWorker.run(memoryBytes: memory, idleSeconds: idle))

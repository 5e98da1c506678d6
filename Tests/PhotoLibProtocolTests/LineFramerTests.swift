import PhotoLibCore
import PhotoLibProtocol
import Testing

@Suite("Line framing")
struct LineFramerTests {
    @Test("lines fed one byte at a time come out whole")
    func byteByByte() throws {
        var framer = LineFramer(limit: 64)
        var lines: [[UInt8]] = []
        for byte in Array("{\"a\":1}\n{\"b\":2}\r\n\npartial".utf8) {
            framer.append([byte])
            while let line = try framer.nextLine() { lines.append(line) }
        }
        #expect(lines == [Array("{\"a\":1}".utf8), Array("{\"b\":2}".utf8), []])
        #expect(framer.pendingByteCount == 7)
    }

    @Test("an over-long line fails as soon as it is too long, without a newline")
    func tooLong() {
        var framer = LineFramer(limit: 8)
        framer.append(Array("0123456789".utf8))
        #expect(throws: LineFramer.Failure.lineTooLong(limit: 8)) { try framer.nextLine() }
    }

    @Test("a line of exactly the limit passes")
    func exactLimit() throws {
        var framer = LineFramer(limit: 4)
        framer.append(Array("abcd\n".utf8))
        #expect(try framer.nextLine() == Array("abcd".utf8))
    }
}

@Suite("Messages")
struct MessageTests {
    let coder = MessageCoder()

    @Test("a request's head decodes with numeric or string ids")
    func heads() throws {
        let numeric = try coder.decode(RequestHead.self, from: Array(#"{"id":7,"method":"status"}"#.utf8))
        #expect(numeric.id == .number(7))
        let text = try coder.decode(RequestHead.self, from: Array(#"{"id":"x","method":"apps","params":{}}"#.utf8))
        #expect(text.id == .text("x"))
    }

    @Test("a request whose parameters do not decode is told which key is wrong")
    func decodingReasons() {
        func reason(_ json: String) -> String {
            do {
                _ = try coder.decode(Request<AddAppParams>.self, from: Array(json.utf8))
                return "decoded"
            } catch {
                return MessageCoder.describe(error)
            }
        }
        #expect(reason(#"{"method":"addApp","params":{"uid":5}}"#) == "'app' is missing")
        #expect(reason(#"{"method":"addApp","params":{"app":"a.b.c","uid":"five"}}"#) == "'params.uid' has the wrong type")
        #expect(reason("{not json") == "not valid JSON")
        #expect(MessageCoder.describe(CancellationError()) == "not valid JSON")
    }

    @Test("errors carry a code and a sentence, on one line")
    func errorLine() throws {
        let line = try coder.encodeLine(ErrorReply(id: .number(1), error: .unknownMethod("nope")))
        #expect(line.last == 0x0A)
        #expect(line.dropLast().contains(0x0A) == false)
        let decoded = try coder.decode(ErrorReply.self, from: Array(line.dropLast()))
        #expect(decoded.error.code == "unknownMethod")
        #expect(decoded.error.message.hasSuffix("."))
    }

    @Test("every error message is a full sentence")
    func sentences() {
        let samples: [PhotoLibError] = [
            .malformedRequest("x"), .unknownApp(AppID("org.a.b")!), .notPermitted(uid: 5), .daemonNotRunning(socket: "/s"),
            .viewsOnOtherMount(library: "/l", views: "/v"), .lineTooLong(limit: 10), .invalidStatus("x"),
            .configurationInvalid(file: "f", line: 3, key: "k", reason: "bad"),
        ]
        for error in samples {
            #expect(error.message.hasSuffix("."))
            #expect(!error.message.contains("\n"))
            #expect(error.message.count > 30)
        }
    }
}

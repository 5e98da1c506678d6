import Foundation
import Glibc
import PhotoLibCore
import PhotoLibSystem

/// Printing for people and for programs.
enum Output {
    static func error(_ message: String) {
        standardError("photolibctl: \(message)")
    }

    /// A line (or lines) on stderr, as they are.
    static func standardError(_ text: String) {
        StandardError.write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// A warning on stderr: the command did what was asked, but something needs the person's attention.
    static func warning(_ message: String) {
        error("warning: " + message)
    }

    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let data = try? encoder.encode(value) {
            print(String(decoding: data, as: UTF8.self))
        }
    }

    /// Left-aligned columns separated by two spaces.
    static func table(_ header: [String], _ rows: [[String]]) {
        let all = [header] + rows
        var widths = [Int](repeating: 0, count: header.count)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        for row in all {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            print(cells.joined(separator: "  "))
        }
    }

    /// "1 asset", "2 assets": a number with its noun.
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) " + (number == 1 ? singular : plural ?? singular + "s")
    }

    static func size(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    static func date(_ nanoseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: Double(nanoseconds) / 1e9))
    }
}

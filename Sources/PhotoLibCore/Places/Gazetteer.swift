import RealModule

/// Finds the place a photo was taken in. Inside one or more cities' discs (`radius`), the one
/// whose centre is nearest for its size (distance over radius); inside none, the nearest centre
/// within `reach`.
///
/// By centres alone, a photo of the Eiffel Tower would be taken in Neuilly-sur-Seine, whose
/// centre is nearer than Paris's; so a city claims its own streets, a suburb its town hall, and a
/// small town still wins the countryside around it over a city far off.
///
/// Entries are bucketed in cells of one degree; a look-up reads only the cells that can hold an
/// entry within `reach`, so it costs a few dozen distances, whatever the gazetteer's size.
public struct Gazetteer: Sendable {
    public let entries: [GazetteerEntry]
    /// Each entry's centre and radius, apart from its names: the look-up's loop reads these alone,
    /// and an entry's strings would cost it a retain and a release each.
    private let points: [Point]
    private let cells: [Cell: [Int32]]
    /// How far from the nearest entry a photo may be and still be said to be taken there, km.
    public let reach: Double

    /// An entry's centre as a point on the unit sphere, and its radius as a chord of it: the
    /// look-up compares chords (a subtraction and three products a candidate) and computes a
    /// distance, with its arcsine, only for an entry whose disc holds the photo.
    private struct Point {
        let x: Double, y: Double, z: Double
        let radius: Double
        let radiusChordSquared: Double

        init(_ coordinate: GeoCoordinate, radius: Double) {
            (x, y, z) = Self.unit(coordinate)
            self.radius = radius
            let chord = Gazetteer.chord(kilometres: radius)
            radiusChordSquared = chord * chord
        }

        static func unit(_ coordinate: GeoCoordinate) -> (Double, Double, Double) {
            let latitude = coordinate.latitude * Double.pi / 180, longitude = coordinate.longitude * Double.pi / 180
            let cosLatitude = Double.cos(latitude)
            return (cosLatitude * Double.cos(longitude), cosLatitude * Double.sin(longitude), Double.sin(latitude))
        }

        func chordSquared(to point: (Double, Double, Double)) -> Double {
            let dx = x - point.0, dy = y - point.1, dz = z - point.2
            return dx * dx + dy * dy + dz * dz
        }
    }

    /// The chord of the unit sphere that spans a great-circle distance (the Earth's mean radius).
    private static func chord(kilometres: Double) -> Double {
        2 * Double.sin(Swift.min(Double.pi / 2, kilometres / (2 * GeoCoordinate.earthRadius)))
    }

    /// The great-circle distance a chord of the unit sphere spans, km.
    private static func kilometres(chordSquared: Double) -> Double {
        2 * GeoCoordinate.earthRadius * Double.asin(Swift.min(1, Double.sqrt(chordSquared) / 2))
    }

    private struct Cell: Hashable {
        let latitude: Int16
        let longitude: Int16

        init(latitude: Int, longitude: Int) {
            self.latitude = Int16(latitude)
            self.longitude = Int16(longitude)
        }

        /// The cell holding a coordinate; the pole's row and the antimeridian's column belong to their neighbours.
        init(_ coordinate: GeoCoordinate) {
            self.init(latitude: Swift.min(89, Int(coordinate.latitude.rounded(.down))),
                      longitude: (Int(coordinate.longitude.rounded(.down)) + 540) % 360 - 180)
        }
    }

    /// One degree of latitude, km (the shortest one, at the equator, for a reach that never falls short).
    private static let kilometresPerDegree = 110.57

    public init(_ entries: [GazetteerEntry], reach: Double = 100) {
        self.entries = entries
        self.points = entries.map { Point($0.coordinate, radius: $0.radius) }
        self.reach = reach
        var cells: [Cell: [Int32]] = [:]
        for (index, entry) in entries.enumerated() { cells[Cell(entry.coordinate), default: []].append(Int32(index)) }
        self.cells = cells
    }

    /// The nearest entry within `reach`, or nil (the open sea, a place far from any town).
    public func nearest(_ point: GeoCoordinate) -> GazetteerEntry? {
        let latitudeSpan = Int((reach / Self.kilometresPerDegree).rounded(.up))
        let origin = Cell(point)
        let unit = Point.unit(point)
        let reachChord = Self.chord(kilometres: reach)
        let reachChordSquared = reachChord * reachChord
        var inside: (score: Double, index: Int32)?
        var nearest: (chordSquared: Double, index: Int32)?
        for latitude in (Int(origin.latitude) - latitudeSpan)...(Int(origin.latitude) + latitudeSpan) where (-90...89).contains(latitude) {
            // A degree of longitude is shorter away from the equator: more cells of it are within reach.
            let nearestEdge = Swift.min(abs(Double(latitude)), abs(Double(latitude + 1)))
            let longitudeSpan = Int((reach / (Self.kilometresPerDegree * Self.cosine(degrees: nearestEdge))).rounded(.up))
            // Near a pole every longitude is within reach; elsewhere each once, across the antimeridian (179 is next to -180).
            let columns = longitudeSpan >= 180 ? 0..<360 : 0..<(2 * longitudeSpan + 1)
            for column in columns {
                let longitude = longitudeSpan >= 180 ? column - 180 : (Int(origin.longitude) + column - longitudeSpan + 540) % 360 - 180
                guard let indexes = cells[Cell(latitude: latitude, longitude: longitude)] else { continue }
                for index in indexes {
                    let entry = points[Int(index)]
                    let chordSquared = entry.chordSquared(to: unit)
                    guard chordSquared <= reachChordSquared else { continue }
                    // Ties go to the lower index, whatever order the cells are read in.
                    if chordSquared < nearest?.chordSquared ?? .infinity || (chordSquared == nearest?.chordSquared && index < nearest!.index) {
                        nearest = (chordSquared, index)
                    }
                    guard chordSquared <= entry.radiusChordSquared else { continue }
                    let score = Self.kilometres(chordSquared: chordSquared) / entry.radius
                    if score < inside?.score ?? .infinity || (score == inside?.score && index < inside!.index) {
                        inside = (score, index)
                    }
                }
            }
        }
        return (inside?.index ?? nearest?.index).map { entries[Int($0)] }
    }

    private static func cosine(degrees: Double) -> Double {
        Swift.max(0.01, GeoCoordinate.cosine(degrees: degrees))
    }
}

import PhotoLibCore

/// A message with a writer of its own (`JSONBytes`), faster than `JSONEncoder` and writing the
/// same bytes: `MessageCoder.encodeLine` uses it where a message has one.
protocol WritesJSONLine {
    /// The message's JSON, as `JSONEncoder` with sorted keys and unescaped slashes writes it.
    func jsonBytes() -> [UInt8]
}

extension ChangeEvent: WritesJSONLine {
    func jsonBytes() -> [UInt8] {
        var json = JSONBytes(capacity: 128 + 160 * (removed.count + inserted.count + changed.count))
        json.beginObject()
        json.key("app")
        json.value(app)
        json.key("changed")
        Self.write(changed, to: &json)
        json.key("event")
        json.value(event)
        json.key("incremental")
        json.value(incremental)
        json.key("inserted")
        Self.write(inserted, to: &json)
        if let reason {
            json.key("reason")
            json.value(reason)
        }
        json.key("removed")
        Self.write(removed, to: &json)
        json.key("token")
        json.value(token)
        json.endObject()
        return json.bytes
    }

    private static func write(_ assets: [ViewAsset], to json: inout JSONBytes) {
        json.beginArray()
        for asset in assets {
            json.element()
            json.beginObject()
            json.key("entry")
            json.value(asset.entry)
            json.key("id")
            json.value(asset.id)
            json.key("mediaType")
            json.value(asset.mediaType)
            if let members = asset.members {
                json.key("members")
                json.beginArray()
                for member in members {
                    json.element()
                    json.beginObject()
                    json.key("entry")
                    json.value(member.entry)
                    json.key("mediaType")
                    json.value(member.mediaType)
                    json.key("mtime")
                    json.value(member.mtime)
                    json.key("size")
                    json.value(member.size)
                    json.endObject()
                }
                json.endArray()
            }
            json.key("mtime")
            json.value(asset.mtime)
            json.key("size")
            json.value(asset.size)
            json.endObject()
        }
        json.endArray()
    }
}

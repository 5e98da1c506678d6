// exiv2 behind the C face in include/CMetadata.h. See there for what each call does.
#include "CMetadata.h"
#include "Internal.hpp"

#include <exiv2/exiv2.hpp>

#include <array>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

namespace {

using plm::copyText;
using plm::guarded;
using plm::openWithMetadata;
using plm::typeOf;


bool matches(const std::string &key, plm_fields fields) {
    for (size_t i = 0; i < fields.count; i++) {
        const char *prefix = fields.prefixes[i];
        if (key.compare(0, std::strlen(prefix), prefix) == 0) return true;
    }
    return false;
}

template <typename Data>
size_t countMatching(const Data &data, plm_fields fields) {
    size_t n = 0;
    for (const auto &datum : data) n += matches(datum.key(), fields) ? 1 : 0;
    return n;
}

template <typename Data>
size_t eraseMatching(Data &data, plm_fields fields) {
    size_t n = 0;
    for (auto it = data.begin(); it != data.end();) {
        if (matches(it->key(), fields)) {
            it = data.erase(it);
            n++;
        } else {
            ++it;
        }
    }
    return n;
}

bool isOneOf(const std::string &text, const char *const *list, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (text == list[i]) return true;
    }
    return false;
}

// Takes the values `drop` names out of XMP list fields; a list left empty goes.
size_t dropValues(Exiv2::XmpData &xmp, plm_values drop) {
    if (drop.valueCount == 0) return 0;
    size_t n = 0;
    for (auto it = xmp.begin(); it != xmp.end();) {
        if (!isOneOf(it->key(), drop.keys, drop.keyCount)) {
            ++it;
            continue;
        }
        std::vector<std::string> kept;
        long count = it->count();
        for (long i = 0; i < count; i++) {
            std::string item = it->toString(i);
            if (isOneOf(item, drop.values, drop.valueCount)) {
                n++;
            } else {
                kept.push_back(item);
            }
        }
        if (kept.size() == static_cast<size_t>(count)) {
            ++it;
            continue;
        }
        if (kept.empty()) {
            it = xmp.erase(it);
            continue;
        }
        Exiv2::XmpArrayValue value(it->typeId());
        for (const auto &item : kept) value.read(item);
        it->setValue(&value);
        ++it;
    }
    return n;
}

// The same for IPTC, whose list fields are repeated datasets.
size_t dropValues(Exiv2::IptcData &iptc, plm_values drop) {
    if (drop.valueCount == 0) return 0;
    size_t n = 0;
    for (auto it = iptc.begin(); it != iptc.end();) {
        if (isOneOf(it->key(), drop.keys, drop.keyCount) && isOneOf(it->toString(), drop.values, drop.valueCount)) {
            it = iptc.erase(it);
            n++;
        } else {
            ++it;
        }
    }
    return n;
}

// Appends one record per value of the matching fields: key, 0x1F, value, 0x1E.
template <typename Data>
void listMatching(const Data &data, plm_fields fields, std::string &into) {
    for (const auto &datum : data) {
        if (!matches(datum.key(), fields)) continue;
        long count = datum.count();
        if (datum.typeId() == Exiv2::xmpBag || datum.typeId() == Exiv2::xmpSeq || datum.typeId() == Exiv2::xmpAlt) {
            for (long i = 0; i < count; i++) into += datum.key() + '\x1f' + datum.toString(i) + '\x1e';
        } else {
            into += datum.key() + '\x1f' + datum.toString() + '\x1e';
        }
    }
}

void deliver(const std::string &listing, char *out, size_t capacity, size_t *needed) {
    *needed = listing.size();
    if (listing.size() <= capacity && !listing.empty()) std::memcpy(out, listing.data(), listing.size());
}

// The keys an inspection reads, and the first datum under each, found in one walk over the data
// with each datum's key built once (exiv2's findKey walks the whole list again for every key).
constexpr std::array<const char *, 6> exifKeys = {"Exif.Photo.DateTimeOriginal", "Exif.Photo.DateTimeDigitized", "Exif.GPSInfo.GPSLatitude",
                                                  "Exif.GPSInfo.GPSLongitude", "Exif.GPSInfo.GPSLatitudeRef", "Exif.GPSInfo.GPSLongitudeRef"};
enum ExifKey { dateOriginal, dateDigitized, latitude, longitude, latitudeRef, longitudeRef };
constexpr std::array<const char *, 5> xmpKeys = {"Xmp.exif.DateTimeOriginal", "Xmp.photoshop.DateCreated", "Xmp.xmp.CreateDate",
                                                 "Xmp.exif.GPSLatitude", "Xmp.exif.GPSLongitude"};
enum XmpKey { xmpDateOriginal, xmpDateCreated, xmpCreateDate, xmpLatitude, xmpLongitude };

template <typename Datum, typename Data, size_t N>
std::array<const Datum *, N> firstUnder(const Data &data, const std::array<const char *, N> &keys, plm_fields fields, size_t &matching) {
    std::array<const Datum *, N> found{};
    matching = 0;
    for (const auto &datum : data) {
        const std::string key = datum.key();
        if (matches(key, fields)) matching++;
        for (size_t i = 0; i < N; i++) {
            if (found[i] == nullptr && key == keys[i]) found[i] = &datum;
        }
    }
    return found;
}

using ExifFound = std::array<const Exiv2::Exifdatum *, exifKeys.size()>;
using XmpFound = std::array<const Exiv2::Xmpdatum *, xmpKeys.size()>;

bool isSet(const Exiv2::Metadatum *datum) { return datum != nullptr && datum->count() > 0; }

// The first of these keys that is set, in order of how exactly each says when the picture was taken.
std::string captureDate(const ExifFound &exif, const XmpFound &xmp) {
    for (auto datum : {exif[dateOriginal], exif[dateDigitized]}) {
        if (isSet(datum)) return datum->toString();
    }
    for (auto datum : {xmp[xmpDateOriginal], xmp[xmpDateCreated], xmp[xmpCreateDate]}) {
        if (isSet(datum)) return datum->toString();
    }
    return "";
}

// Where the picture was taken, as written: Exif's GPS rationals and references, else XMP's text.
void coordinates(const ExifFound &exif, const XmpFound &xmp, plm_inspection *out) {
    out->latitude[0] = out->longitude[0] = out->latitudeRef[0] = out->longitudeRef[0] = '\0';
    if (isSet(exif[latitude]) && isSet(exif[longitude])) {
        copyText(exif[latitude]->toString(), out->latitude, sizeof out->latitude);
        copyText(exif[longitude]->toString(), out->longitude, sizeof out->longitude);
        if (isSet(exif[latitudeRef])) copyText(exif[latitudeRef]->toString(), out->latitudeRef, sizeof out->latitudeRef);
        if (isSet(exif[longitudeRef])) copyText(exif[longitudeRef]->toString(), out->longitudeRef, sizeof out->longitudeRef);
        return;
    }
    if (xmp[xmpLatitude] == nullptr || xmp[xmpLongitude] == nullptr) return;
    copyText(xmp[xmpLatitude]->toString(), out->latitude, sizeof out->latitude);
    copyText(xmp[xmpLongitude]->toString(), out->longitude, sizeof out->longitude);
}

// Counts the matching fields of Exif and XMP data, and reads the date and place, into `out`.
void inspect(const Exiv2::ExifData *exifData, const Exiv2::XmpData *xmpData, plm_fields fields, plm_inspection *out, size_t &exifMatching,
             size_t &xmpMatching) {
    ExifFound exif{};
    XmpFound xmp{};
    exifMatching = xmpMatching = 0;
    if (exifData != nullptr) exif = firstUnder<Exiv2::Exifdatum>(*exifData, exifKeys, fields, exifMatching);
    if (xmpData != nullptr) xmp = firstUnder<Exiv2::Xmpdatum>(*xmpData, xmpKeys, fields, xmpMatching);
    copyText(captureDate(exif, xmp), out->captureDate, sizeof out->captureDate);
    coordinates(exif, xmp, out);
}

void clear(plm_inspection *out) {
    out->matching = 0;
    out->captureDate[0] = '\0';
    out->latitude[0] = out->latitudeRef[0] = out->longitude[0] = out->longitudeRef[0] = '\0';
    out->writable = 0;
}

bool canWrite(int type, Exiv2::MetadataId id) {
    try {
        Exiv2::AccessMode mode = Exiv2::ImageFactory::checkMode(type, id);
        return mode == Exiv2::amWrite || mode == Exiv2::amReadWrite;
    } catch (...) {
        return false;
    }
}



// A block that holds nothing but padding: what a packet stripped of all it had becomes.
bool isBlank(const char *packet, size_t size) {
    for (size_t i = 0; i < size; i++) {
        char c = packet[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\0') return false;
    }
    return true;
}


// Parses an XMP packet; false, with the error set, when it cannot be.
bool parsedXmp(const char *packet, size_t size, Exiv2::XmpData &xmp, char *error, size_t error_size) {
    if (Exiv2::XmpParser::decode(xmp, std::string(packet, size)) == 0) return true;
    copyText("the XMP packet cannot be parsed", error, error_size);
    return false;
}

std::once_flag initialized;

// exiv2 registers the namespaces it meets in a packet in the XMP toolkit's global tables: with
// files read on several threads at once (places, picks, derivatives), those registrations take turns.
std::recursive_mutex xmpNamespaces;

void lockXmpNamespaces(void *mutex, bool lock) {
    auto held = static_cast<std::recursive_mutex *>(mutex);
    if (lock) {
        held->lock();
    } else {
        held->unlock();
    }
}

// What an image's metadata, read already, holds.
void describe(Exiv2::Image &image, int type, plm_fields fields, plm_inspection *out) {
    size_t exif = 0, xmp = 0;
    inspect(&image.exifData(), &image.xmpData(), fields, out, exif, xmp);
    size_t iptc = countMatching(image.iptcData(), fields);
    out->matching = exif + xmp + iptc;
    out->writable = (exif == 0 || canWrite(type, Exiv2::mdExif)) && (xmp == 0 || canWrite(type, Exiv2::mdXmp))
                    && (iptc == 0 || canWrite(type, Exiv2::mdIptc));
}

}  // namespace

extern "C" void plm_initialize(void) {
    std::call_once(initialized, [] {
        // Its warnings would go to the daemon's stderr, unstructured; failures come back as errors.
        Exiv2::LogMsg::setLevel(Exiv2::LogMsg::mute);
        Exiv2::XmpParser::initialize(lockXmpNamespaces, &xmpNamespaces);
    });
}


extern "C" plm_status plm_inspect_file(const char *path, plm_fields fields, plm_inspection *out, char *error, size_t error_size) {
    clear(out);
    return guarded(error, error_size, [&]() -> plm_status {
        int type = 0;
        auto image = openWithMetadata(path, type);
        if (image.get() == nullptr) return PLM_UNKNOWN_FORMAT;
        describe(*image, type, fields, out);
        return PLM_OK;
    });
}

extern "C" plm_status plm_inspect_bytes(const uint8_t *bytes, size_t size, int whole, plm_fields fields, plm_inspection *out, char *error,
                                        size_t error_size) {
    clear(out);
    return guarded(error, error_size, [&]() -> plm_status {
        int type = Exiv2::ImageType::none;
        try {
            type = Exiv2::ImageFactory::getType(bytes, static_cast<long>(size));
        } catch (...) {
        }
        if (type == Exiv2::ImageType::none) return whole ? PLM_UNKNOWN_FORMAT : PLM_FAILED;
        // Only a JPEG's metadata is known to lie in its first bytes, read in order up to the image
        // data, so that bytes ending too soon fail the read rather than go unread.
        if (!whole && type != Exiv2::ImageType::jpeg) return PLM_FAILED;
        auto image = Exiv2::ImageFactory::open(bytes, static_cast<long>(size));
        image->readMetadata();
        describe(*image, type, fields, out);
        return PLM_OK;
    });
}

extern "C" plm_status plm_strip_file(const char *path, plm_fields fields, plm_values drop, size_t *removed, char *error,
                                     size_t error_size) {
    *removed = 0;
    return guarded(error, error_size, [&]() -> plm_status {
        int type = 0;
        auto image = openWithMetadata(path, type);
        if (image.get() == nullptr) return PLM_UNKNOWN_FORMAT;
        size_t exif = eraseMatching(image->exifData(), fields);
        size_t xmp = eraseMatching(image->xmpData(), fields) + dropValues(image->xmpData(), drop);
        size_t iptc = eraseMatching(image->iptcData(), fields) + dropValues(image->iptcData(), drop);
        if ((exif > 0 && !canWrite(type, Exiv2::mdExif)) || (xmp > 0 && !canWrite(type, Exiv2::mdXmp))
            || (iptc > 0 && !canWrite(type, Exiv2::mdIptc))) {
            return PLM_NOT_WRITABLE;
        }
        *removed = exif + xmp + iptc;
        if (*removed > 0) image->writeMetadata();
        return PLM_OK;
    });
}

extern "C" plm_status plm_inspect_exif(const uint8_t *tiff, size_t size, plm_fields fields, plm_inspection *out, char *error,
                                       size_t error_size) {
    clear(out);
    return guarded(error, error_size, [&]() -> plm_status {
        Exiv2::ExifData exif;
        Exiv2::ExifParser::decode(exif, tiff, static_cast<uint32_t>(size));
        size_t none = 0;
        inspect(&exif, nullptr, fields, out, out->matching, none);
        out->writable = 1;
        return PLM_OK;
    });
}

extern "C" plm_status plm_strip_exif(const uint8_t *tiff, size_t size, plm_fields fields, uint8_t *out, size_t capacity,
                                     size_t *out_size, size_t *removed, char *error, size_t error_size) {
    *out_size = 0;
    *removed = 0;
    return guarded(error, error_size, [&]() -> plm_status {
        Exiv2::ExifData exif;
        Exiv2::ByteOrder order = Exiv2::ExifParser::decode(exif, tiff, static_cast<uint32_t>(size));
        size_t erased = eraseMatching(exif, fields);
        if (erased == 0) return PLM_OK;
        // encode may update its input in place (non-intrusive writing): give it a copy.
        std::vector<Exiv2::byte> original(tiff, tiff + size);
        Exiv2::Blob blob;
        Exiv2::WriteMethod method = Exiv2::ExifParser::encode(blob, original.data(), static_cast<uint32_t>(original.size()), order, exif);
        const Exiv2::byte *result = method == Exiv2::wmNonIntrusive ? original.data() : blob.data();
        size_t length = method == Exiv2::wmNonIntrusive ? original.size() : blob.size();
        if (length > capacity) return PLM_TOO_LARGE;
        if (length > 0) std::memcpy(out, result, length);
        *out_size = length;
        *removed = erased;
        return PLM_OK;
    });
}

extern "C" plm_status plm_inspect_xmp(const char *packet, size_t size, plm_fields fields, plm_inspection *out, char *error,
                                      size_t error_size) {
    clear(out);
    return guarded(error, error_size, [&]() -> plm_status {
        out->writable = 1;
        if (isBlank(packet, size)) return PLM_OK;
        Exiv2::XmpData xmp;
        if (!parsedXmp(packet, size, xmp, error, error_size)) return PLM_FAILED;
        size_t none = 0;
        inspect(nullptr, &xmp, fields, out, none, out->matching);
        out->writable = 1;
        return PLM_OK;
    });
}

extern "C" plm_status plm_list_file(const char *path, plm_fields fields, char *out, size_t capacity, size_t *needed, char *error,
                                    size_t error_size) {
    *needed = 0;
    return guarded(error, error_size, [&]() -> plm_status {
        int type = 0;
        auto image = openWithMetadata(path, type);
        if (image.get() == nullptr) return PLM_UNKNOWN_FORMAT;
        std::string listing;
        listMatching(image->exifData(), fields, listing);
        listMatching(image->xmpData(), fields, listing);
        listMatching(image->iptcData(), fields, listing);
        deliver(listing, out, capacity, needed);
        return PLM_OK;
    });
}

extern "C" plm_status plm_list_xmp(const char *packet, size_t size, plm_fields fields, char *out, size_t capacity, size_t *needed,
                                   char *error, size_t error_size) {
    *needed = 0;
    return guarded(error, error_size, [&]() -> plm_status {
        if (isBlank(packet, size)) return PLM_OK;
        Exiv2::XmpData xmp;
        if (!parsedXmp(packet, size, xmp, error, error_size)) return PLM_FAILED;
        std::string listing;
        listMatching(xmp, fields, listing);
        deliver(listing, out, capacity, needed);
        return PLM_OK;
    });
}

extern "C" plm_status plm_strip_xmp(const char *packet, size_t size, plm_fields fields, plm_values drop, char *out, size_t capacity,
                                    size_t *out_size, size_t *removed, char *error, size_t error_size) {
    *out_size = 0;
    *removed = 0;
    return guarded(error, error_size, [&]() -> plm_status {
        if (isBlank(packet, size)) return PLM_OK;
        Exiv2::XmpData xmp;
        if (!parsedXmp(packet, size, xmp, error, error_size)) return PLM_FAILED;
        size_t erased = eraseMatching(xmp, fields) + dropValues(xmp, drop);
        if (erased == 0) return PLM_OK;
        std::string result;
        if (!xmp.empty() && Exiv2::XmpParser::encode(result, xmp) != 0) {
            copyText("the XMP packet cannot be written again", error, error_size);
            return PLM_FAILED;
        }
        if (result.size() > capacity) return PLM_TOO_LARGE;
        std::memcpy(out, result.data(), result.size());
        *out_size = result.size();
        *removed = erased;
        return PLM_OK;
    });
}

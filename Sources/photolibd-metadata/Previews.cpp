// The previews a file carries (exiv2's PreviewManager), and one of them made a JPEG file of its own
// with the original's metadata: how an app that reads only JPEG is handed a raw file.
#include "CMetadata.h"
#include "Internal.hpp"

#include <exiv2/exiv2.hpp>

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

namespace {

// The tags of a raw file's first IFD that say something of the photo rather than of how its own
// image data is laid out (strips, tiles, sub-IFDs, DNG's colour calibration): the ones a JPEG
// made from its preview should carry.
const std::set<std::string> &photoTags() {
    static const std::set<std::string> tags = {
        "Exif.Image.Make", "Exif.Image.Model", "Exif.Image.Orientation", "Exif.Image.DateTime", "Exif.Image.Artist",
        "Exif.Image.Copyright", "Exif.Image.Software", "Exif.Image.ImageDescription", "Exif.Image.Rating",
        "Exif.Image.RatingPercent", "Exif.Image.XPTitle", "Exif.Image.XPComment", "Exif.Image.XPAuthor",
        "Exif.Image.XPKeywords", "Exif.Image.XPSubject",
        "Exif.Image.UniqueCameraModel", "Exif.Image.DateTimeOriginal",
    };
    return tags;
}

// Whether `datum` of the raw file belongs in the JPEG: the photo's Exif and GPS fields, and its
// first IFD's photo tags. Maker notes stay behind: their offsets point into the raw file, and
// what they carry (serial numbers among it) is the camera's, not the photo's.
bool carried(const Exiv2::Exifdatum &datum) {
    const std::string group = datum.groupName();
    if (group == "Photo") return datum.key() != "Exif.Photo.MakerNote";
    if (group == "GPSInfo") return true;
    if (group == "Image") return photoTags().count(datum.key()) > 0;
    return false;
}

// Opens the file at `path` and lists its previews for `body`; PLM_UNKNOWN_FORMAT when exiv2 knows no format there.
template <typename Body>
plm_status withPreviews(const char *path, Body body) {
    int type = 0;
    auto image = plm::openWithMetadata(path, type);
    if (image.get() == nullptr) return PLM_UNKNOWN_FORMAT;
    Exiv2::PreviewManager manager(*image);
    return body(*image, manager, manager.getPreviewProperties());
}

}  // namespace

extern "C" plm_status plm_list_previews(const char *path, plm_preview *out, size_t capacity, size_t *count, char *error,
                                        size_t error_size) {
    *count = 0;
    return plm::guarded(error, error_size, [&]() -> plm_status {
        return withPreviews(path, [&](Exiv2::Image &, Exiv2::PreviewManager &, const Exiv2::PreviewPropertiesList &list) {
            *count = list.size();
            for (size_t i = 0; i < list.size() && i < capacity; i++) {
                out[i].width = list[i].width_;
                out[i].height = list[i].height_;
                out[i].size = list[i].size_;
                out[i].jpeg = list[i].mimeType_ == "image/jpeg";
            }
            return PLM_OK;
        });
    });
}

extern "C" plm_status plm_preview_jpeg(const char *path, size_t index, uint8_t **bytes, size_t *size, char *error,
                                       size_t error_size) {
    *bytes = nullptr;
    *size = 0;
    return plm::guarded(error, error_size, [&]() -> plm_status {
        return withPreviews(path, [&](Exiv2::Image &image, Exiv2::PreviewManager &manager,
                                      const Exiv2::PreviewPropertiesList &list) -> plm_status {
            if (index >= list.size() || list[index].mimeType_ != "image/jpeg") return PLM_UNKNOWN_FORMAT;
            Exiv2::PreviewImage preview = manager.getPreviewImage(list[index]);
            auto jpeg = Exiv2::ImageFactory::open(preview.pData(), preview.size());
            jpeg->readMetadata();
            Exiv2::ExifData exif;
            for (const auto &datum : image.exifData()) {
                if (carried(datum)) exif.add(datum);
            }
            // The raw file's dimensions are not the preview's: say the preview's, or nothing.
            auto widthAt = exif.findKey(Exiv2::ExifKey("Exif.Photo.PixelXDimension"));
            if (widthAt != exif.end()) exif.erase(widthAt);
            auto heightAt = exif.findKey(Exiv2::ExifKey("Exif.Photo.PixelYDimension"));
            if (heightAt != exif.end()) exif.erase(heightAt);
            if (list[index].width_ > 0 && list[index].height_ > 0) {
                exif["Exif.Photo.PixelXDimension"] = static_cast<uint32_t>(list[index].width_);
                exif["Exif.Photo.PixelYDimension"] = static_cast<uint32_t>(list[index].height_);
            }
            jpeg->setExifData(exif);
            jpeg->setXmpData(image.xmpData());
            jpeg->setIptcData(image.iptcData());
            jpeg->writeMetadata();
            Exiv2::BasicIo &io = jpeg->io();
            io.open();
            long length = io.size();
            auto buffer = static_cast<uint8_t *>(std::malloc(length > 0 ? static_cast<size_t>(length) : 1));
            if (buffer == nullptr) {
                plm::copyText("not enough memory for the preview", error, error_size);
                return PLM_FAILED;
            }
            io.seek(0, Exiv2::BasicIo::beg);
            long read = io.read(buffer, length);
            io.close();
            if (read != length) {
                std::free(buffer);
                plm::copyText("the preview could not be read back", error, error_size);
                return PLM_FAILED;
            }
            *bytes = buffer;
            *size = static_cast<size_t>(length);
            return PLM_OK;
        });
    });
}

extern "C" void plm_free(void *pointer) { std::free(pointer); }

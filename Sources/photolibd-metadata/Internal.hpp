// What the C face's source files share: exiv2's exceptions turned into a status and text, and
// opening a file with its metadata read. Not part of the C face (include/CMetadata.h).
#ifndef PHOTOLIBD_CMETADATA_INTERNAL_HPP
#define PHOTOLIBD_CMETADATA_INTERNAL_HPP

#include "CMetadata.h"

#include <exiv2/exiv2.hpp>

#include <cstring>
#include <exception>
#include <memory>
#include <string>

namespace plm {

// Copies `text` into `out` (room for `size` bytes), cut short and always terminated.
inline void copyText(const std::string &text, char *out, size_t size) {
    if (out == nullptr || size == 0) return;
    size_t n = text.size() < size - 1 ? text.size() : size - 1;
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
}

// The format exiv2 recognizes from the file's first bytes. Its probes throw on
// a file too short for them (a few bytes of text named .jpg): that is no format
// it knows either. (The caller has read the file's header already, so this is
// not a read error passed off as "unknown".)
inline int typeOf(const char *path) {
    try {
        return Exiv2::ImageFactory::getType(path);
    } catch (...) {
        return Exiv2::ImageType::none;
    }
}

// Runs `body`, turning any exception into PLM_FAILED and its text.
template <typename Body>
plm_status guarded(char *error, size_t error_size, Body body) {
    try {
        return body();
    } catch (const Exiv2::AnyError &e) {
        copyText(e.what(), error, error_size);
    } catch (const std::exception &e) {
        copyText(e.what(), error, error_size);
    } catch (...) {
        copyText("unknown error in exiv2", error, error_size);
    }
    return PLM_FAILED;
}

// The image at `path` with its metadata read, and its format in `type`; null when exiv2 knows no format there.
inline std::unique_ptr<Exiv2::Image> openWithMetadata(const char *path, int &type) {
    type = typeOf(path);
    if (type == Exiv2::ImageType::none) return nullptr;
    auto image = Exiv2::ImageFactory::open(path);
    image->readMetadata();
    return image;
}

}  // namespace plm

#endif

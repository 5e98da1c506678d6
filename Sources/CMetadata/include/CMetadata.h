// A C face for the few things photolibd asks of exiv2 (Debian libexiv2-dev):
// which location (and other) fields a photo carries, removing them, and when it was taken.
//
// Which fields count as location is decided in Swift (PhotoLibCore's
// `LocationFields`) and passed in as key prefixes ("Exif.GPSInfo.",
// "Xmp.photoshop.City", ...); this layer only reads and writes. Every call
// catches exiv2's exceptions and reports them as text, so no C++ exception
// ever reaches Swift. Not thread-safe for the same file; exiv2's XMP toolkit is
// set up once by `plm_initialize`.
#ifndef PHOTOLIBD_CMETADATA_H
#define PHOTOLIBD_CMETADATA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a call came to.
typedef enum {
    /// Done; the outputs are set.
    PLM_OK = 0,
    /// exiv2 does not know the format (no metadata it could read or write).
    PLM_UNKNOWN_FORMAT = 1,
    /// exiv2 knows the format but cannot write this kind of metadata to it.
    PLM_NOT_WRITABLE = 2,
    /// Reading or writing failed; the error text says why.
    PLM_FAILED = 3,
    /// The rewritten block does not fit the room the original had.
    PLM_TOO_LARGE = 4,
} plm_status;

/// Key prefixes that select fields (exiv2 key syntax: Family.Group.Tag).
typedef struct {
    const char *const *prefixes;
    size_t count;
} plm_fields;

/// Values to take out of list fields (a keyword bag, IPTC's repeated keywords): every value equal to
/// one of `values`, in a field whose key is one of `keys` (exactly). A field left empty goes.
typedef struct {
    const char *const *keys;
    size_t keyCount;
    const char *const *values;
    size_t valueCount;
} plm_values;

/// What a file's metadata holds, as far as photolibd cares.
typedef struct {
    /// Fields matching the prefixes.
    size_t matching;
    /// Exif `DateTimeOriginal` (else `DateTimeDigitized`, else `Xmp.exif.DateTimeOriginal`,
    /// else `Xmp.xmp.CreateDate`), as written ("2024:07:14 10:00:00"), or "".
    char captureDate[64];
    /// Where it was taken, as written, for the core to read (`GPSText`): Exif's rationals
    /// ("48/1 6/1 4312/100") and their references ("N", "W"), else XMP's ("48,6.72N"); "" when absent.
    char latitude[96];
    char latitudeRef[8];
    char longitude[96];
    char longitudeRef[8];
    /// Whether exiv2 could write the matching fields away.
    int writable;
} plm_inspection;

/// Sets up exiv2 once per process (mutes its log, initializes its XMP toolkit). In the executables
/// (Sources/CMetadata/loader.c): loads libphotolibd-metadata.so, which does so; every other call loads
/// it too, when it was not yet.
void plm_initialize(void);

/// Reads the metadata of the file at `path`.
plm_status plm_inspect_file(const char *path, plm_fields fields, plm_inspection *out, char *error, size_t error_size);

/// Reads the metadata of a file from its first `size` bytes, all of it when `whole` is non-zero. A prefix is
/// read only for a JPEG, whose metadata comes before its image data: it fails (PLM_FAILED) when the bytes end
/// before the image data starts, and is PLM_FAILED for any other format; the caller reads the file then.
plm_status plm_inspect_bytes(const uint8_t *bytes, size_t size, int whole, plm_fields fields, plm_inspection *out, char *error,
                             size_t error_size);

/// Removes every matching field from the file at `path` (rewritten in place
/// by exiv2; the image data is copied unchanged), and the values `drop` names.
/// `removed` counts fields and values.
plm_status plm_strip_file(const char *path, plm_fields fields, plm_values drop, size_t *removed, char *error, size_t error_size);

/// Lists every value of the matching fields, one record per value: key, 0x1F, value, 0x1E (a list
/// field gives one record per item). Writes at most `capacity` bytes to `out` and the length the
/// whole listing needs to `needed`: larger than `capacity` means call again with room for it.
plm_status plm_list_file(const char *path, plm_fields fields, char *out, size_t capacity, size_t *needed, char *error,
                         size_t error_size);

/// As `plm_list_file`, for an XMP packet.
plm_status plm_list_xmp(const char *packet, size_t size, plm_fields fields, char *out, size_t capacity, size_t *needed,
                        char *error, size_t error_size);

/// Reads a bare Exif block (a TIFF header and its IFDs, as in an HEIF `Exif` item).
plm_status plm_inspect_exif(const uint8_t *tiff, size_t size, plm_fields fields, plm_inspection *out, char *error, size_t error_size);

/// Removes matching fields from a bare Exif block, writing the new block to
/// `out` (room for `capacity` bytes) and its length to `out_size`. `removed`
/// is 0 and `out` untouched when nothing matched.
plm_status plm_strip_exif(const uint8_t *tiff, size_t size, plm_fields fields, uint8_t *out, size_t capacity,
                          size_t *out_size, size_t *removed, char *error, size_t error_size);

/// Reads an XMP packet.
plm_status plm_inspect_xmp(const char *packet, size_t size, plm_fields fields, plm_inspection *out, char *error, size_t error_size);

/// As `plm_strip_exif`, for an XMP packet, taking out the values `drop` names too.
plm_status plm_strip_xmp(const char *packet, size_t size, plm_fields fields, plm_values drop, char *out, size_t capacity,
                         size_t *out_size, size_t *removed, char *error, size_t error_size);

/// A picture a file carries besides its own image: a raw file's JPEG preview, an Exif thumbnail.
typedef struct {
    /// Its width and height in pixels, 0 when exiv2 cannot tell.
    uint32_t width;
    uint32_t height;
    /// Its size in bytes.
    uint32_t size;
    /// Whether it is a JPEG.
    int jpeg;
} plm_preview;

/// Lists the previews the file at `path` carries, smallest first: at most `capacity` in `out`, and how
/// many there are in `count`.
plm_status plm_list_previews(const char *path, plm_preview *out, size_t capacity, size_t *count, char *error, size_t error_size);

/// Preview number `index` of `plm_list_previews` as a JPEG file in memory, carrying the file's own
/// metadata: its Exif capture, camera and location fields and orientation (never its maker notes or
/// the tags that describe its own image data), its XMP and its IPTC. `*bytes` is malloc'd: free it
/// with `plm_free`. PLM_UNKNOWN_FORMAT when there is no such preview, or it is not a JPEG.
plm_status plm_preview_jpeg(const char *path, size_t index, uint8_t **bytes, size_t *size, char *error, size_t error_size);

/// Frees what a call handed over.
void plm_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif

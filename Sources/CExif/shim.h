// libexif for Swift.
#ifndef JOURNALMEDIA_CEXIF_SHIM_H
#define JOURNALMEDIA_CEXIF_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-content.h>
#include <libexif/exif-entry.h>
#include <libexif/exif-ifd.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-utils.h>
#include <libexif/exif-loader.h>
#endif

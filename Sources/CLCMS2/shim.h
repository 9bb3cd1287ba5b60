// LittleCMS 2 (the colour engine libvips' icc_transform uses), for JournalMediaImaging's
// direct profile conversions of small images. Pixel-format macros are function-like in
// lcms2.h, which Swift does not import; the ones used are spelled out as constants here.
#include <lcms2.h>

static const cmsUInt32Number JM_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number JM_TYPE_RGB_16 = TYPE_RGB_16;
static const cmsUInt32Number JM_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number JM_TYPE_CMYK_16 = TYPE_CMYK_16;
static const cmsUInt32Number JM_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number JM_TYPE_GRAY_16 = TYPE_GRAY_16;
static const cmsUInt32Number JM_TYPE_Lab_16 = TYPE_Lab_16;

"""Writes an RGBA PAM: an orange disc with a soft edge on a fully transparent ground."""
import sys
import numpy as np

path, size = sys.argv[1], int(sys.argv[2])
y, x = np.mgrid[0:size, 0:size].astype(np.float64)
r = np.hypot(x - size / 2, y - size / 2)
alpha = np.clip((size * 0.4 - r) * 4, 0, 255)
rgba = np.zeros((size, size, 4), np.uint8)
rgba[..., 0], rgba[..., 1], rgba[..., 2] = 245, 130, 20
rgba[..., 3] = alpha.astype(np.uint8)
with open(path, "wb") as f:
    f.write(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (size, size))
    f.write(rgba.tobytes())

"""Writes a camera-like RGB photo as a binary PPM for the real-photo benchmark class: detail
at every scale (foliage-like noise summed over octaves), hard edges (buildings, a horizon),
a sky gradient and sensor noise, so that JPEG files come out at the sizes real photos have
(~0.3–0.5 bytes per pixel at q90) and a resize has real high frequencies to work on. With
ALPHA it writes a PAM with a soft-edged transparent border (an RGBA "sticker").

Usage: photo_like.py OUT WIDTH HEIGHT SEED [alpha]
"""
import sys

import numpy as np

path, width, height, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
alpha = len(sys.argv) > 5 and sys.argv[5] == "alpha"
rng = np.random.default_rng(7000 + seed)


def octave_noise(h, w):
    """Value noise summed over octaves (1/f amplitude), in about -1…1."""
    out = np.zeros((h, w), np.float32)
    amplitude, cell, total = 1.0, max(h, w) // 4, 0.0
    while cell >= 2:
        gh, gw = h // cell + 2, w // cell + 2
        grid = rng.standard_normal((gh, gw)).astype(np.float32)
        ys = np.arange(h, dtype=np.float32) / cell
        xs = np.arange(w, dtype=np.float32) / cell
        y0, x0 = ys.astype(int), xs.astype(int)
        fy, fx = (ys - y0)[:, None], (xs - x0)[None, :]
        a = grid[y0][:, x0]
        b = grid[y0][:, x0 + 1]
        c = grid[y0 + 1][:, x0]
        d = grid[y0 + 1][:, x0 + 1]
        out += amplitude * ((a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy)
        total += amplitude
        amplitude *= 0.72
        cell //= 2
    return out / total * 2.2


y = np.arange(height, dtype=np.float32)[:, None] / height
x = np.arange(width, dtype=np.float32)[None, :] / width
horizon = 0.42 + 0.06 * np.sin(x * 9 + seed)
full = np.zeros((height, width), np.float32)
sky = np.stack([full + 110 + 90 * y, full + 160 + 60 * y, full + 235 - 30 * y], axis=-1)
detail = octave_noise(height, width)
tint = octave_noise(height, width)
ground = np.stack([85 + 55 * detail + 25 * tint, 115 + 60 * detail, 55 + 35 * detail - 20 * tint], axis=-1)
img = np.where((y < horizon)[..., None], sky, ground)
# Buildings: flat facades with windows (hard edges, the JPEG's worst case).
for i in range(6):
    left = int(rng.uniform(0, 0.85) * width)
    w = int(rng.uniform(0.05, 0.15) * width)
    top = int(rng.uniform(0.15, 0.4) * height)
    bottom = int(0.6 * height)
    colour = rng.uniform(60, 220, 3)
    img[top:bottom, left:left + w] = colour
    step = max(6, width // 160)
    img[top:bottom:step * 2, left:left + w] *= 0.55
    img[top:bottom, left:left + w:step * 2] *= 0.6
img += rng.normal(0, 3.5, img.shape).astype(np.float32)
img = np.clip(img, 0, 255).astype(np.uint8)
with open(path, "wb") as f:
    if alpha:
        r = np.minimum(np.minimum(x, 1 - x), np.minimum(y, 1 - y))
        a = np.clip((r - 0.08) / 0.06, 0, 1) * 255
        a = np.broadcast_to(a, (height, width)).astype(np.uint8)
        rgba = np.concatenate([img, a[..., None]], axis=-1)
        f.write(b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (width, height))
        f.write(rgba.tobytes())
    else:
        f.write(b"P6\n%d %d\n255\n" % (width, height))
        f.write(img.tobytes())

"""Writes a photo-like RGB scene as a binary PPM: sky-to-ground gradients, a sun, mild
noise, and 60×60 corner markers (red top-left, blue top-right, green bottom-left, white
bottom-right) that tests use to check orientation."""
import sys
import numpy as np

path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 0
rng = np.random.default_rng(20231 + seed)
y, x = np.mgrid[0:height, 0:width].astype(np.float64)
t = y / (height - 1)
sky = np.stack([90 + 80 * t, 140 + 60 * t, 230 - 40 * t], axis=-1)
ground = np.stack([70 + 40 * (1 - t), 120 + 30 * np.sin(x / 37.0), 60 + 0 * t], axis=-1)
img = np.where((t < 0.55)[..., None], sky, ground)
cx = 0.7 - 0.05 * (seed % 5)
sun = ((x - width * cx) ** 2 + (y - height * 0.28) ** 2) < (height * 0.09) ** 2
img[sun] = [250, 220, 120]
img += rng.normal(0, 4, img.shape)
m = max(60, width // 10)
img[:m, :m] = [230, 20, 20]
img[:m, -m:] = [20, 40, 230]
img[-m:, :m] = [20, 200, 40]
img[-m:, -m:] = [250, 250, 250]
img = np.clip(img, 0, 255).astype(np.uint8)
with open(path, "wb") as f:
    f.write(b"P6\n%d %d\n255\n" % (width, height))
    f.write(img.tobytes())

"""Per-file quality of journal-media's HEIC renditions against a careful reference (issue 19):
pillow-heif's full decode (libheif + libde265, transforms applied), the embedded ICC profile
converted to sRGB with LittleCMS, Pillow LANCZOS straight to the rendition's size
(`quality.py`'s reference). Prints PSNR (dB, higher is closer) per file for each output
folder, and the change from the first folder; a size that differs from the reference's
display size (a rendition not upright) is reported as such.

Usage: heic_quality.py INPUT_DIR OUT_DIR [OUT_DIR …]
(each OUT_DIR from `journal-media convert INPUT_DIR --output OUT_DIR --size 1600 --format png`,
which writes NAME.image.png per input).
"""
import os
import sys

from PIL import Image

from quality import psnr, reference


def main():
    inputs, outputs = sys.argv[1], sys.argv[2:]
    print("| file | " + " | ".join(os.path.basename(o.rstrip("/")) for o in outputs) + " | change dB |")
    print("|---|" + "---:|" * (len(outputs) + 1))
    worst = None
    for name in sorted(os.listdir(inputs)):
        if name.startswith("."):
            continue
        cells, values = [], []
        for out in outputs:
            path = os.path.join(out, name + ".image.png")
            if not os.path.exists(path):
                cells.append("—")
                values.append(None)
                continue
            ours = Image.open(path).convert("RGB")
            with Image.open(os.path.join(inputs, name)) as im:
                display = im.size
            ratio = (ours.size[0] >= ours.size[1]) == (display[0] >= display[1])
            if not ratio:
                cells.append(f"not upright {ours.size}")
                values.append(None)
                continue
            value = psnr(ours, reference(os.path.join(inputs, name), ours.size))
            cells.append(f"{value:.2f}")
            values.append(value)
        change = ""
        if len(values) > 1 and values[0] is not None and values[-1] is not None:
            delta = values[-1] - values[0]
            change = f"{delta:+.2f}"
            worst = delta if worst is None else min(worst, delta)
        print(f"| {name} | " + " | ".join(cells) + f" | {change} |")
    if worst is not None:
        print(f"\nlargest loss from the first folder: {worst:+.2f} dB")


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# make card-pictures (part): one contact sheet per size class from the cards card-bench wrote
# (`card-bench --write DIR`: DIR/<class>/<type>-<light|dark>.<ext>), every sample type light
# then dark, in card-bench's order: docs/cards/tile.png, portrait.png, landscape.png.
# Tiles are kept at 50 % (256 px, about the size a phone's grid shows them in points);
# portraits and landscapes at 25 %. Uses the vips command line (a documentation tool, not
# the product).
set -euo pipefail
in=${1:?usage: card-sheets.sh CARDS_DIR OUT_DIR}
out=${2:?usage: card-sheets.sh CARDS_DIR OUT_DIR}
mkdir -p "$out"
for class in tile portrait landscape; do
    case $class in
        tile) scale=0.5; across=8 ;;
        portrait) scale=0.25; across=8 ;;
        landscape) scale=0.25; across=6 ;;
    esac
    files=()
    while read -r name; do
        for appearance in light dark; do
            files+=("$(ls "$in/$class/$name-$appearance".* | head -1)")
        done
    done < <(ls "$in/$class" | sed -E 's/-(light|dark)\.[a-z]+$//' | awk '!seen[$0]++')
    vips arrayjoin "${files[*]}" "$out/.$class-full.v" --across "$across" --shim 24 --background "255 255 255"
    vips resize "$out/.$class-full.v" "$out/$class.png[palette,Q=90,compression=9,strip]" "$scale" --kernel linear
    rm -f "$out/.$class-full.v"
done

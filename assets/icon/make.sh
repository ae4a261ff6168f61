#!/bin/sh
# Makes the icon's PNGs from muster.svg (ImageMagick); run from this folder.
# The PNGs are committed: a build needs no SVG renderer.
set -e
for size in 16 32 48 64 128 256 512; do
    convert -background none -density 768 muster.svg -resize "${size}x${size}" -depth 8 \
        -define png:exclude-chunks=date,time "muster-${size}.png"
done

#!/bin/sh
# Makes the icon's PNGs from muster.svg, and its Windows .ico from them
# (ImageMagick); run from this folder.
# The PNGs are committed: a build needs no SVG renderer.
set -e
for size in 16 32 48 64 128 256 512; do
    convert -background none -density 768 muster.svg -resize "${size}x${size}" -depth 8 \
        -define png:exclude-chunks=date,time "muster-${size}.png"
done
# Windows' icon (embedded in muster.exe by build.rs, shown by Explorer, the
# Start menu and the installer): the sizes Windows asks for, PNG inside.
convert muster-16.png muster-32.png muster-48.png muster-64.png muster-128.png muster-256.png \
    -define png:exclude-chunks=date,time muster.ico

"""Draws Tableside's app icons (a white spade on the brand's navy square) as PNG files, with no
library but the standard one: static/icons/icon-192.png, icon-512.png and the "maskable"
icon-maskable-512.png (the spade kept inside the middle 80%, the safe zone a phone may crop to).
The SVG beside them (icon.svg) is the same drawing, written by hand.

Run `.venv/bin/python scripts/make_icons.py` after changing the drawing; the files are committed."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
NAVY = (0x1D, 0x35, 0x57)
WHITE = (0xFF, 0xFF, 0xFF)


def inside_spade(x: float, y: float) -> bool:
    """The spade in a unit square (0..1, y down): an upside-down heart and a stem."""
    # The heart's two lobes and the point upwards.
    for cx in (0.37, 0.63):
        if (x - cx) ** 2 + (y - 0.56) ** 2 <= 0.145**2:
            return True
    if 0.18 <= y <= 0.56:
        half = (y - 0.18) * 0.71  # the sides of the point, from its tip at (0.5, 0.18)
        if abs(x - 0.5) <= half:
            return True
    # The stem, widening to its foot.
    if 0.6 <= y <= 0.84:
        half = 0.035 + (y - 0.6) * 0.42
        return abs(x - 0.5) <= half
    return False


def draw(size: int, *, scale: float, rounded: bool) -> bytes:
    rows = []
    radius = size * 0.18 if rounded else 0
    samples = ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            covered = 0
            for sx, sy in samples:  # 4 samples a pixel: smooth edges
                x, y = (px + sx) / size, (py + sy) / size
                # The spade drawn at `scale` of the square, centred.
                ux, uy = 0.5 + (x - 0.5) / scale, 0.5 + (y - 0.5) / scale
                covered += inside_spade(ux, uy)
            share = covered / len(samples)
            colour = tuple(
                round(n * (1 - share) + w * share) for n, w in zip(NAVY, WHITE, strict=True)
            )
            alpha = 255
            if radius:
                cx = min(max(px + 0.5, radius), size - radius)
                cy = min(max(py + 0.5, radius), size - radius)
                distance = ((px + 0.5 - cx) ** 2 + (py + 0.5 - cy) ** 2) ** 0.5
                alpha = round(255 * min(1.0, max(0.0, radius - distance + 0.5)))
            row += bytes([*colour, alpha])
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, scale, rounded in (
        ("icon-192.png", 192, 0.9, True),
        ("icon-512.png", 512, 0.9, True),
        ("icon-maskable-512.png", 512, 0.7, False),
    ):
        (OUT / name).write_bytes(draw(size, scale=scale, rounded=rounded))
        print(OUT / name)


if __name__ == "__main__":
    main()

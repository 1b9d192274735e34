"""Draw the app's icons: a double five (the spinner of All Fives) on the site's blue.

    .venv/bin/python scripts/make_icons.py

Writes, all committed (so neither the server nor CI needs this script):

- static/icons/icon.svg                 the drawing itself (``<link rel="icon">``, the manifest)
- static/icons/icon-192.png, -512.png   the manifest's icons (rounded square, transparent corners)
- static/icons/icon-maskable-512.png    the manifest's maskable icon: full bleed, the tile
                                        inside the central 80 % circle a launcher may keep
- static/icons/apple-touch-icon.png     180 px, full bleed (iOS rounds the corners itself)
- webroot/favicon.ico                   16, 32 and 48 px, served at /favicon.ico
                                        (settings.WHITENOISE_ROOT)

The SVG is rendered to PNG by the system Chromium through Playwright (the one the
browser tests use; Pillow is not a dependency), and the .ico is assembled here: an ICO
file may hold PNG images as they are (every browser and Windows since Vista read them).
"""

from __future__ import annotations

import struct
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent

ICONS = ROOT / "static" / "icons"
WEBROOT = ROOT / "webroot"
CHROMIUM = "/usr/bin/chromium"

BLUE = "#0b5cad"  # --color-primary in static/css/app.css, and the manifest's theme colour
IVORY = "#fffdf5"  # a tile's face on the board (.domino-face)
INK = "#111111"  # its pips


def tile(cx: float, cy: float, width: float) -> str:
    """A vertical double five of ``width``, centred on (cx, cy), as SVG elements."""
    height = 2 * width
    x, y = cx - width / 2, cy - height / 2
    radius = width * 0.12
    pip = width * 0.085
    edge = width * 0.04
    parts = [
        f'<rect x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}" rx="{radius:g}" '
        f'fill="{IVORY}" stroke="{INK}" stroke-width="{edge:g}"/>',
        f'<line x1="{x + width * 0.14:g}" y1="{cy:g}" x2="{x + width * 0.86:g}" y2="{cy:g}" '
        f'stroke="{INK}" stroke-width="{edge:g}" stroke-linecap="round"/>',
    ]
    for half_top in (y, cy):
        for fx, fy in ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)):
            parts.append(f'<circle cx="{x + fx * width:g}" cy="{half_top + fy * width:g}" '
                         f'r="{pip:g}" fill="{INK}"/>')
    return "".join(parts)


def svg(*, maskable: bool) -> str:
    """The icon on a 512 box: a rounded square, or (maskable) a full square whose tile
    fits the safe zone, a circle of radius 0.4 × 512 = 204.8 around the centre."""
    if maskable:
        background = f'<rect width="512" height="512" fill="{BLUE}"/>'
        drawing = tile(256, 256, 150)  # half-diagonal of 150 × 300 is 168 < 204.8
    else:
        background = f'<rect width="512" height="512" rx="96" fill="{BLUE}"/>'
        drawing = tile(256, 256, 200)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" '
            'width="512" height="512">'
            f'<title>Scorekeeper</title>{background}{drawing}</svg>\n')


def ico(images: list[tuple[int, bytes]]) -> bytes:
    """An .ico file holding ``images`` (size, PNG bytes) as they are."""
    header = struct.pack("<HHH", 0, 1, len(images))  # reserved, type 1 = icon, count
    offset = len(header) + 16 * len(images)
    entries, data = b"", b""
    for size, png in images:
        # width, height (0 means 256), colours, reserved, planes, bits, bytes, offset
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png),
                               offset + len(data))
        data += png
    return header + entries + data


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    WEBROOT.mkdir(exist_ok=True)
    plain, maskable = svg(maskable=False), svg(maskable=True)
    (ICONS / "icon.svg").write_text(plain)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])

        def render(markup: str, size: int) -> bytes:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                "<!DOCTYPE html><html><head><style>html,body{margin:0;background:transparent}"
                f"svg{{display:block;width:{size}px;height:{size}px}}</style></head>"
                f"<body>{markup}</body></html>")
            png = page.screenshot(omit_background=True)
            page.close()
            return png

        (ICONS / "icon-192.png").write_bytes(render(plain, 192))
        (ICONS / "icon-512.png").write_bytes(render(plain, 512))
        (ICONS / "icon-maskable-512.png").write_bytes(render(maskable, 512))
        (ICONS / "apple-touch-icon.png").write_bytes(
            render(maskable.replace('viewBox="0 0 512 512"', 'viewBox="56 56 400 400"'), 180))
        (WEBROOT / "favicon.ico").write_bytes(
            ico([(size, render(plain, size)) for size in (16, 32, 48)]))
        browser.close()
    for path in sorted([*ICONS.iterdir(), WEBROOT / "favicon.ico"]):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()

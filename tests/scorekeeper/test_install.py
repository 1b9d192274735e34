"""Installable and themed: the web app manifest, its icons, /favicon.ico, and
what base.html links for them; the Permissions-Policy lets the scorepad keep the screen on.

/favicon.ico is served by WhiteNoise from webroot/ through the whole middleware stack.
The static icons are read through the static files finders (the test client does not
serve /static/ with DEBUG off; the live server of the browser tests does).
"""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from scorekeeper.middleware import PERMISSIONS_POLICY

PNG = b"\x89PNG\r\n\x1a\n"
ROOT = Path(settings.BASE_DIR)


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    assert data.startswith(PNG)
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def body(response) -> bytes:
    """A response's bytes, streamed (WhiteNoise) or not."""
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def static_file(src: str) -> bytes:
    """The bytes of the static file at the address ``src`` (``/static/icons/…``)."""
    assert src.startswith(settings.STATIC_URL)
    found = finders.find(src.removeprefix(settings.STATIC_URL))
    assert isinstance(found, str), f"{src} is not a static file"
    return Path(found).read_bytes()


def manifest(client: Client) -> dict:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    return json.loads(response.content)


def test_favicon_ico_is_a_cacheable_icon_file():
    response = Client().get("/favicon.ico")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    assert "max-age=" in response["Cache-Control"] and "public" in response["Cache-Control"]
    data = body(response)
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)  # an icon, not a cursor
    sizes = set()
    for index in range(count):
        width, _, _, _, _, _, length, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * index:22 + 16 * index])
        image = data[offset:offset + length]
        assert png_size(image) == (width, width)
        sizes.add(width)
    assert sizes == {16, 32, 48}


def test_the_favicon_is_the_file_scripts_make_icons_writes():
    assert settings.WHITENOISE_ROOT == ROOT / "webroot"
    assert body(Client().get("/favicon.ico")) == (ROOT / "webroot" / "favicon.ico").read_bytes()


def test_manifest_has_its_own_content_type_and_is_cached_a_day():
    response = Client().get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert "max-age=86400" in response["Cache-Control"]


def test_manifest_makes_the_site_installable(client):
    data = manifest(client)

    assert data["name"] == "Scorekeeper"
    assert data["short_name"] == "Scorekeeper"
    assert data["start_url"] == "/"
    assert data["scope"] == "/"
    assert data["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", data["background_color"])
    assert data["theme_color"] == "#0b5cad"
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in data["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable"),
                          ("any", "any")}
    assert icons[("any", "any")]["type"] == "image/svg+xml"


@pytest.mark.parametrize("key", [("192x192", "any"), ("512x512", "any"),
                                 ("512x512", "maskable")])
def test_each_png_icon_in_the_manifest_is_a_png_of_its_size(client, key):
    icon = {(i["sizes"], i["purpose"]): i for i in manifest(client)["icons"]}[key]
    assert icon["type"] == "image/png"
    assert icon["src"].endswith(".png")

    width, height = png_size(static_file(icon["src"]))

    assert f"{width}x{height}" == key[0]


def test_the_maskable_icon_fills_its_square_and_the_other_has_clear_corners(client):
    """A maskable icon must not be transparent anywhere (the launcher crops it); the
    plain one is a rounded square. Read from the PNG's colour type: 2 = RGB, 6 = RGBA."""
    icons = {(i["sizes"], i["purpose"]): i["src"] for i in manifest(client)["icons"]}
    maskable = static_file(icons[("512x512", "maskable")])
    plain = static_file(icons[("512x512", "any")])

    assert maskable[25] == 2  # no alpha channel at all
    assert plain[25] == 6


def test_the_svg_icon_is_an_svg_drawing(client):
    src = {i["type"]: i["src"] for i in manifest(client)["icons"]}["image/svg+xml"]

    assert src.endswith(".svg")
    assert static_file(src).startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')


def test_base_links_the_manifest_icons_and_colours():
    html = render_to_string("base.html", request=RequestFactory().get("/"))

    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<link rel="icon" href="/favicon.ico" sizes="48x48">' in html
    assert '<link rel="icon" href="/static/icons/icon.svg" type="image/svg+xml">' in html
    assert '<link rel="apple-touch-icon" href="/static/icons/apple-touch-icon.png">' in html
    assert '<meta name="color-scheme" content="light dark">' in html
    assert re.search(r'<meta name="theme-color" content="#0b5cad" '
                     r'media="\(prefers-color-scheme: light\)"', html)
    assert re.search(r'<meta name="theme-color" content="#[0-9a-f]{6}" '
                     r'media="\(prefers-color-scheme: dark\)"', html)


def test_base_applies_the_theme_before_the_first_paint():
    """theme.js is render-blocking (no defer, no async) and comes before the stylesheet."""
    html = render_to_string("base.html", request=RequestFactory().get("/"))

    head = html[:html.index("</head>")]
    assert '<script src="/static/js/theme.js"></script>' in head
    assert head.index("js/theme.js") < head.index("css/app.css")


def test_base_has_a_named_theme_switch():
    html = render_to_string("base.html", request=RequestFactory().get("/"))

    assert '<label class="visually-hidden" for="theme-select">Theme</label>' in html
    options = re.findall(r'<option value="(auto|light|dark)">', html)
    assert options == ["auto", "light", "dark"]


def test_apple_touch_icon_is_180_pixels():
    assert png_size(static_file("/static/icons/apple-touch-icon.png")) == (180, 180)


@pytest.mark.django_db
def test_permissions_policy_lets_the_site_keep_the_screen_on(client):
    header = client.get("/").headers["Permissions-Policy"]

    assert "screen-wake-lock=(self)" in header.split(", ")
    assert PERMISSIONS_POLICY["screen-wake-lock"] == "(self)"


def test_the_chosen_and_the_systems_dark_theme_are_the_same_colours():
    """app.css holds the dark theme twice, as CSS needs: for data-theme="dark" and for
    the system's dark scheme under Auto. They must not drift apart."""
    css = (ROOT / "static" / "css" / "app.css").read_text()
    chosen = re.search(r':root\[data-theme="dark"\] \{(.*?)\n\}', css, re.S)
    system = re.search(r'@media \(prefers-color-scheme: dark\) \{\s*'
                       r':root:not\(\[data-theme="light"\]\) \{(.*?)\n  \}', css, re.S)
    assert chosen and system

    def declarations(block: str) -> list[str]:
        return [" ".join(line.split()) for line in block.splitlines()
                if ":" in line and not line.strip().startswith("/*")]

    assert declarations(chosen.group(1)) == declarations(system.group(1))
    assert len(declarations(chosen.group(1))) > 20

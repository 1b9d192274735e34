"""templates/base.html: the layout every page extends."""

import re

from django.template.loader import render_to_string
from django.test import RequestFactory


def render_base() -> str:
    return render_to_string("base.html", request=RequestFactory().get("/"))


def test_base_sends_the_csrf_token_with_every_htmx_request():
    html = render_base()

    match = re.search(r"""<body hx-headers='\{"X-CSRFToken": "([^"]+)"\}'>""", html)
    assert match is not None
    assert len(match.group(1)) == 64


def test_base_loads_the_local_stylesheet_and_deferred_htmx():
    html = render_base()

    assert '<link rel="stylesheet" href="/static/css/app.css">' in html
    assert '<script src="/static/js/htmx.min.js" defer></script>' in html


def test_base_fits_phone_screens():
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in render_base()
